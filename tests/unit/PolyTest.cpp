// Per-lane polynomials: exact algebra over warp-uniform symbols.
#include "model/Poly.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

struct PolyTest : ::testing::Test {
  SymbolTable Syms;
  SymbolId B = Syms.add({"blockIdx.x", SymbolKind::BlockIdx, 0, true, ""});
  SymbolId W = Syms.add({"W", SymbolKind::Param, 0, true, ""});
};

TEST(PolyArithmetic, GcdAndFloorModAtTheEdgesOfInt64) {
  EXPECT_EQ(gcd64(INT64_MIN, 96), 32);
  EXPECT_EQ(gcd64(-12, 18), 6);
  // 2^63 does not fit: a common divisor that does.
  EXPECT_EQ(gcd64(INT64_MIN, 0), int64_t(1) << 62);
  EXPECT_EQ(floorMod(INT64_MIN, 202), 112); // -2^63 = 202 * q + 112
  EXPECT_EQ(floorMod(INT64_MIN + 1, 3), 2);
  EXPECT_EQ(floorMod(-1, 32), 31);
  EXPECT_EQ(floorMod(7, -4), -1);
  EXPECT_EQ(floorMod(64, 32), 0);
}

TEST_F(PolyTest, ThreadIndexArithmetic) {
  // i = 256 * blockIdx.x + (32 + lane) in warp 1.
  Poly I = Poly::symbol(B, 256) + Poly::constant(32) + Poly::lanes(laneIota());
  EXPECT_FALSE(I.isUniform(AllLanes));
  EXPECT_TRUE(I.hasUniformSymbolicPart(AllLanes));
  EXPECT_EQ(I.symbolicGcd(AllLanes), 256);
  EXPECT_EQ(I.laneConstants()[5], 37);
  EXPECT_EQ(I.str(Syms, 5), "256*blockIdx.x + 37");
}

TEST_F(PolyTest, ProductsWithUnknownsKeepPerLaneCoefficients) {
  // row * W with row = lane: lanes differ by W, which is not known.
  Poly RowW = Poly::lanes(laneIota()) * Poly::symbol(W);
  EXPECT_FALSE(RowW.hasUniformSymbolicPart(AllLanes));
  EXPECT_EQ(RowW.laneVaryingSymbols(AllLanes), std::vector<SymbolId>{W});
  // Substituting W = 1024 makes the lanes 1024 apart.
  Poly K = RowW.substitute(W, Poly::constant(1024));
  EXPECT_TRUE(K.isConcrete());
  EXPECT_EQ(K.laneConstants()[3], 3072);
}

TEST_F(PolyTest, SelectPicksCoefficientsPerLane) {
  Poly A = Poly::symbol(B, 4), C = Poly::constant(7);
  Poly S = A.select(0x1u, C);
  EXPECT_EQ(S.atLane(0), Poly::symbol(B, 4));
  EXPECT_EQ(S.atLane(1), Poly::constant(7));
}

TEST_F(PolyTest, CancellationAndEquality) {
  Poly A = Poly::symbol(B, 3) + Poly::constant(2);
  EXPECT_EQ(A - A, Poly());
  EXPECT_EQ((A * Poly::constant(2)) - A, A);
  EXPECT_NE(A, Poly::symbol(B, 3));
}

TEST_F(PolyTest, OverflowPoisons) {
  Poly Big = Poly::constant(INT64_MAX / 2 + 1);
  EXPECT_TRUE((Big + Big).overflowed());
  EXPECT_TRUE(Big.scaled(4).overflowed());
  EXPECT_FALSE((Big + Big) == (Big + Big));
}

// Sums and differences merge the two sorted term lists (Poly::merged): the
// result is the normalized polynomial (sorted, equal monomials summed,
// zero terms dropped), and a difference's overflow flag is that of adding
// the negated operand (negating INT64_MIN overflows even where the
// difference itself would fit).
TEST_F(PolyTest, SumsAndDifferencesAreNormalized) {
  const Poly X = Poly::lanes(laneIota()) + Poly::symbol(B, 256) + Poly::symbol(W, 4);
  const Poly Y = Poly::symbol(W, 4) + Poly::constant(7) + Poly::symbol(B) * Poly::symbol(W);
  const Poly S = X + Y;
  EXPECT_EQ(S.terms().size(), 4u); // constant, B, W, B*W
  for (size_t I = 1; I < S.terms().size(); ++I)
    EXPECT_TRUE(S.terms()[I - 1].M < S.terms()[I].M);
  EXPECT_EQ(S.laneConstants()[3], 10);
  EXPECT_EQ((S - Y), X);
  EXPECT_EQ((S - X), Y);
  EXPECT_EQ((X - X).terms().size(), 0u);
  EXPECT_TRUE((Y - X + X - Y) == Poly());
  // The same sums, operands swapped.
  EXPECT_EQ(Y + X, S);
  EXPECT_EQ(-(X - Y), Y - X);
  // Overflow: a sum past INT64_MAX, and a difference that negates INT64_MIN.
  EXPECT_TRUE((Poly::constant(INT64_MAX) + Poly::constant(1)).overflowed());
  EXPECT_TRUE((Poly::constant(-5) - Poly::constant(INT64_MIN)).overflowed());
  EXPECT_TRUE((Poly::constant(-5) - Poly::constant(INT64_MAX)).overflowed());
  EXPECT_FALSE((Poly::constant(-1) - Poly::constant(INT64_MAX)).overflowed());
  EXPECT_TRUE((Poly::symbol(W, INT64_MIN) - Poly::symbol(W, 1)).overflowed());
  EXPECT_EQ((Poly::constant(-1) - Poly::constant(INT64_MAX)).laneConstants()[0], INT64_MIN);
}

TEST_F(PolyTest, ReducedModuloMovesEveryLaneByOneMultiple) {
  // (row + 96) * 4 * W + 4 * lane + 1000 with row = lane / 8, and
  // 132 * blockIdx.x: each term keeps the lanes' differences, the first
  // active lane's coefficient comes into [0, 128).
  LaneInts Row{};
  for (unsigned L = 0; L < WarpSize; ++L)
    Row[L] = (L / 8 + 96) * 4;
  Poly A = Poly::lanes(Row) * Poly::symbol(W) + Poly::symbol(B, 132) +
           Poly::lanes(laneIota()).scaled(4) + Poly::constant(1000);
  Poly R = A.reducedModulo(128, AllLanes);
  EXPECT_FALSE(R.overflowed());
  EXPECT_EQ(R.atLane(0), Poly::symbol(B, 4) + Poly::constant(1000 % 128));
  // Lane 9 (row 1): 4 * W more than lane 0, as before.
  EXPECT_EQ(R.atLane(9) - R.atLane(0), A.atLane(9) - A.atLane(0));
  // Every lane moved by the same multiple of 128 for any W and blockIdx.x.
  Poly Moved = A - R;
  EXPECT_TRUE(Moved.isUniform(AllLanes));
  Poly At = Moved.substitute(W, Poly::constant(7)).substitute(B, Poly::constant(5));
  EXPECT_EQ(At.laneConstants()[0] % 128, 0);
  // A coefficient that is a multiple of 128 on every lane disappears.
  EXPECT_EQ(Poly::symbol(W, 256).reducedModulo(128, AllLanes), Poly());
  // The first active lane decides: lanes 0-3 inactive.
  Poly L = Poly::lanes(laneIota()).scaled(64).reducedModulo(128, ~0xfu);
  EXPECT_EQ(L.laneConstants()[4], 0);
  EXPECT_EQ(L.laneConstants()[5], 64);
  EXPECT_EQ(L.laneConstants()[0], -256);
}

TEST_F(PolyTest, ShufflePermutesLanes) {
  std::array<unsigned, WarpSize> Src;
  for (unsigned L = 0; L < WarpSize; ++L)
    Src[L] = L ^ 1;
  Poly P = Poly::lanes(laneIota()).permuted(Src);
  EXPECT_EQ(P.laneConstants()[0], 1);
  EXPECT_EQ(P.laneConstants()[1], 0);
}

TEST(FloorOps, MatchMathematics) {
  EXPECT_EQ(floorDiv(-1, 32), -1);
  EXPECT_EQ(floorMod(-1, 32), 31);
  EXPECT_EQ(floorDiv(63, 32), 1);
  EXPECT_EQ(gcd64(-12, 18), 6);
  EXPECT_EQ(gcd64(0, 5), 5);
}

} // namespace
