//===- GroupingTest.cpp - One finding for several instantiations ----------===//

#include "Grouping.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

AccessRecord record(const std::string &Kernel) {
  AccessRecord R;
  R.Kernel = Kernel;
  return R;
}

Finding finding(const AccessRecord &R, const std::string &Message, unsigned Line = 4) {
  Finding F;
  F.RuleId = "uncoalesced-global";
  F.Record = &R;
  F.Message = Message;
  F.Pos.File = "k.cu";
  F.Pos.Line = Line;
  F.Pos.Column = 12;
  F.Notes.push_back({std::nullopt, "lane 0 -> byte +0, lane 1 -> byte +128"});
  F.Notes.push_back({std::nullopt, "assuming blockDim = (256, 1, 1) from the launch at k.cu:" +
                                       std::to_string(20 + R.Kernel.size())});
  F.Notes.push_back({std::nullopt, "stage the tile through shared memory"});
  return F;
}

} // namespace

TEST(Grouping, KernelLists) {
  EXPECT_EQ(kernelList({"copy<char>", "copy<short>", "copy<int>"}), "copy<char>, <short>, <int>");
  EXPECT_EQ(kernelList({"ns::copy<char>", "ns::copy<int>"}), "ns::copy<char>, <int>");
  EXPECT_EQ(kernelList({"a<1>", "b<1>", "b<2>", "plain"}), "a<1>, b<1>, <2>, plain");
  EXPECT_EQ(kernelList({"k"}), "k");
}

TEST(Grouping, SameFindingOfSeveralInstantiationsIsOne) {
  AccessRecord C = record("copy<char>"), S = record("copy<short>"), I = record("copy<int>");
  const std::string M = "global load from 'in' uses 32 sectors per request (ideal 4)";
  std::vector<Finding> G = groupFindings({finding(C, M), finding(S, M), finding(I, M)});
  ASSERT_EQ(G.size(), 1u);
  EXPECT_EQ(G[0].Message, "copy<char>, <short>, <int>: " + M);
  EXPECT_EQ(G[0].Record, &C);
  EXPECT_EQ(G[0].Also, (std::vector<const AccessRecord *>{&S, &I}));
  // The evidence once, each instantiation's assumptions (saying whose), then
  // the suggestion: the notes stay in the order of their kind.
  ASSERT_EQ(G[0].Notes.size(), 5u);
  EXPECT_EQ(G[0].Notes[0].Message, "lane 0 -> byte +0, lane 1 -> byte +128");
  EXPECT_EQ(G[0].Notes[1].Message.rfind("in copy<char>: assuming blockDim", 0), 0u);
  EXPECT_EQ(G[0].Notes[2].Message.rfind("in copy<short>: assuming blockDim", 0), 0u);
  EXPECT_EQ(G[0].Notes[3].Message.rfind("in copy<int>: assuming blockDim", 0), 0u);
  EXPECT_EQ(G[0].Notes[4].Message, "stage the tile through shared memory");
}

TEST(Grouping, DifferentCostsStayApartEachNamed) {
  AccessRecord A = record("scale<2>"), B = record("scale<4>"), C = record("scale<8>");
  std::vector<Finding> G = groupFindings({finding(A, "uses 8 sectors"), finding(B, "uses 16 sectors"),
                                          finding(C, "uses 16 sectors")});
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].Message, "scale<2>: uses 8 sectors");
  EXPECT_EQ(G[1].Message, "scale<4>, <8>: uses 16 sectors");
  // Another line, rule or level is another finding.
  Finding Other = finding(A, "uses 8 sectors", 5);
  Finding Shared = finding(A, "uses 8 sectors");
  Shared.RuleId = "shared-bank-conflict";
  EXPECT_EQ(groupFindings({finding(A, "uses 8 sectors"), Other, Shared}).size(), 3u);
}

TEST(Grouping, LaunchesOfOneKernelKeepTheirNotesWithoutAName) {
  // A kernel that is no template: no name in the message; the launches'
  // assumption notes both stay.
  AccessRecord K = record("columns"), K2 = record("columns");
  Finding A = finding(K, "uses 32 sectors"), B = finding(K2, "uses 32 sectors");
  B.Notes[1].Message = "assuming blockDim = (64, 4, 1) from the launch at k.cu:30";
  std::vector<Finding> G = groupFindings({A, B});
  ASSERT_EQ(G.size(), 1u);
  EXPECT_EQ(G[0].Message, "uses 32 sectors");
  ASSERT_EQ(G[0].Notes.size(), 4u);
  EXPECT_EQ(G[0].Notes[1].Message, A.Notes[1].Message);
  EXPECT_EQ(G[0].Notes[2].Message, "assuming blockDim = (64, 4, 1) from the launch at k.cu:30");
  // A template kernel alone still names itself.
  AccessRecord T = record("scale<4>");
  EXPECT_EQ(groupFindings({finding(T, "m")})[0].Message, "scale<4>: m");
}

TEST(Grouping, FixItsAreMergedWithoutConflicts) {
  AccessRecord A = record("t<1>"), B = record("t<2>");
  Finding FA = finding(A, "m"), FB = finding(B, "m");
  FixIt X;
  X.Pos.File = "k.cu";
  X.Pos.Line = 2;
  X.Pos.Column = 20;
  X.RemoveLength = 2;
  X.Insert = "33";
  FA.Fixes.push_back(X);
  FixIt Y = X;
  Y.Insert = "34"; // another edit at the same place: would conflict
  FB.Fixes.push_back(Y);
  FixIt Z = X;
  Z.Pos.Line = 3; // elsewhere: kept
  FB.Fixes.push_back(Z);
  std::vector<Finding> G = groupFindings({FA, FB});
  ASSERT_EQ(G.size(), 1u);
  ASSERT_EQ(G[0].Fixes.size(), 2u);
  EXPECT_EQ(G[0].Fixes[0].Insert, "33");
  EXPECT_EQ(G[0].Fixes[1].Pos.Line, 3u);
}

TEST(Grouping, LaunchConfigurationsOfOneKernelWithDifferentCostsAreOneFinding) {
  // One kernel launched with three block sizes: one finding, the dearest
  // (a warning before a remark), with every configuration's cost in a note.
  AccessRecord A = record("swept"), B = record("swept"), C = record("swept");
  A.Launch.BlockKnown = B.Launch.BlockKnown = C.Launch.BlockKnown = true;
  A.Launch.Block = {64, 1, 1};
  B.Launch.Block = {256, 1, 1};
  C.Launch.Block = {128, 1, 1};
  A.Ans = Answer::exact(8, 4);
  B.Ans = Answer::exact(32, 4);
  C.Ans = Answer::exact(8, 4);
  Finding FA = finding(A, "uses 8 sectors per request (ideal 4)");
  Finding FB = finding(B, "uses 32 sectors per request (ideal 4)");
  Finding FC = finding(C, "uses 8 sectors per request (ideal 4)");
  std::vector<Finding> G = groupFindings({FA, FB, FC});
  ASSERT_EQ(G.size(), 1u);
  EXPECT_EQ(G[0].Message, "uses 32 sectors per request (ideal 4)");
  EXPECT_EQ(G[0].Record, &B);
  EXPECT_EQ(G[0].Also, (std::vector<const AccessRecord *>{&A, &C}));
  EXPECT_EQ(G[0].Notes.back().Message,
            "one finding for the 3 launch configurations or calls of this kernel that reach it; "
            "their costs: 8 sectors per request (ideal 4) for blockDim (64, 1, 1) and blockDim "
            "(128, 1, 1); 32 sectors per request (ideal 4) for blockDim (256, 1, 1).");
  // A load and a store at one position, and another kernel, stay apart.
  AccessRecord S = record("swept"), K = record("other");
  S.Op = AccessOp::Store;
  S.Ans = Answer::exact(16, 4);
  K.Ans = Answer::exact(12, 4);
  EXPECT_EQ(groupFindings({FA, finding(S, "uses 16 sectors per request (ideal 4)"),
                           finding(K, "uses 12 sectors per request (ideal 4)")})
                .size(),
            3u);
}

TEST(Grouping, TheLoadAndStoreOfAReadModifyWriteAreOneFinding) {
  AccessRecord L = record("k"), S = record("k"), Other = record("k");
  L.Array = S.Array = Other.Array = "out";
  L.Expression = S.Expression = "out[i * 8]";
  Other.Expression = "out[i * 16]";
  S.Op = Other.Op = AccessOp::Store;
  const std::string Rest = " uses 32 sectors per request (ideal 4): lanes are 32 bytes apart";
  Finding FL = finding(L, "global load from 'out'" + Rest);
  Finding FS = finding(S, "global store to 'out'" + Rest);
  std::vector<Finding> G = groupFindings({FL, FS});
  ASSERT_EQ(G.size(), 1u);
  EXPECT_EQ(G[0].Message,
            "global load and store of 'out' each use 32 sectors per request (ideal 4): lanes are "
            "32 bytes apart");
  EXPECT_EQ(G[0].Also, (std::vector<const AccessRecord *>{&S}));
  // Another cost, or another expression at the same place, stays apart.
  EXPECT_EQ(groupFindings({FL, finding(S, "global store to 'out' uses 16 sectors per request")})
                .size(),
            2u);
  EXPECT_EQ(groupFindings({FL, finding(Other, "global store to 'out'" + Rest)}).size(), 2u);
}
