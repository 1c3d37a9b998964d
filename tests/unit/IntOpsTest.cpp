// Division, remainder, bit operations and comparisons on per-lane values.
#include "model/IntOps.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

struct IntOpsTest : ::testing::Test {
  SymbolTable Syms;
  SymbolId B = Syms.add({"blockIdx.x", SymbolKind::BlockIdx, 0, true, ""});
  SymbolId K = Syms.add({"k", SymbolKind::LoopIteration, 0, true, ""});
  SymbolId N = Syms.add({"n", SymbolKind::Param, 0, true, ""});
  Poly lane() { return Poly::lanes(laneIota()); }
  // tid = 256 * blockIdx.x + 32 * warp + lane
  Poly tid(int Warp = 0) {
    return Poly::symbol(B, 256) + Poly::constant(32 * Warp) + lane();
  }
};

TEST_F(IntOpsTest, RemainderOfTidByWarpSizeIsTheLane) {
  IntResult R = remConst(tid(3), 32, AllLanes, Syms);
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_EQ(R.P, lane());
  IntResult Q = divConst(tid(3), 32, AllLanes, Syms);
  ASSERT_TRUE(Q.Ok);
  EXPECT_EQ(Q.P, Poly::symbol(B, 8) + Poly::constant(3));
}

TEST_F(IntOpsTest, SymbolsOfKnownRangeWithinOnePeriodAreExact) {
  // The warps 0-7 of a block walked as one (threadIdx.x = 32 w + lane):
  // tid / 256 is 0 and (tid / 32) % 8 is w for every w they take; the
  // iteration k of a loop of 4 trips: (2k + 1) / 8 is 0, (2k + 1) % 8 is
  // 2k + 1.
  auto Ranged = [&](const char *Name, int64_t Range, int64_t Start) {
    SymbolInfo I;
    I.Name = Name;
    I.Kind = SymbolKind::ThreadBase;
    I.UniformRange = Range;
    I.RangeStart = Start;
    return Syms.add(I);
  };
  SymbolId W = Ranged("w", 8, 0);
  const Poly T = Poly::symbol(W, 32) + lane();
  IntResult Q = divConst(T, 256, AllLanes, Syms);
  ASSERT_TRUE(Q.Ok) << Q.Why;
  EXPECT_EQ(Q.P, Poly());
  IntResult Wq = divConst(T, 32, AllLanes, Syms);
  ASSERT_TRUE(Wq.Ok);
  IntResult Wm = remConst(Wq.P, 8, AllLanes, Syms);
  ASSERT_TRUE(Wm.Ok) << Wm.Why;
  EXPECT_EQ(Wm.P, Poly::symbol(W));
  Syms.get(K).UniformRange = 4;
  Syms.get(K).RangeStart = 0;
  const Poly Odd = Poly::symbol(K, 2) + Poly::constant(1);
  IntResult Kq = divConst(Odd, 8, AllLanes, Syms);
  ASSERT_TRUE(Kq.Ok);
  EXPECT_EQ(Kq.P, Poly());
  IntResult Km = remConst(Odd, 8, AllLanes, Syms);
  ASSERT_TRUE(Km.Ok);
  EXPECT_EQ(Km.P, Odd);
  // Warps 8-15 (a range that starts at 8): (tid / 32) % 8 is w - 8.
  SymbolId W2 = Ranged("w2", 8, 8);
  IntResult W2m = remConst(Poly::symbol(W2), 8, AllLanes, Syms);
  ASSERT_TRUE(W2m.Ok);
  EXPECT_EQ(W2m.P, Poly::symbol(W2) - Poly::constant(8));
  // A range that crosses a multiple stays a symbol of its own: over 16
  // warps (tid / 32) / 8 is 0 or 1.
  SymbolId W3 = Ranged("w3", 16, 0);
  IntResult W3q = divConst(Poly::symbol(W3), 8, AllLanes, Syms);
  ASSERT_TRUE(W3q.Ok);
  ASSERT_EQ(W3q.P.symbols().size(), 1u);
  EXPECT_NE(W3q.P.symbols()[0], W3);
  // Without a known range (a kernel parameter), nothing changes.
  IntResult Nq = remConst(Poly::symbol(N), 8, AllLanes, Syms);
  ASSERT_TRUE(Nq.Ok);
  EXPECT_NE(Nq.P, Poly::symbol(N));
}

TEST_F(IntOpsTest, QuotientOfAParameterIsAFreeSize) {
  // n / 16 and (n + 31) / 32 take every integer from 0 on, as n does: a
  // size a cost may be a function of, settled by stating n.
  for (auto [Base, C] : {std::pair{Poly::symbol(N), 16}, {Poly::symbol(N) + Poly::constant(31), 32},
                         {Poly::symbol(N, 3) + Poly::constant(2), 4}}) {
    IntResult Q = divConst(Base, C, AllLanes, Syms);
    ASSERT_TRUE(Q.Ok) << Q.Why;
    ASSERT_EQ(Q.P.symbols().size(), 1u);
    const SymbolInfo &I = Syms.get(Q.P.symbols()[0]);
    EXPECT_TRUE(isFreeSize(I)) << I.Name;
    ASSERT_TRUE(I.QuotientOf.has_value());
    EXPECT_EQ(*I.QuotientOf, N);
    EXPECT_EQ(I.Min, 0);
  }
  // A quotient of a quotient is one too, of the same parameter.
  IntResult Q1 = divConst(Poly::symbol(N), 4, AllLanes, Syms);
  IntResult Q2 = divConst(Q1.P + Poly::constant(1), 2, AllLanes, Syms);
  ASSERT_TRUE(Q2.Ok);
  const SymbolInfo &I2 = Syms.get(Q2.P.symbols()[0]);
  ASSERT_TRUE(I2.QuotientOf.has_value());
  EXPECT_EQ(*I2.QuotientOf, N);
  EXPECT_EQ(I2.Name, "(n/4 + 1)/2");
  EXPECT_EQ(Syms.get(Q1.P.symbols()[0]).Name, "n/4");
}

TEST_F(IntOpsTest, QuotientsThatSkipValuesAreNotFreeSizes) {
  // (8n + 5) / 3 steps by 2 or 3; (n * n) / 4 is not affine; blockIdx.x / 4
  // is no parameter; (n - 7) / 4 can be negative.
  SymbolId M = Syms.add({"m", SymbolKind::Param, 0, true, ""});
  for (auto [Base, C] : {std::pair{Poly::symbol(N, 8) + Poly::constant(5), 3},
                         {Poly::symbol(N) * Poly::symbol(M), 4},
                         {Poly::symbol(B), 4},
                         {Poly::symbol(N) - Poly::constant(7), 4}}) {
    IntResult Q = divConst(Base, C, AllLanes, Syms);
    ASSERT_TRUE(Q.Ok) << Q.Why;
    for (SymbolId S : Q.P.symbols())
      EXPECT_FALSE(Syms.get(S).QuotientOf.has_value()) << Syms.get(S).Name;
  }
}

TEST_F(IntOpsTest, ColumnMajorSaxpyIndexIsExact) {
  // i = 4 * tid + k * step with step a multiple of 128, K = 4096:
  // i / K is warp-uniform and i % K = (uniform multiple of 128) + 4 * lane.
  Poly I = tid().scaled(4) + Poly::symbol(K, 4 * 256 * 64);
  IntResult Q = divConst(I, 4096, AllLanes, Syms);
  ASSERT_TRUE(Q.Ok) << Q.Why;
  EXPECT_TRUE(Q.P.isUniform(AllLanes));
  IntResult R = remConst(I, 4096, AllLanes, Syms);
  ASSERT_TRUE(R.Ok) << R.Why;
  EXPECT_TRUE(R.P.hasUniformSymbolicPart(AllLanes));
  EXPECT_EQ(R.P.symbolicGcd(AllLanes), 1024);
  EXPECT_EQ(R.P.laneConstants()[7] - R.P.laneConstants()[0], 28);
}

TEST_F(IntOpsTest, StraddlingLanesAreUnknown) {
  // (256 * b + lane + 16) / 32: lanes 0..15 and 16..31 differ by a quotient
  // step that depends on nothing unknown -> exact.
  IntResult Q = divConst(tid() + Poly::constant(16), 32, AllLanes, Syms);
  ASSERT_TRUE(Q.Ok);
  EXPECT_EQ(Q.P.laneConstants()[15] + 1, Q.P.laneConstants()[16]);
  // (n + lane) / 32 with n unknown: where the lanes cross a multiple of 32
  // depends on n.
  IntResult U = divConst(Poly::symbol(N) + lane(), 32, AllLanes, Syms);
  EXPECT_FALSE(U.Ok);
}

TEST_F(IntOpsTest, MasksAndShifts) {
  IntResult A = andPoly(tid(2), Poly::constant(31), AllLanes, Syms);
  ASSERT_TRUE(A.Ok);
  EXPECT_EQ(A.P, lane());
  IntResult S = shrPoly(tid(2), Poly::constant(5), AllLanes, Syms);
  ASSERT_TRUE(S.Ok);
  EXPECT_EQ(S.P, Poly::symbol(B, 8) + Poly::constant(2));
  IntResult L = shlPoly(lane(), Poly::constant(2), AllLanes, Syms);
  ASSERT_TRUE(L.Ok);
  EXPECT_EQ(L.P.laneConstants()[3], 12);
  // tid & 7 on an unknown-but-aligned base: exact low bits.
  IntResult Low = andPoly(tid(), Poly::constant(7), AllLanes, Syms);
  ASSERT_TRUE(Low.Ok);
  EXPECT_EQ(Low.P.laneConstants()[13], 5);
}

TEST_F(IntOpsTest, XorSwizzle) {
  // (row ^ col) with row = lane and col a known constant.
  IntResult X = xorPoly(lane(), Poly::constant(5), AllLanes, Syms);
  ASSERT_TRUE(X.Ok);
  EXPECT_EQ(X.P.laneConstants()[1], 4);
  // An aligned uniform base xor lane: base + (lane ^ 0) keeps the base.
  IntResult Y = xorPoly(Poly::symbol(B, 32) + lane(), Poly::constant(3), AllLanes, Syms);
  ASSERT_TRUE(Y.Ok);
  EXPECT_EQ(Y.P.symbolicPart(0), Poly::symbol(B, 32));
  EXPECT_EQ(Y.P.laneConstants()[0], 3);
}

TEST_F(IntOpsTest, ComparisonsPerLaneUniformOrGuard) {
  CmpResult C = comparePoly(lane(), Poly::constant(8), CmpOp::LT, AllLanes);
  EXPECT_EQ(C.K, CmpResult::Lanes);
  EXPECT_EQ(C.True, 0xffu);
  // tid < 4096 with a 256-aligned unknown base: same outcome for all lanes.
  CmpResult U = comparePoly(tid(), Poly::constant(4096), CmpOp::LT, AllLanes);
  EXPECT_EQ(U.K, CmpResult::Uniform);
  // tid < n with n unknown: lane-dependent and unknown (a bounds guard).
  CmpResult G = comparePoly(tid(), Poly::symbol(N), CmpOp::LT, AllLanes);
  EXPECT_EQ(G.K, CmpResult::Varying);
  // (lane & 1) == 0 is known per lane.
  IntResult Odd = andPoly(lane(), Poly::constant(1), AllLanes, Syms);
  CmpResult E = comparePoly(Odd.P, Poly::constant(0), CmpOp::EQ, AllLanes);
  EXPECT_EQ(E.K, CmpResult::Lanes);
  EXPECT_EQ(E.True, 0x55555555u);
}

TEST_F(IntOpsTest, NotEqualWithSomeLanesNeverEqualHasTwoWorlds) {
  // d = 2n + (lane & 1): odd lanes are never 0. If n != 0 no lane is 0
  // (d != 0 everywhere); if n == 0 the even lanes are 0.
  IntResult Bit = andPoly(lane(), Poly::constant(1), AllLanes, Syms);
  ASSERT_TRUE(Bit.Ok);
  Poly D = Poly::symbol(N, 2) + Bit.P;
  CmpResult NE = comparePoly(D, Poly::constant(0), CmpOp::NE, AllLanes);
  EXPECT_EQ(NE.K, CmpResult::Uniform);
  EXPECT_EQ(NE.True, AllLanes);
  EXPECT_EQ(NE.TrueOtherwise, 0xaaaaaaaau);
  CmpResult EQ = comparePoly(D, Poly::constant(0), CmpOp::EQ, AllLanes);
  EXPECT_EQ(EQ.K, CmpResult::Uniform);
  EXPECT_EQ(EQ.True, 0x55555555u);
  EXPECT_EQ(EQ.TrueOtherwise, 0u);
}

TEST_F(IntOpsTest, SignBitMasksAreNotModelled) {
  // M + 1 and -M overflow for these masks: they fail with a reason that
  // does not call INT64_MAX negative.
  for (int64_t M : {INT64_MAX, INT64_MIN}) {
    IntResult R = andPoly(tid() + Poly::symbol(N), Poly::constant(M), AllLanes, Syms);
    EXPECT_FALSE(R.Ok);
    EXPECT_EQ(R.Why.Kind, IntFail::MaskAtSignBit) << R.Why; // "... (a mask at the sign bit) ..."
  }
}

TEST_F(IntOpsTest, MinMax) {
  IntResult M = minMaxPoly(lane(), Poly::constant(10), false, AllLanes, Syms);
  ASSERT_TRUE(M.Ok);
  EXPECT_EQ(M.P.laneConstants()[20], 10);
  EXPECT_EQ(M.P.laneConstants()[3], 3);
}

} // namespace

namespace {

struct RangeCmpTest : ::testing::Test {
  SymbolTable Syms;
  SymbolId B = Syms.add({"blockIdx.x", SymbolKind::BlockIdx});
  SymbolId Y = Syms.add({"blockIdx.y", SymbolKind::BlockIdx});
  SymbolId N = Syms.add({"n", SymbolKind::Param});
  std::pair<int64_t, int64_t> BRange{0, 3}, YRange{0, 7};
  SymbolRange Ranges = [this](SymbolId S) -> std::optional<std::pair<int64_t, int64_t>> {
    if (S == B)
      return BRange;
    if (S == Y)
      return YRange;
    return std::nullopt;
  };
  // i = 256 * blockIdx.x + 32 * warp + lane
  Poly tid(int Warp) {
    return Poly::symbol(B, 256) + Poly::constant(32 * Warp) + Poly::lanes(laneIota());
  }
};

TEST_F(RangeCmpTest, GuardWithAKnownBoundCutsBeforeTheLastBlock) {
  // i < 1000 over blocks 0..3: every lane holds in blocks 0..2; block 3 is
  // the partial one.
  RangeCmp R = compareOverRanges(tid(7), Poly::constant(1000), CmpOp::LT, AllLanes, Ranges);
  ASSERT_EQ(R.K, RangeCmp::Split);
  ASSERT_EQ(R.Cuts.size(), 1u);
  EXPECT_EQ(R.Cuts[0], std::make_pair(B, int64_t(3)));
  // Within blocks 0..2 it is decided on every lane; in block 3 (a constant
  // there, so comparePoly's business) it is not asked.
  BRange = {0, 2};
  RangeCmp D = compareOverRanges(tid(7), Poly::constant(1000), CmpOp::LT, AllLanes, Ranges);
  ASSERT_EQ(D.K, RangeCmp::Decided);
  EXPECT_EQ(D.True, AllLanes);
  // A warp that no block puts past the bound is decided over the whole grid.
  BRange = {0, 3};
  RangeCmp W0 = compareOverRanges(tid(0), Poly::constant(1024), CmpOp::LT, AllLanes, Ranges);
  ASSERT_EQ(W0.K, RangeCmp::Decided);
  EXPECT_EQ(W0.True, AllLanes);
}

TEST_F(RangeCmpTest, EqualityWithABlockIndexCutsAroundIt) {
  // blockIdx.x == 2 over 0..3: cuts at 2 and 3; over 0..1 never.
  RangeCmp R = compareOverRanges(Poly::symbol(B), Poly::constant(2), CmpOp::EQ, AllLanes, Ranges);
  ASSERT_EQ(R.K, RangeCmp::Split);
  ASSERT_EQ(R.Cuts.size(), 2u);
  EXPECT_EQ(R.Cuts[0].second, 2);
  EXPECT_EQ(R.Cuts[1].second, 3);
  BRange = {0, 1};
  RangeCmp D = compareOverRanges(Poly::symbol(B), Poly::constant(2), CmpOp::EQ, AllLanes, Ranges);
  ASSERT_EQ(D.K, RangeCmp::Decided);
  EXPECT_EQ(D.True, 0u);
  // 2 * blockIdx.x == 3 never holds.
  BRange = {0, 3};
  RangeCmp P = compareOverRanges(Poly::symbol(B, 2), Poly::constant(3), CmpOp::NE, AllLanes, Ranges);
  ASSERT_EQ(P.K, RangeCmp::Decided);
  EXPECT_EQ(P.True, AllLanes);
}

TEST_F(RangeCmpTest, UnknownSymbolsAndProductsAreNotDecided) {
  EXPECT_EQ(compareOverRanges(tid(0), Poly::symbol(N), CmpOp::LT, AllLanes, Ranges).K,
            RangeCmp::Unsupported);
  Poly BY = Poly::symbol(B) * Poly::symbol(Y);
  EXPECT_EQ(compareOverRanges(BY, Poly::constant(3), CmpOp::LT, AllLanes, Ranges).K,
            RangeCmp::Unsupported);
}

TEST_F(RangeCmpTest, TwoBlockAxesHalveTheWidestRange) {
  // 4 * blockIdx.y + blockIdx.x < 9 over x in 0..3, y in 0..7 varies: halve y.
  Poly V = Poly::symbol(Y, 4) + Poly::symbol(B);
  RangeCmp R = compareOverRanges(V, Poly::constant(9), CmpOp::LT, AllLanes, Ranges);
  ASSERT_EQ(R.K, RangeCmp::Split);
  ASSERT_EQ(R.Cuts.size(), 1u);
  EXPECT_EQ(R.Cuts[0], std::make_pair(Y, int64_t(4)));
}

} // namespace

TEST_F(IntOpsTest, HighHalfOfAProductPerLane) {
  // __umulhi(lane, mp) with ggml's magic numbers for 3 (L = 2,
  // mp = 2^32 * (2^2 - 3) / 3 + 1): (hi + lane) >> 2 is lane / 3.
  IntResult H = mulHiPoly(lane(), Poly::constant(1431655766), 32, false, AllLanes, Syms);
  ASSERT_TRUE(H.Ok) << H.Why;
  IntResult Q = shrPoly(H.P + lane(), Poly::constant(2), AllLanes, Syms);
  ASSERT_TRUE(Q.Ok);
  for (unsigned L = 0; L < WarpSize; ++L)
    EXPECT_EQ(Q.P.laneConstants()[L], L / 3);
  // Signed: the high word of -1 * 1 is -1; 64-bit: (2^40 * 2^30) >> 64 = 2^6.
  IntResult S = mulHiPoly(Poly::constant(-1), Poly::constant(1), 32, true, AllLanes, Syms);
  ASSERT_TRUE(S.Ok);
  EXPECT_EQ(S.P, Poly::constant(-1));
  IntResult W = mulHiPoly(Poly::constant(int64_t(1) << 40), Poly::constant(int64_t(1) << 30), 64,
                          false, AllLanes, Syms);
  ASSERT_TRUE(W.Ok);
  EXPECT_EQ(W.P, Poly::constant(64));
  // Unsigned 32-bit: the operands are taken modulo 2^32 (-1 is 2^32 - 1).
  IntResult U = mulHiPoly(Poly::constant(-1), Poly::constant(-1), 32, false, AllLanes, Syms);
  ASSERT_TRUE(U.Ok);
  EXPECT_EQ(U.P, Poly::constant(0xFFFFFFFEll));
}

TEST_F(IntOpsTest, UniformOperandsGiveAUniformValue) {
  // blockIdx.x and n are the same on every lane: so are their high product
  // and shifts by n, though their values are not known.
  IntResult H = mulHiPoly(Poly::symbol(B), Poly::symbol(N), 32, false, AllLanes, Syms);
  ASSERT_TRUE(H.Ok) << H.Why;
  EXPECT_TRUE(H.P.isUniform(AllLanes));
  IntResult Again = mulHiPoly(Poly::symbol(B), Poly::symbol(N), 32, false, AllLanes, Syms);
  EXPECT_EQ(H.P, Again.P); // the same derived value, not a fresh one
  IntResult R = shrPoly(Poly::symbol(B), Poly::symbol(N), AllLanes, Syms);
  ASSERT_TRUE(R.Ok);
  EXPECT_TRUE(R.P.isUniform(AllLanes));
  IntResult L = shlPoly(Poly::symbol(B), Poly::symbol(N), AllLanes, Syms);
  ASSERT_TRUE(L.Ok);
  EXPECT_TRUE(L.P.isUniform(AllLanes));
  // A lane-dependent operand with an unknown part: not known per lane.
  EXPECT_FALSE(mulHiPoly(tid(), Poly::symbol(N), 32, false, AllLanes, Syms).Ok);
  EXPECT_FALSE(shrPoly(tid(), Poly::symbol(N), AllLanes, Syms).Ok);
}
