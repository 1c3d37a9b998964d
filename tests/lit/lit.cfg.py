# lit configuration for coalesce-lint's source-level and CLI tests.
#
# Source-level tests are small .cu files with their expectations inline:
#   // RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
#   ...code...
#   // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4)
# Any diagnostic that is not expected fails the test. They parse with the
# built-in minimal CUDA header (a mock, not the SDK).
import os
import lit.formats

config.name = "coalesce-lint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_exec_root_dir

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["LC_ALL"] = "C"

lint = config.coalesce_lint + " --cuda-path=none --color=never"
# %lint: for source-level tests (findings do not fail the pipe; exit codes
# are tested by the CLI tests with %coalesce-lint and %expect-exit).
config.substitutions.append(("%coalesce-lint-bin", config.coalesce_lint))
config.substitutions.append(("%coalesce-lint", lint))
config.substitutions.append(("%lint", lint + " --exit-zero"))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%builtin-include", config.builtin_include))
config.substitutions.append(("%project", config.project_source_dir))
config.substitutions.append(
    ("%expect-exit", "python3 " + os.path.join(config.test_source_root, "expect_exit.py")))
