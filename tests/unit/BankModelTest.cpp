// Bank model: wavefronts per shared request, as Nsight Compute counts them.
#include "model/BankModel.h"
#include "model/SectorModel.h"

#include <cstdint>

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

LaneInts laneMap(int64_t (*F)(unsigned)) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = F(L);
  return A;
}

LaneInts strided(int64_t Stride) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = Stride * L;
  return A;
}

struct Case {
  int64_t StrideWords;
  unsigned Wavefronts;
};

class FloatStrides : public ::testing::TestWithParam<Case> {};

// Stride s floats: gcd(s, 32)-way (the seeds' table, and the H200).
TEST_P(FloatStrides, GcdRule) {
  BankCount B = countWavefronts(strided(4 * GetParam().StrideWords), AllLanes, 4);
  EXPECT_EQ(B.Wavefronts, GetParam().Wavefronts);
  EXPECT_EQ(B.Ideal, 1u);
}

INSTANTIATE_TEST_SUITE_P(Sweep, FloatStrides,
                         ::testing::Values(Case{1, 1}, Case{2, 2}, Case{3, 1},
                                           Case{4, 4}, Case{5, 1}, Case{8, 8},
                                           Case{16, 16}, Case{32, 32},
                                           Case{33, 1}, Case{64, 32}));

TEST(BankModel, BroadcastAndMulticastAreFree) {
  EXPECT_EQ(countWavefronts(strided(0), AllLanes, 4).Wavefronts, 1u);
  // Lanes in pairs reading the same word: 16 distinct words, no conflict.
  LaneInts Pairs = laneMap([](unsigned L) -> int64_t { return 4 * (L / 2); });
  EXPECT_EQ(countWavefronts(Pairs, AllLanes, 4).Wavefronts, 1u);
}

TEST(BankModel, TransposeTileAndPadding) {
  // tile[32][32]: lane L reads tile[L][c] -> 32-way.
  EXPECT_EQ(countWavefronts(strided(128), AllLanes, 4).Wavefronts, 32u);
  // tile[32][33]: conflict-free.
  EXPECT_EQ(countWavefronts(strided(132), AllLanes, 4).Wavefronts, 1u);
}

TEST(BankModel, SixtyFourBitPhases) {
  // Measured on an H200: conflict-free LDS.64 = 2, stride 2 doubles = 4,
  // all lanes one address = 1, lanes L and L+16 on the same address at a
  // 16-byte stride = 4.
  BankCount B = countWavefronts(strided(8), AllLanes, 8);
  EXPECT_EQ(B.Wavefronts, 2u);
  EXPECT_EQ(B.Ideal, 2u);
  EXPECT_EQ(countWavefronts(strided(16), AllLanes, 8).Wavefronts, 4u);
  BankCount Bc = countWavefronts(strided(0), AllLanes, 8);
  EXPECT_EQ(Bc.Wavefronts, 1u);
  EXPECT_EQ(Bc.Ideal, 1u);
  LaneInts Halves = laneMap([](unsigned L) -> int64_t { return 16 * (L % 16); });
  EXPECT_EQ(countWavefronts(Halves, AllLanes, 8).Wavefronts, 4u);
  // One half-warp active: one phase.
  EXPECT_EQ(countWavefronts(strided(8), 0x0000ffffu, 8).Wavefronts, 1u);
}

TEST(BankModel, OneTwentyEightBitPhases) {
  // Measured: conflict-free LDS.128 = 4, broadcast = 2, stride 2 = 8.
  EXPECT_EQ(countWavefronts(strided(16), AllLanes, 16).Wavefronts, 4u);
  EXPECT_EQ(countWavefronts(strided(16), AllLanes, 16).Ideal, 4u);
  EXPECT_EQ(countWavefronts(strided(0), AllLanes, 16).Wavefronts, 2u);
  EXPECT_EQ(countWavefronts(strided(0), AllLanes, 16).Ideal, 2u);
  BankCount S2 = countWavefronts(strided(32), AllLanes, 16);
  EXPECT_EQ(S2.Wavefronts, 8u);
  EXPECT_EQ(S2.Ideal, 4u);
}

// Element index per lane -> byte addresses for elements of Size bytes.
LaneInts elems(int64_t Size, int64_t (*F)(unsigned)) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = Size * F(L);
  return A;
}

TEST(BankModel, WideGroupsWithAtMost64DistinctBytesAreServedTogether) {
  // 64-bit, measured on an H200 (sample_kernels/shared_wide.cu).
  struct { int64_t (*F)(unsigned); unsigned Wavefronts, Ideal; } D[] = {
      {[](unsigned t) -> int64_t { return (t >> 4) * 7; }, 1, 1},
      {[](unsigned t) -> int64_t { return t >> 3; }, 1, 1},
      {[](unsigned t) -> int64_t { return t >> 2; }, 1, 1},
      {[](unsigned t) -> int64_t { return (t >> 2) % 6; }, 1, 1},
      {[](unsigned t) -> int64_t { return t / 3; }, 2, 2}, // 11 doubles: 88 bytes
      {[](unsigned t) -> int64_t { return t & 15; }, 2, 2},
      {[](unsigned t) -> int64_t { return (t & 15) * 2; }, 4, 2},
      {[](unsigned t) -> int64_t { return t; }, 2, 2},
      {[](unsigned t) -> int64_t { return 2 * t; }, 4, 2},
  };
  for (auto &C : D) {
    BankCount B = countWavefronts(elems(8, C.F), AllLanes, 8);
    EXPECT_EQ(B.Wavefronts, C.Wavefronts);
    EXPECT_EQ(B.Ideal, C.Ideal);
  }
  // 128-bit.
  struct { int64_t (*F)(unsigned); unsigned Wavefronts, Ideal; } Q[] = {
      {[](unsigned t) -> int64_t { return t >> 4; }, 2, 2},
      {[](unsigned t) -> int64_t { return t >> 3; }, 2, 2},
      {[](unsigned t) -> int64_t { return t >> 2; }, 2, 2},
      {[](unsigned t) -> int64_t { return (t >> 2) % 3; }, 2, 2},
      {[](unsigned t) -> int64_t { return t / 3; }, 4, 4}, // 6 per half: 96 bytes
      {[](unsigned t) -> int64_t { return t & 7; }, 4, 4},
      {[](unsigned t) -> int64_t { return t; }, 4, 4},
      {[](unsigned t) -> int64_t { return 2 * t; }, 8, 4},
      // Each quarter asks for blocks 0-3 (64 bytes per half-warp, but four
      // blocks per quarter): a wavefront per quarter, measured on SGEMM_CUDA
      // sgemmWarptiling's Bs row (docs/real-code.md).
      {[](unsigned t) -> int64_t { return t % 4; }, 4, 4},
      // Two blocks per quarter, 32 bytes apart (its As row): merged.
      {[](unsigned t) -> int64_t { return 2 * (t / 4); }, 2, 2},
      // 64 bytes apart: blocks 0 and 128 bytes share banks, quarter by
      // quarter; 128 bytes apart, 2-way in each quarter; two blocks 128
      // bytes apart in turn, likewise (sample_kernels/wide_blocks.cu).
      {[](unsigned t) -> int64_t { return (4 * (t / 4)) % 256; }, 4, 4},
      {[](unsigned t) -> int64_t { return (8 * (t / 4)) % 256; }, 8, 4},
      {[](unsigned t) -> int64_t { return (t & 1) * 8; }, 8, 4},
  };
  for (auto &C : Q) {
    BankCount B = countWavefronts(elems(16, C.F), AllLanes, 16);
    EXPECT_EQ(B.Wavefronts, C.Wavefronts);
    EXPECT_EQ(B.Ideal, C.Ideal);
  }
}

TEST(BankModel, ByteAndHalfWords) {
  // 32 consecutive chars: 8 words, one per bank.
  EXPECT_EQ(countWavefronts(strided(1), AllLanes, 1).Wavefronts, 1u);
  // s[4*t] chars: one word per lane, distinct banks.
  EXPECT_EQ(countWavefronts(strided(4), AllLanes, 1).Wavefronts, 1u);
  // s[128*(t&7) + (t>>3)]: 8 words in one bank, 4 lanes per word (measured 8).
  LaneInts Rows = laneMap([](unsigned L) -> int64_t { return 128 * (L & 7) + (L >> 3); });
  EXPECT_EQ(countWavefronts(Rows, AllLanes, 1).Wavefronts, 8u);
  // halves at stride 2 elements: 4 bytes apart -> conflict-free.
  EXPECT_EQ(countWavefronts(strided(4), AllLanes, 2).Wavefronts, 1u);
  // halves at stride 64 elements (128 bytes): 32-way.
  EXPECT_EQ(countWavefronts(strided(128), AllLanes, 2).Wavefronts, 32u);
}

TEST(BankModel, XorSwizzleIsConflictFree) {
  // tile[row][col ^ row] read down a column (col fixed = 5, row = lane).
  LaneInts A = laneMap([](unsigned L) -> int64_t { return 4 * (32 * L + (5 ^ L)); });
  EXPECT_EQ(countWavefronts(A, AllLanes, 4).Wavefronts, 1u);
}

TEST(BankModel, ShiftInvariance) {
  // Adding a multiple of 4 bytes to every lane only renames banks.
  for (int64_t Shift : {4, 8, 60, 124, 128, 1000})
    for (int64_t Stride : {4, 8, 12, 64, 128, 132}) {
      LaneInts A = strided(Stride), B = A;
      for (auto &V : B)
        V += Shift;
      EXPECT_EQ(countWavefronts(A, AllLanes, 4).Wavefronts,
                countWavefronts(B, AllLanes, 4).Wavefronts)
          << Shift << " " << Stride;
    }
}

// The units a lane's bytes touch, which the warp-map pictures and the lane
// evidence ask the model for instead of dividing by 4 and 32 themselves.
TEST(BankModel, WordsAndBanksOfALane) {
  EXPECT_EQ(wordsTouched(0, 4).First, 0);
  EXPECT_EQ(wordsTouched(0, 4).Last, 0);
  EXPECT_EQ(wordsTouched(6, 4).First, 1); // bytes 6..9: words 1 and 2
  EXPECT_EQ(wordsTouched(6, 4).Last, 2);
  EXPECT_EQ(wordsTouched(16, 16).Last, 7);
  EXPECT_EQ(wordsTouched(-4, 4).First, -1);
  EXPECT_EQ(bankOfWord(33), 1u);
  EXPECT_EQ(bankOfWord(-1), 31u);
  EXPECT_EQ(bankOfByte(132), 1u);
  EXPECT_EQ(bankOfByte(-4), 31u);
  EXPECT_EQ(BankPeriodBytes, NumBanks * BankWordBytes);
}

TEST(SectorModel, SectorsOfALane) {
  EXPECT_EQ(sectorsTouched(28, 8).First, 0); // bytes 28..35: sectors 0 and 1
  EXPECT_EQ(sectorsTouched(28, 8).Last, 1);
  EXPECT_EQ(sectorsTouched(32, 16).First, 1);
  EXPECT_EQ(sectorsTouched(32, 16).Last, 1);
  EXPECT_EQ(sectorsTouched(-1, 1).First, -1);
  // Near the top of the address range, without forming Byte + Width.
  const int64_t Top = INT64_MAX - 3;
  EXPECT_EQ(sectorsTouched(Top, 4).Last, INT64_MAX / SectorBytes);
}

} // namespace
