// Costs as functions of a run-time size (model/Parametric.h).
#include "model/Parametric.h"
#include "model/SectorModel.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// Sectors of a request whose warp-uniform part is 0 mod 32.
CostPoint sectorsOf(const Poly &Addr) {
  SectorCount S = countSectors(Addr.laneConstants(), AllLanes, 4);
  return {double(S.Sectors), double(S.Ideal), true};
}

struct Strided : ::testing::Test {
  SymbolTable Syms;
  SymbolId Cols = Syms.add({"cols", SymbolKind::Param});
  LaneInts Four() {
    LaneInts K;
    for (unsigned L = 0; L < WarpSize; ++L)
      K[L] = 4 * L;
    return K;
  }
};

TEST_F(Strided, ColumnWalkIs32SectorsFromEight) {
  // a[threadIdx.x * cols], floats: lane L at 4 * L * cols.
  Poly Addr = Poly::symbol(Cols) * Poly::lanes(Four());
  std::string Why;
  auto T = parametricTable(Addr, AllLanes, 4, Cols, 0, 32, sectorsOf, Why);
  ASSERT_TRUE(T) << Why;
  EXPECT_EQ(T->From, 9); // 4 * s >= 4 + 32
  EXPECT_EQ(T->at(0).Cost, 1);  // one address
  EXPECT_EQ(T->at(1).Cost, 4);  // contiguous
  EXPECT_EQ(T->at(3).Cost, 12);
  EXPECT_EQ(T->at(7).Cost, 28);
  EXPECT_EQ(T->at(8).Cost, 32);
  EXPECT_EQ(T->at(2049).Cost, 32);
  ParametricCost P = summarize(*T, "cols", 1, 0);
  ASSERT_FALSE(P.Cases.empty());
  EXPECT_EQ(P.Cases[0].Text, "for every cols >= 8");
  EXPECT_EQ(P.Cases[0].Cost.Cost, 32);
  EXPECT_EQ(P.Cases[0].Cost.Ideal, 4);
  EXPECT_EQ(P.Cases[0].When.Min, 8);
  EXPECT_EQ(P.Cases[0].When.Modulus, 1);
  // 0 to 7 each cost differently: eight small cases.
  EXPECT_EQ(P.Cases.size(), 9u);
  EXPECT_EQ(P.Cases[1].Text, "when cols == 0");
  EXPECT_EQ(P.Cases[1].Cost.Cost, 1);
}

TEST_F(Strided, StatedResidueSpeaksOfTheSize) {
  // cols % 32 == 0 stated: cols = 32 q; from q = 1 on, 32 sectors.
  Poly Addr = Poly::symbol(Cols) * Poly::lanes(Four()).scaled(32);
  std::string Why;
  auto T = parametricTable(Addr, AllLanes, 4, Cols, 1, 32, sectorsOf, Why);
  ASSERT_TRUE(T) << Why;
  ParametricCost P = summarize(*T, "cols", 32, 0);
  ASSERT_EQ(P.Cases.size(), 1u);
  EXPECT_EQ(P.Cases[0].Text, "for every cols >= 32 (cols is a multiple of 32)");
  EXPECT_EQ(P.Cases[0].Cost.Cost, 32);
}

TEST(Parametric, WarpSpanningTwoRowsDependsOnTheResidue) {
  // m[ty * D + tx] with a 16x16 block: rows of 16 floats, the second D
  // floats after the first.
  SymbolTable Syms;
  SymbolId D = Syms.add({"D", SymbolKind::Param});
  LaneInts Tx, Ty;
  for (unsigned L = 0; L < WarpSize; ++L) {
    Tx[L] = 4 * (L % 16);
    Ty[L] = 4 * (L / 16);
  }
  Poly Addr = Poly::symbol(D) * Poly::lanes(Ty) + Poly::lanes(Tx);
  std::string Why;
  auto T = parametricTable(Addr, AllLanes, 4, D, 0, 32, sectorsOf, Why);
  ASSERT_TRUE(T) << Why;
  EXPECT_EQ(T->From, 24); // 4 * D >= 60 + 4 + 32
  EXPECT_EQ(T->at(8).Cost, 3);  // the rows overlap: bytes 0..95
  EXPECT_EQ(T->at(8).Ideal, 3);
  EXPECT_EQ(T->at(16).Cost, 4);
  EXPECT_EQ(T->at(2049).Cost, 5);
  ParametricCost P = summarize(*T, "D", 1, 0);
  ASSERT_GE(P.Cases.size(), 2u);
  EXPECT_EQ(P.Cases[0].Text, "when D is a multiple of 8 and D >= 16");
  EXPECT_EQ(P.Cases[0].Cost.Cost, 4);
  EXPECT_EQ(P.Cases[0].When.Modulus, 8);
  EXPECT_EQ(P.Cases[0].When.Residues, std::vector<int64_t>{0});
  EXPECT_EQ(P.Cases[1].Text, "when D is not a multiple of 8 and D >= 17");
  EXPECT_EQ(P.Cases[1].Cost.Cost, 5);
  EXPECT_EQ(P.LargeMin, 4);
  EXPECT_EQ(P.LargeMax, 5);
  // Every value the cases leave out below is listed on its own or in a run.
  for (int64_t V = 0; V < 40; ++V) {
    int Hits = 0;
    for (const ParamCase &C : P.Cases) {
      const ParamCondition &W = C.When;
      bool In = V >= W.Min && (!W.Max || V <= *W.Max);
      if (In && W.Modulus > 1)
        In = std::find(W.Residues.begin(), W.Residues.end(), V % W.Modulus) != W.Residues.end();
      if (In) {
        ++Hits;
        EXPECT_EQ(C.Cost, T->at(V)) << "D = " << V;
      }
    }
    EXPECT_EQ(Hits, 1) << "D = " << V;
  }
}

TEST(Parametric, AccumulatesTablesWithDifferentStarts) {
  ParamTable A;
  A.Lo = 0, A.From = 2, A.Period = 2;
  A.Small = {{1, 1}, {2, 1}};
  A.Periodic = {{4, 1}, {6, 1}};
  ParamTable B = A;
  B.From = 0, B.Small.clear();
  B.Periodic = {{10, 1}, {10, 1}};
  ParamTable Sum;
  Sum.Period = 0;
  accumulate(Sum, B, 1);
  accumulate(Sum, A, 1);
  accumulateConstant(Sum, {2, 1}, 1);
  scaleTable(Sum, 3);
  EXPECT_DOUBLE_EQ(Sum.at(0).Cost, 13.0 / 3);
  EXPECT_DOUBLE_EQ(Sum.at(1).Cost, 14.0 / 3);
  EXPECT_DOUBLE_EQ(Sum.at(5).Cost, 18.0 / 3);
  EXPECT_DOUBLE_EQ(Sum.at(5).Ideal, 1);
}

TEST(Parametric, RefusesNonLinearLanes) {
  SymbolTable Syms;
  SymbolId S = Syms.add({"n", SymbolKind::Param});
  LaneInts K;
  for (unsigned L = 0; L < WarpSize; ++L)
    K[L] = 4 * L;
  Poly Addr = Poly::symbol(S) * Poly::symbol(S) * Poly::lanes(K);
  std::string Why;
  EXPECT_FALSE(parametricTable(Addr, AllLanes, 4, S, 0, 32, sectorsOf, Why));
  EXPECT_NE(Why.find("not linear"), std::string::npos);
}

} // namespace

// A case covers sizes whose cost at the assumed alignment is the same; its
// range over alignments is over all of them (the sizes are not split by
// their ranges), and the table keeps each size's own range.
TEST(Parametric, ACaseRangeIsOverTheAlignmentsOfAllItsSizes) {
  ParamTable T;
  T.Lo = 0;
  T.From = 2;
  T.Period = 1;
  T.Small = {CostPoint{8, 4, false, true, 8, 9}, CostPoint{8, 4, false, true, 8, 12}};
  T.Periodic = {CostPoint{8, 4, false, true, 8, 16}};
  ParametricCost P = summarize(T, "cols", 1, 0);
  ASSERT_EQ(P.Cases.size(), 1u);
  EXPECT_EQ(P.Cases[0].Text, "for every cols");
  EXPECT_EQ(P.Cases[0].Cost.Min, 8);
  EXPECT_EQ(P.Cases[0].Cost.Max, 16);
  ASSERT_GE(P.Table.size(), 2u);
  EXPECT_EQ(P.Table[0].second.Max, 9);
  EXPECT_EQ(P.Table[1].second.Max, 12);
}
