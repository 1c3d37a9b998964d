"""The lit test format of coalesce-lint's tests (see lit.cfg.py).

A ShTest, plus: every source-level test (a .cu file outside tidy/ and witness/ whose RUN
lines use %lint) is also run through the clang-tidy plugin, as
tidy-plugin/<path>, with %lint replaced by lint_via_tidy.py and the lit feature
`tidy` on.
"""
import copy
import re

import lit.formats
import lit.Test


class TidyVariant(lit.Test.Test):
    """A source-level test run through the plugin: a name of its own under
    tidy-plugin/ (and so its own %t), the source file of the original."""

    def __init__(self, suite, path_in_suite, config, source):
        super().__init__(suite, ("tidy-plugin",) + path_in_suite, config)
        self.source = source

    def getSourcePath(self):
        return self.source


class CoalesceTest(lit.formats.ShTest):
    LINT_RUN = re.compile(r"RUN:.*%lint\b")

    def __init__(self, lint_via_tidy):
        super().__init__(execute_external=False)
        self.lint_via_tidy = lint_via_tidy
        self.tidy_configs = {}  # id(local config) -> (local config, its tidy copy)

    def tidyConfig(self, local):
        if id(local) not in self.tidy_configs:
            c = copy.copy(local)
            c.available_features = set(local.available_features) | {"tidy"}
            c.substitutions = [("%lint", self.lint_via_tidy)] + list(local.substitutions)
            self.tidy_configs[id(local)] = (local, c)
        return self.tidy_configs[id(local)][1]

    def getTestsForPath(self, suite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsForPath(suite, path_in_suite, litConfig, localConfig):
            yield test
            # witness/: the compiler witness, which the plugin does not run.
            if path_in_suite[0] in ("tidy", "witness") or not path_in_suite[-1].endswith(".cu"):
                continue
            with open(test.getSourcePath(), errors="replace") as f:
                if not self.LINT_RUN.search(f.read()):
                    continue
            yield TidyVariant(suite, path_in_suite, self.tidyConfig(localConfig),
                              test.getSourcePath())
