//===- ReasonsTest.cpp - The typed reasons and assumptions ----------------===//

#include "report/Reasons.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

/// The highest placeholder a template uses, plus one.
unsigned placeholders(const std::string &T) {
  unsigned N = 0;
  for (size_t I = 0; I + 2 < T.size(); ++I)
    if (T[I] == '{' && T[I + 2] == '}' && T[I + 1] >= '0' && T[I + 1] <= '9')
      N = std::max(N, unsigned(T[I + 1] - '0') + 1);
  return N;
}

TEST(Reasons, TemplatesAreFilledInOrder) {
  EXPECT_EQ(renderTemplate("a {1} b {0}", {"x", "y"}), "a y b x");
  EXPECT_EQ(renderTemplate("no placeholders", {}), "no placeholders");
  EXPECT_EQ(renderTemplate("{0}", {"`{1}` kept"}), "`{1}` kept");
}

TEST(Reasons, MadeFromTheirKind) {
  Reason R = makeReason(ReasonKind::LoadedData, {"idx[i]"});
  EXPECT_EQ(R.Kind, ReasonKind::LoadedData);
  EXPECT_EQ(R.Cause, ReasonKind::LoadedData);
  EXPECT_EQ(R.Text, "depends on data loaded by `idx[i]`");
  EXPECT_STREQ(reasonKindName(R.Kind), "loaded-data");
  EXPECT_TRUE(Reason().empty());
  EXPECT_FALSE(R.empty());
}

TEST(Reasons, AWrapperKeepsTheCauseOfItsInnerReason) {
  Reason Inner = makeReason(ReasonKind::LoadedData, {"flag[i]"});
  Reason R = wrapReason(ReasonKind::ActiveLanesOnData, {"flag[i] > 0", "7"}, Inner);
  EXPECT_EQ(R.Kind, ReasonKind::ActiveLanesOnData);
  EXPECT_EQ(R.Cause, ReasonKind::LoadedData);
  EXPECT_EQ(R.Text, "which lanes are active depends on `flag[i] > 0` (line 7): "
                    "depends on data loaded by `flag[i]`");
  Reason Twice = wrapReason(ReasonKind::ActiveLanesUnknown, {}, R);
  EXPECT_EQ(Twice.Cause, ReasonKind::LoadedData);
}

TEST(Reasons, AssumptionsAreMadeFromTheirKind) {
  Assumption A = makeAssumption(AssumptionKind::InteriorGuard, {"`i < n`", "4"});
  EXPECT_EQ(A.Kind, AssumptionKind::InteriorGuard);
  EXPECT_EQ(A.Text, "assuming `i < n` on every lane of interior warps (line 4)");
  EXPECT_STREQ(assumptionKindName(A.Kind), "interior-guard");
}

// Every kind has a distinct name and a template whose placeholders are
// numbered from 0 without gaps.
TEST(Reasons, EveryKindHasANameAndAWellFormedTemplate) {
  std::set<std::string> Names;
  auto Check = [&](const char *Name, const char *Template) {
    const std::string T = Template;
    EXPECT_FALSE(std::string(Name).empty());
    EXPECT_TRUE(Names.insert(Name).second) << "duplicate kind " << Name;
    EXPECT_FALSE(T.empty()) << Name;
    const unsigned N = placeholders(T);
    for (unsigned I = 0; I < N; ++I)
      EXPECT_NE(T.find("{" + std::to_string(I) + "}"), std::string::npos)
          << Name << " skips {" << I << "}";
  };
#define REASON(Id, Name, Text) Check(reasonKindName(ReasonKind::Id), reasonTemplate(ReasonKind::Id));
#define ASSUMPTION(Id, Name, Text)                                                       \
  Check(assumptionKindName(AssumptionKind::Id), assumptionTemplate(AssumptionKind::Id));
#include "report/Reasons.def"
  EXPECT_GT(Names.size(), 50u);
}

// No kind is a bare "{0}" (a sentence made by its caller): a template is a
// fixed sentence or has words of its own around its placeholders.
TEST(Reasons, NoKindIsABarePlaceholder) {
  auto Words = [](std::string T) {
    for (size_t I; (I = T.find('{')) != std::string::npos && I + 2 < T.size() &&
                   T[I + 2] == '}';)
      T.erase(I, 3);
    return T.find_first_not_of(" ();:,.'`") != std::string::npos;
  };
  for (size_t I = 1; I < reasonKindCount(); ++I) {
    const char *T = reasonTemplate(static_cast<ReasonKind>(I));
    EXPECT_TRUE(Words(T)) << reasonKindName(static_cast<ReasonKind>(I)) << ": '" << T << "'";
  }
  for (size_t I = 0; I < assumptionKindCount(); ++I) {
    const char *T = assumptionTemplate(static_cast<AssumptionKind>(I));
    EXPECT_TRUE(Words(T)) << assumptionKindName(static_cast<AssumptionKind>(I));
  }
}

// A reason's text is a function of its kind and arguments, rendered by
// renderReason: made again from (Kind, Args) it is the same reason.
TEST(Reasons, TheTextIsAFunctionOfKindAndArguments) {
  for (size_t I = 1; I < reasonKindCount(); ++I) {
    const ReasonKind K = static_cast<ReasonKind>(I);
    std::vector<std::string> Args;
    for (unsigned A = 0; A < placeholders(reasonTemplate(K)); ++A)
      Args.push_back("arg" + std::to_string(A));
    const Reason R = makeReason(K, Args);
    EXPECT_EQ(R.Args, Args) << reasonKindName(K);
    EXPECT_EQ(R.Text, renderReason(K, Args)) << reasonKindName(K);
    EXPECT_EQ(makeReason(R.Kind, R.Args), R) << reasonKindName(K);
  }
  Reason Inner = makeReason(ReasonKind::LoadedData, {"m[i]"});
  Reason W = wrapReason(ReasonKind::ActiveLanesOnData, {"m[i]", "7"}, Inner);
  EXPECT_EQ(W.Args, (std::vector<std::string>{"m[i]", "7", Inner.Text}));
  EXPECT_EQ(W.Text, renderReason(W.Kind, W.Args));
}

// The kinds split from a catch-all keep its name as their family, which is
// what JSON reports, and render the sentences their callers used to make.
TEST(Reasons, SplitKindsKeepTheirFamily) {
  EXPECT_EQ(reasonFamily(ReasonKind::LoadedData), ReasonKind::LoadedData);
  EXPECT_EQ(reasonFamily(ReasonKind::IndexArithmetic), ReasonKind::IndexArithmetic);
  EXPECT_EQ(reasonFamily(ReasonKind::RemainderByZero), ReasonKind::IndexArithmetic);
  EXPECT_EQ(reasonFamily(ReasonKind::StatedValueContradicts), ReasonKind::StatedFactConflict);
  EXPECT_EQ(reasonFamily(ReasonKind::NestingBudget), ReasonKind::BudgetExceeded);
  for (size_t I = 1; I < reasonKindCount(); ++I) {
    const ReasonKind F = reasonFamily(static_cast<ReasonKind>(I));
    EXPECT_EQ(reasonFamily(F), F) << "a family of a family";
  }
  EXPECT_EQ(makeReason(IntResult::fail(IntFail::IndexArithmetic, {"32", "(n)"})).Text,
            "the lanes straddle a multiple of 32 at a place that depends on (n)");
  EXPECT_EQ(makeReason(IntResult::fail(IntFail::LowBitsUnknown, {"&"})).Text,
            "'&' with a value whose low bits are not known per lane");
  EXPECT_EQ(makeReason(IntResult::fail(IntFail::RemainderByZero)).Kind,
            ReasonKind::RemainderByZero);
  EXPECT_TRUE(makeReason(IntResult::ok(Poly())).empty());
  EXPECT_EQ(makeReason(ReasonKind::StatedFactConflict, {"cols", "7", "8"}).Text,
            "'cols' is stated to be both 7 and 8");
  EXPECT_EQ(makeReason(ReasonKind::BudgetExceeded,
                       {makeReason(ReasonKind::StepBudgetInLoop, {"100", "k.cu:3"}).Text})
                .Text,
            "analysis budget exceeded (more than 100 interpretation steps, spent in the loop "
            "at k.cu:3)");
}

// The host walker's reasons, and what reaches a launch's block_unknown.
TEST(Reasons, HostReasons) {
  Reason V = makeReason(ReasonKind::HostReturnedAt, {"'pick'", "a.cu:3"});
  EXPECT_EQ(V.Text, "the value returned by 'pick' at a.cu:3");
  Reason B = wrapReason(ReasonKind::BlockDependsOn, {}, V);
  EXPECT_EQ(B.Text, "it depends on the value returned by 'pick' at a.cu:3");
  EXPECT_EQ(B.Cause, ReasonKind::HostReturnedAt);
  EXPECT_EQ(makeReason(ReasonKind::HostParamNotCalled, {"n", "run"}).Text,
            "the parameter 'n' of 'run', which no code in this file calls");
}

} // namespace
