# lit configuration for coalesce-lint's source-level and CLI tests.
#
# Source-level tests are small .cu files with their expectations inline:
#   // RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
#   ...code...
#   // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4)
# Any diagnostic that is not expected fails the test. They parse with the
# built-in minimal CUDA header (a mock, not the SDK).
#
# Every such test (a .cu file whose RUN lines use %lint) also runs through the
# clang-tidy plugin, as tidy-plugin/<path>: the same file with %lint replaced
# by lint_via_tidy.py, which calls clang-tidy with the plugin and maps the CLI
# options onto check options. That variant has the lit feature `tidy`, so a
# test can say `UNSUPPORTED: tidy`, or use `%if tidy %{...%} %else %{...%}`
# (e.g. for FileCheck prefixes) where the two front-ends differ. Tests of the
# plugin itself live in tidy/ and use %tidy and %cuda-flags directly.
import os
import re
import shlex
import subprocess
import sys

# The test format lives in a module of its own: lit pickles tests (and their
# format) for its worker processes, which cannot find classes defined here.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coalesce_format  # noqa: E402

config.name = "coalesce-lint"
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_exec_root_dir

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["LC_ALL"] = "C"
# The precompiled-header cache (analyzer/Preamble.h) of this build tree, not
# the user's ~/.cache; tests of the cache itself pass --cache-dir.
config.environment["COALESCE_CACHE_DIR"] = os.path.join(config.test_exec_root, "preamble-cache")

# The source analysis alone: the compiler witness (docs/witness.md) is tested
# where a test asks for it, with %witness-lint (feature `witness`: nvcc and
# nvdisasm found at configure time).
lint = config.coalesce_lint + " --cuda-path=none --color=never --witness=off"
if config.witness_nvcc and config.witness_nvdisasm:
    config.available_features.add("witness")
    config.environment["COALESCE_NVDISASM"] = config.witness_nvdisasm
    config.substitutions.append(("%nvcc", config.witness_nvcc))
config.substitutions.append(
    ("%witness-lint", config.coalesce_lint + " --color=never --exit-zero --witness=auto"))
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
# %records: the JSON output one access record a line (records.py).
config.substitutions.append(
    ("%records", "python3 " + os.path.join(config.test_source_root, "records.py")))

# The clang-tidy plugin: %tidy runs clang-tidy-22 (by absolute path: another
# version would list the checks but find nothing) with the module and only the
# coalesce- checks; %cuda-flags are the clang flags the CLI uses with the
# built-in header (analyzer/Invocation.cpp), to go after `--`.
tidy = "%s --load=%s --checks='-*,coalesce-*' --quiet" % (
    config.clang_tidy, config.tidy_module)
cuda_flags = " ".join([
    "-x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -std=c++17",
    "-nocudainc -nocudalib -isystem", config.builtin_include,
    "-include cuda_runtime.h",
    "-resource-dir=" + config.clang_resource_dir,
    "-Wno-unknown-cuda-version -w -D__COALESCE_LINT__=1"])
config.substitutions.append(("%clang-tidy", config.clang_tidy))
config.substitutions.append(("%tidy-module", config.tidy_module))
config.substitutions.append(("%tidy", tidy))
config.substitutions.append(("%cuda-flags", cuda_flags))
config.substitutions.append(
    ("%coalesce-tidy", os.path.join(config.project_source_dir, "tools", "coalesce-tidy")))
if os.path.exists("/usr/local/cuda/include/cuda_runtime.h"):
    config.available_features.add("cuda-toolkit")
# nvcc and CMake, for the test of a CMake-generated compile_commands.json.
_nvcc = "/usr/local/cuda/bin/nvcc"
import shutil  # noqa: E402
if os.access(_nvcc, os.X_OK) and shutil.which("cmake") and shutil.which("ninja"):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", _nvcc))
# Bad-input tests (cli/bad-input-*.test): %as-unprivileged drops root so that
# file permissions apply; %without-cuda-toolkit hides the toolkit in a private
# mount namespace, where unshare(1) may make one.
config.substitutions.append(
    ("%as-unprivileged", "python3 " + os.path.join(config.test_source_root, "as_unprivileged.py")))
config.substitutions.append(
    ("%without-cuda-toolkit",
     "python3 " + os.path.join(config.test_source_root, "without_cuda_toolkit.py")))
_unshare = ["unshare", "--mount", "--propagation", "private"]
if os.geteuid() != 0:
    _unshare.append("--map-root-user")
try:
    if subprocess.run(_unshare + ["true"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("mount-namespace")
except OSError:
    pass

# The plugin variant of the source-level tests (coalesce_format.py): %lint
# becomes lint_via_tidy.py, which needs the CLI command (for --format=json),
# clang-tidy, the module, the rule ids and the CUDA flags.
with open(os.path.join(config.project_source_dir, "rules", "Rules.def")) as f:
    rule_ids = re.findall(r'^COALESCE_RULE\(\s*\w+\s*,\s*"([^"]+)"', f.read(), re.M)
lint_via_tidy = " ".join([
    "python3", os.path.join(config.test_source_root, "lint_via_tidy.py"),
    shlex.quote(lint + " --exit-zero"), config.clang_tidy, config.tidy_module,
    ",".join(rule_ids), shlex.quote(cuda_flags)])
config.test_format = coalesce_format.CoalesceTest(lint_via_tidy)
