// Sector model: the numbers Nsight Compute reports for one global request.
#include "model/SectorModel.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

LaneInts strided(int64_t Base, int64_t Stride) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = Base + Stride * L;
  return A;
}

struct StrideCase {
  int64_t ElemBytes, StrideElems;
  unsigned Sectors, Ideal;
};

class StrideSweep : public ::testing::TestWithParam<StrideCase> {};

TEST_P(StrideSweep, CountsDistinctSectors) {
  const StrideCase &C = GetParam();
  SectorCount S = countSectors(strided(0, C.ElemBytes * C.StrideElems), AllLanes,
                               C.ElemBytes);
  EXPECT_EQ(S.Sectors, C.Sectors);
  EXPECT_EQ(S.Ideal, C.Ideal);
}

// Float stride s: sectors = distinct sectors of {4*s*lane}; exact for
// non-powers of two (stride 3 -> 12, measured on an H200).
INSTANTIATE_TEST_SUITE_P(
    Floats, StrideSweep,
    ::testing::Values(StrideCase{4, 1, 4, 4}, StrideCase{4, 2, 8, 4},
                      StrideCase{4, 3, 12, 4}, StrideCase{4, 4, 16, 4},
                      StrideCase{4, 5, 20, 4}, StrideCase{4, 6, 24, 4},
                      StrideCase{4, 7, 28, 4}, StrideCase{4, 8, 32, 4},
                      StrideCase{4, 16, 32, 4}, StrideCase{4, 32, 32, 4},
                      StrideCase{4, 33, 32, 4}));

// Element sizes, coalesced: char 1, half 2, float 4, double 8, float4 16.
INSTANTIATE_TEST_SUITE_P(
    ElementSizes, StrideSweep,
    ::testing::Values(StrideCase{1, 1, 1, 1}, StrideCase{2, 1, 2, 2},
                      StrideCase{4, 1, 4, 4}, StrideCase{8, 1, 8, 8},
                      StrideCase{16, 1, 16, 16}, StrideCase{16, 2, 32, 16},
                      StrideCase{8, 2, 16, 8}, StrideCase{2, 2, 4, 2},
                      StrideCase{1, 2, 2, 1}));

TEST(SectorModel, MisalignedFloatsTouchFiveSectors) {
  EXPECT_EQ(countSectors(strided(4, 4), AllLanes, 4).Sectors, 5u);
  EXPECT_EQ(countSectors(strided(4, 4), AllLanes, 4).Ideal, 4u);
  EXPECT_EQ(countSectors(strided(28, 4), AllLanes, 4).Sectors, 5u);
  EXPECT_EQ(countSectors(strided(32, 4), AllLanes, 4).Sectors, 4u);
}

TEST(SectorModel, AddressesAtTheTopOfTheRangeDoNotOverflow) {
  // Byte offsets INT64_MAX - 31 .. INT64_MAX, one byte each: the last sector
  // of the range, whole (INT64_MAX + 1 is a multiple of 32).
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = INT64_MAX - 31 + L;
  SectorCount S = countSectors(A, AllLanes, 1);
  EXPECT_EQ(S.Sectors, 1u);
  EXPECT_EQ(S.Ideal, 1u);
  // 8 bytes per lane from INT64_MAX - 255: the ranges end past INT64_MAX.
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = INT64_MAX - 255 + 8 * L;
  S = countSectors(A, AllLanes, 8);
  EXPECT_EQ(S.Sectors, 8u);
  EXPECT_EQ(S.Ideal, 8u);
}

TEST(SectorModel, BroadcastIsOneSectorWithIdealOne) {
  SectorCount S = countSectors(strided(64, 0), AllLanes, 4);
  EXPECT_EQ(S.Sectors, 1u);
  EXPECT_EQ(S.Ideal, 1u);
}

// Nsight Compute's ideal counts the bytes the lanes ask for, duplicates
// included, capped at the sectors touched (H200, sample_kernels/ideal_sectors.cu).
TEST(SectorModel, IdealCountsRequestedBytesCappedAtSectors) {
  LaneInts A;
  // Two far floats, 16 lanes each: 2 sectors, ideal 2 (not 1).
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = (L / 16) * 16384;
  SectorCount S = countSectors(A, AllLanes, 4);
  EXPECT_EQ(S.Sectors, 2u);
  EXPECT_EQ(S.Ideal, 2u);
  // Four far floats, 8 lanes each: 4, ideal 4; eight far floats: 8, ideal 4.
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = (L / 8) * 16384;
  EXPECT_EQ(countSectors(A, AllLanes, 4).Ideal, 4u);
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = (L / 4) * 16384;
  EXPECT_EQ(countSectors(A, AllLanes, 4).Sectors, 8u);
  EXPECT_EQ(countSectors(A, AllLanes, 4).Ideal, 4u);
  // Two far chars, 16 lanes each: 32 bytes asked for, ideal 1.
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = (L / 16) * 16384;
  EXPECT_EQ(countSectors(A, AllLanes, 1).Ideal, 1u);
  // Two far doubles, 16 lanes each: 2, ideal 2.
  EXPECT_EQ(countSectors(A, AllLanes, 8).Ideal, 2u);
  // Lanes 0-15 a row of floats, 16-31 one far float: 3 sectors, ideal 3.
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = L < 16 ? 4 * L : 16384;
  EXPECT_EQ(countSectors(A, AllLanes, 4).Sectors, 3u);
  EXPECT_EQ(countSectors(A, AllLanes, 4).Ideal, 3u);
  // Two active lanes on far floats: 2 sectors, ideal 1.
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = L * 16384;
  EXPECT_EQ(countSectors(A, 0x3u, 4).Sectors, 2u);
  EXPECT_EQ(countSectors(A, 0x3u, 4).Ideal, 1u);
}

TEST(SectorModel, InactiveLanesDoNotCount) {
  // Lanes 0-15 active, floats: 2 sectors, ideal 2 (measured).
  SectorCount S = countSectors(strided(0, 4), 0x0000ffffu, 4);
  EXPECT_EQ(S.Sectors, 2u);
  EXPECT_EQ(S.Ideal, 2u);
  // Every other lane: the remaining lanes still span 4 sectors.
  SectorCount E = countSectors(strided(0, 4), 0x55555555u, 4);
  EXPECT_EQ(E.Sectors, 4u);
  EXPECT_EQ(E.Ideal, 2u);
  EXPECT_EQ(countSectors(strided(0, 4), 0, 4).Sectors, 0u);
}

TEST(SectorModel, LinesAreTheSeedsTransactions) {
  EXPECT_EQ(countSectors(strided(0, 4), AllLanes, 4).Lines, 1u);
  EXPECT_EQ(countSectors(strided(0, 8), AllLanes, 4).Lines, 2u);
  EXPECT_EQ(countSectors(strided(0, 128), AllLanes, 4).Lines, 32u);
}

} // namespace
