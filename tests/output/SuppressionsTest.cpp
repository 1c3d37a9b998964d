//===- SuppressionsTest.cpp - Inline comments that silence findings -------===//

#include "Suppressions.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {
const char *Global = "coalesce-uncoalesced-global";
const char *Shared = "coalesce-shared-bank-conflict";

std::string on(const std::vector<std::string> &Lines, unsigned Line, const char *Check) {
  return FileSuppressions(Lines).suppressedBy(Line, Check);
}
} // namespace

TEST(Suppressions, SameLineComments) {
  EXPECT_EQ(on({"x = in[i]; // coalesce-lint: ignore"}, 1, Global), "// coalesce-lint: ignore");
  EXPECT_EQ(on({"x = in[i]; // coalesce-lint: ignore"}, 1, Shared), "// coalesce-lint: ignore");
  EXPECT_EQ(on({"x; // coalesce-lint: ignore[uncoalesced-global]"}, 1, Global),
            "// coalesce-lint: ignore[uncoalesced-global]");
  EXPECT_EQ(on({"x; // coalesce-lint: ignore[uncoalesced-global]"}, 1, Shared), "");
  EXPECT_NE(on({"x; // coalesce-lint:ignore[coalesce-shared-bank-conflict, uncoalesced-global]"}, 1,
               Shared), "");
  EXPECT_EQ(on({"x; // coalesce-lint: ignored"}, 1, Global), "");
  EXPECT_EQ(on({"x; // coalesce-lint: ignore"}, 2, Global), "");
}

TEST(Suppressions, Nolint) {
  EXPECT_EQ(on({"x; // NOLINT"}, 1, Global), "NOLINT");
  EXPECT_EQ(on({"x; // NOLINT(coalesce-uncoalesced-global)"}, 1, Global),
            "NOLINT(coalesce-uncoalesced-global)");
  EXPECT_EQ(on({"x; // NOLINT(coalesce-uncoalesced-global)"}, 1, Shared), "");
  EXPECT_NE(on({"x; // NOLINT(bugprone-*, coalesce-*)"}, 1, Shared), "");
  EXPECT_EQ(on({"x; // NOLINT(bugprone-*)"}, 1, Global), "");
  EXPECT_EQ(on({"x; // NOLINT(coalesce-*,-coalesce-uncoalesced-global)"}, 1, Global), "");
  EXPECT_NE(on({"x; // NOLINT(coalesce-*,-coalesce-uncoalesced-global)"}, 1, Shared), "");
  EXPECT_EQ(on({"x; // NOLINTFOO"}, 1, Global), "");
  EXPECT_EQ(on({"x; // NOLINT(coalesce-uncoalesced-global"}, 1, Global), ""); // unclosed
}

TEST(Suppressions, NextLineAndRegions) {
  std::vector<std::string> L = {"// NOLINTNEXTLINE(coalesce-*)", "a;", "b;"};
  EXPECT_EQ(on(L, 1, Global), "");
  EXPECT_NE(on(L, 2, Global), "");
  EXPECT_EQ(on(L, 3, Global), "");

  std::vector<std::string> R = {"a;", "// NOLINTBEGIN(coalesce-uncoalesced-global)", "b;", "c;",
                                "// NOLINTEND(coalesce-uncoalesced-global)", "d;"};
  EXPECT_EQ(on(R, 1, Global), "");
  EXPECT_NE(on(R, 3, Global), "");
  EXPECT_NE(on(R, 4, Global), "");
  EXPECT_EQ(on(R, 4, Shared), "");
  EXPECT_EQ(on(R, 6, Global), "");

  // An unmatched BEGIN (or END) suppresses nothing, as in clang-tidy.
  EXPECT_EQ(on({"// NOLINTBEGIN(coalesce-*)", "a;"}, 2, Global), "");
  EXPECT_EQ(on({"a;", "// NOLINTEND(coalesce-*)"}, 1, Global), "");
  // END must name what BEGIN named.
  EXPECT_EQ(on({"// NOLINTBEGIN(coalesce-*)", "a;", "// NOLINTEND"}, 2, Global), "");
}

TEST(Suppressions, GlobList) {
  EXPECT_TRUE(matchesGlobList({"coalesce-*"}, Global));
  EXPECT_TRUE(matchesGlobList({"*"}, Global));
  EXPECT_FALSE(matchesGlobList({"coalesce-*", "-coalesce-uncoalesced-*"}, Global));
  EXPECT_TRUE(matchesGlobList({"-coalesce-*", "coalesce-uncoalesced-global"}, Global));
  EXPECT_FALSE(matchesGlobList({"coalesce-shared-*"}, Global));
}

TEST(Suppressions, UnknownRuleNamesAreProblems) {
  FileSuppressions S({"x;", "y; // coalesce-lint: ignore[uncoalesced-globl, shared-bank-conflict]",
                      "z; // coalesce-lint: ignore[coalesce-*, -coalesce-bank]",
                      "w; // coalesce-lint: ignore[uncoalesced-global] NOLINT(bugprone-typo)"});
  ASSERT_EQ(S.problems().size(), 2u);
  EXPECT_EQ(S.problems()[0].Line, 2u);
  EXPECT_EQ(S.problems()[0].Column, 29u);
  EXPECT_EQ(S.problems()[0].Message,
            "unknown rule 'uncoalesced-globl' in 'coalesce-lint: "
            "ignore[uncoalesced-globl, shared-bank-conflict]' (did you mean "
            "'uncoalesced-global'? rules: uncoalesced-global, misaligned-global, "
            "shared-bank-conflict, constant-serialisation, uncoalesced-local, tma-contract)");
  // A typo names the rule it is likely of (the clang-tidy plugin reports it
  // under that rule's check); a name far from every rule names none.
  EXPECT_EQ(S.problems()[0].Nearest, "uncoalesced-global");
  EXPECT_EQ(S.problems()[1].Line, 3u);
  EXPECT_EQ(S.problems()[1].Column, 42u);
  EXPECT_EQ(S.problems()[1].Nearest, "");
  // The misspelt name silences nothing; the others still work.
  EXPECT_EQ(S.suppressedBy(2, Global), "");
  EXPECT_NE(S.suppressedBy(2, Shared), "");
}

TEST(Suppressions, WithoutNolint) {
  // The clang-tidy plugin reads only coalesce-lint's own form.
  FileSuppressions S = FileSuppressions::fromText(
      "a; // NOLINT\nb; // coalesce-lint: ignore\n", /*Nolint=*/false);
  EXPECT_EQ(S.suppressedBy(1, Global), "");
  EXPECT_NE(S.suppressedBy(2, Global), "");
}
