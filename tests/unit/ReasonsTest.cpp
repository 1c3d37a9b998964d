//===- ReasonsTest.cpp - The typed reasons and assumptions ----------------===//

#include "report/Reasons.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

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

} // namespace
