// The thread-mapping fixes (cost/ThreadSwap.h): the comparison of the two
// walks, on records made by hand, and the staged transpose's tile.
#include "cost/ThreadSwap.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

AccessRecord access(const char *Array, unsigned Line, AccessOp Op, double Cost, double Ideal,
                    MemorySpace Space = MemorySpace::Global) {
  AccessRecord R;
  R.Space = Space;
  R.Op = Op;
  R.Array = Array;
  R.Kernel = "k";
  R.Pos = {"k.cu", Line, 3, 0, ""};
  R.Pos.RawLoc = Line;
  R.Launch.BlockKnown = true;
  R.Launch.Block = {32, 32, 1};
  R.BytesPerLane = 4;
  R.ElementType = "float";
  R.RequestsPerWarp = 1;
  R.Ans = Answer::exact(Cost, Ideal);
  return R;
}

} // namespace

TEST(ThreadSwapTest, WorthTryingOnlyWithTwoDimensionsAndAnExcess) {
  std::vector<AccessRecord> R{access("a", 5, AccessOp::Load, 32, 4)};
  EXPECT_TRUE(swapWorthTrying(R[0].Launch, R));
  LaunchConfig Flat = R[0].Launch;
  Flat.Block = {256, 1, 1};
  EXPECT_FALSE(swapWorthTrying(Flat, R));
  R[0].Ans = Answer::exact(4, 4);
  EXPECT_FALSE(swapWorthTrying(R[0].Launch, R));
}

TEST(ThreadSwapTest, OfferedWhenNoAccessWastesMore) {
  // The naive product: A's rows (32 -> 1, a broadcast after), B's column
  // (1 -> 4: a row each lane reads its own element of, at its new ideal)
  // and C (32 -> 4).
  std::vector<AccessRecord> B{access("A", 9, AccessOp::Load, 32, 4),
                              access("B", 9, AccessOp::Load, 1, 1),
                              access("C", 10, AccessOp::Store, 32, 4)};
  std::vector<AccessRecord> A{access("A", 9, AccessOp::Load, 1, 1),
                              access("B", 9, AccessOp::Load, 4, 4),
                              access("C", 10, AccessOp::Store, 4, 4)};
  B[1].Pos.Column = A[1].Pos.Column = 25;
  attachThreadSwap(B, A, {});
  ASSERT_TRUE(B[0].Swap);
  EXPECT_EQ(B[0].Swap->CostAfter, 1);
  ASSERT_EQ(B[0].Swap->Others.size(), 2u);
  EXPECT_EQ(B[0].Swap->Others[0].Array, "B");
  EXPECT_EQ(B[0].Swap->Others[0].IdealAfter, 4);
  ASSERT_TRUE(B[2].Swap);
  EXPECT_EQ(B[2].Swap->CostAfter, 4);
  EXPECT_FALSE(B[1].Swap); // at its ideal: no finding to fix
}

TEST(ThreadSwapTest, NotOfferedWhenAnotherAccessGetsWorse) {
  // The transpose: the write becomes contiguous, the read strided.
  std::vector<AccessRecord> B{access("out", 5, AccessOp::Store, 32, 4),
                              access("in", 5, AccessOp::Load, 4, 4)};
  std::vector<AccessRecord> A{access("out", 5, AccessOp::Store, 4, 4),
                              access("in", 5, AccessOp::Load, 32, 4)};
  B[1].Pos.Column = A[1].Pos.Column = 20;
  B[1].Pos.RawLoc = 20;
  SwapFacts F;
  F.Assignments = {{B[0].Pos.RawLoc, B[1].Pos.RawLoc}};
  attachThreadSwap(B, A, F);
  EXPECT_FALSE(B[0].Swap);
  EXPECT_NE(B[0].NoSwapWhy.find("the load of 'in' at line 5 worse (4 -> 32 sectors"),
            std::string::npos)
      << B[0].NoSwapWhy;
  // The other side of its assignment: the staged transpose.
  ASSERT_TRUE(B[0].Stage);
  EXPECT_EQ(B[0].Stage->CostAfter, 4);
  EXPECT_EQ(B[0].Stage->Partner.Array, "in");
  EXPECT_EQ(B[0].Stage->Partner.Before, 4);
  EXPECT_EQ(B[0].Stage->Tile, 32);
  EXPECT_EQ(B[0].Stage->Pad, 1);
  EXPECT_EQ(B[0].Stage->ColumnWavefronts, 1);
  EXPECT_EQ(B[0].Stage->ColumnUnpadded, 32);

  // Without the assignment, or with a block that is not square: neither.
  std::vector<AccessRecord> C = {B[0], B[1]};
  C[0].Stage.reset();
  attachThreadSwap(C, A, {});
  EXPECT_FALSE(C[0].Stage);
  C[0].Launch.Block = C[1].Launch.Block = {32, 8, 1};
  attachThreadSwap(C, A, F);
  EXPECT_FALSE(C[0].Stage);
}

TEST(ThreadSwapTest, WarpSynchronousCodeAndUnknownsBlockIt) {
  std::vector<AccessRecord> B{access("a", 5, AccessOp::Load, 32, 4)};
  std::vector<AccessRecord> A{access("a", 5, AccessOp::Load, 4, 4)};
  SwapFacts F;
  F.WarpSynchronous = "`__shfl_xor_sync` at k.cu:6";
  attachThreadSwap(B, A, F);
  EXPECT_FALSE(B[0].Swap);
  EXPECT_NE(B[0].NoSwapWhy.find("__shfl_xor_sync"), std::string::npos);

  // An access that cannot be predicted either way: nothing is shown.
  std::vector<AccessRecord> B2{access("a", 5, AccessOp::Load, 32, 4),
                               access("idx", 6, AccessOp::Load, 1, 1)};
  std::vector<AccessRecord> A2{access("a", 5, AccessOp::Load, 4, 4),
                               access("idx", 6, AccessOp::Load, 1, 1)};
  B2[1].Ans = A2[1].Ans = Answer::unknown(makeReason(ReasonKind::LoadedData, {"idx[i]"}));
  attachThreadSwap(B2, A2, {});
  EXPECT_FALSE(B2[0].Swap);
  EXPECT_NE(B2[0].NoSwapWhy.find("not known both ways"), std::string::npos) << B2[0].NoSwapWhy;
}

TEST(ThreadSwapTest, StagedTileNeedsThePaddingItsElementsAsk) {
  // floats: one word of padding makes the column read conflict-free.
  TileCost F = stagedTileCost(32, 4);
  EXPECT_EQ(F.Pad, 1);
  EXPECT_EQ(F.Row, 1);
  EXPECT_EQ(F.Column, 1);
  EXPECT_EQ(F.ColumnUnpadded, 32);
  // doubles on a 16 x 16 block: two rows per warp.
  TileCost D = stagedTileCost(16, 8);
  EXPECT_EQ(D.Row, 2);
  EXPECT_EQ(D.Column, 2);
  EXPECT_GT(D.ColumnUnpadded, D.Column);
}

namespace {

/// An answer that depends on the size n: Small[v] for v < From, then
/// Large for every v >= From (period 1).
Answer sized(std::vector<std::pair<double, double>> Small, std::pair<double, double> Large) {
  ParametricCost P;
  P.Name = "n";
  const int64_t From = static_cast<int64_t>(Small.size());
  ParamCase C;
  C.When.Min = From;
  C.Text = "for every n >= " + std::to_string(From);
  C.Cost.Cost = Large.first;
  C.Cost.Ideal = Large.second;
  P.Cases.push_back(C);
  for (size_t V = 0; V < Small.size(); ++V) {
    CostPoint Pt;
    Pt.Cost = Small[V].first;
    Pt.Ideal = Small[V].second;
    P.Table.push_back({int64_t(V), Pt});
  }
  P.Table.push_back({From, C.Cost});
  P.PeriodicFrom = From;
  P.Period = 1;
  P.LargeMin = P.LargeMax = Large.first;
  return Answer::parametric(P);
}

} // namespace

TEST(ThreadSwapTest, SizesKnownAtRunTimeAreComparedAtEverySize) {
  // C[x * n + y]: 1 sector at n == 0 (one address), 32 from n == 2 on;
  // after, 4 at every n (a row of 32 floats). Dearer at n == 0, but only
  // as its ideal grows: offered, with the case the finding states.
  std::vector<AccessRecord> B{access("C", 8, AccessOp::Store, 0, 0)};
  B[0].Ans = sized({{1, 1}, {8.75, 4}}, {32, 4});
  std::vector<AccessRecord> A{access("C", 8, AccessOp::Store, 4, 4)};
  attachThreadSwap(B, A, {});
  ASSERT_TRUE(B[0].Swap) << B[0].NoSwapWhy;
  EXPECT_EQ(B[0].Swap->CostAfter, 4);
  EXPECT_EQ(B[0].Swap->When, "for every n >= 2");

  // Wasting more at some size is worse, even where the finding's case
  // gains: 4 (ideal 4) becomes 8 (ideal 4) at n == 1.
  std::vector<AccessRecord> B2{access("C", 8, AccessOp::Store, 0, 0),
                               access("D", 9, AccessOp::Load, 4, 4)};
  B2[0].Ans = sized({{1, 1}, {8.75, 4}}, {32, 4});
  std::vector<AccessRecord> A2{access("C", 8, AccessOp::Store, 4, 4),
                               access("D", 9, AccessOp::Load, 0, 0)};
  A2[1].Ans = sized({{4, 4}, {8, 4}}, {4, 4});
  attachThreadSwap(B2, A2, {});
  EXPECT_FALSE(B2[0].Swap);
  EXPECT_NE(B2[0].NoSwapWhy.find("the load of 'D' at line 9 worse"), std::string::npos)
      << B2[0].NoSwapWhy;
}

TEST(ThreadSwapTest, EveryLaunchOfTheKernelMustGain) {
  // Two launches (groups): the first gains, the second would lose.
  std::vector<std::vector<AccessRecord>> G(2);
  G[0] = {access("a", 5, AccessOp::Store, 8, 4)};
  G[0][0].Launch.Block = {8, 32, 1};
  G[0][0].Launch.Sites = {{"k.cu", 40, 3, 0, ""}};
  G[1] = {access("a", 5, AccessOp::Store, 4, 4)};
  G[1][0].Launch.Block = {32, 8, 1};
  G[1][0].Launch.Sites = {{"k.cu", 41, 3, 0, ""}};
  std::vector<AccessRecord> A0{access("a", 5, AccessOp::Store, 4, 4)};
  A0[0].Launch.Block = {8, 32, 1};
  std::vector<AccessRecord> A1{access("a", 5, AccessOp::Store, 8, 4)};
  A1[0].Launch.Block = {32, 8, 1};
  std::vector<std::pair<size_t, std::string>> V;
  V.push_back({0, attachThreadSwap(G[0], A0, {})});
  V.push_back({1, attachThreadSwap(G[1], A1, {})});
  EXPECT_TRUE(V[0].second.empty());
  EXPECT_FALSE(V[1].second.empty());
  ASSERT_TRUE(G[0][0].Swap);
  reconcileThreadSwaps(G, V);
  EXPECT_FALSE(G[0][0].Swap);
  EXPECT_NE(G[0][0].NoSwapWhy.find("in the launch at k.cu:41 (block (32, 8, 1))"),
            std::string::npos)
      << G[0][0].NoSwapWhy;

  // Both gain: the offer lists both launches.
  std::vector<std::vector<AccessRecord>> H(2);
  H[0] = {access("a", 5, AccessOp::Store, 8, 4)};
  H[0][0].Launch.Sites = {{"k.cu", 40, 3, 0, ""}};
  H[1] = {access("a", 5, AccessOp::Store, 8, 4)};
  H[1][0].Launch.Block = {16, 16, 1};
  H[1][0].Launch.Sites = {{"k.cu", 41, 3, 0, ""}};
  std::vector<AccessRecord> B0{access("a", 5, AccessOp::Store, 4, 4)};
  std::vector<AccessRecord> B1{access("a", 5, AccessOp::Store, 4, 4)};
  B1[0].Launch.Block = {16, 16, 1};
  std::vector<std::pair<size_t, std::string>> W{{0, attachThreadSwap(H[0], B0, {})},
                                                {1, attachThreadSwap(H[1], B1, {})}};
  reconcileThreadSwaps(H, W);
  ASSERT_TRUE(H[0][0].Swap);
  ASSERT_EQ(H[0][0].Swap->Launches.size(), 2u);
  EXPECT_EQ(H[0][0].Swap->Launches[1].Block, (Dim3{16, 16, 1}));
}
