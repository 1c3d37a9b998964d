// Local model: the sectors of one LDL/STL (model/LocalModel.h), with the
// patterns measured on an H200 (sample_kernels/local_memory.cu), and its row
// in the table of memory spaces (model/Spaces.h).
#include "model/LocalModel.h"
#include "model/Spaces.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// Each lane's byte offset in its own array for element Index(lane) of
/// Bytes-byte elements.
template <class F> LaneInts elements(unsigned Bytes, F Index) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = int64_t(Bytes) * Index(L);
  return A;
}

} // namespace

TEST(LocalModel, InterleavedByWords) {
  // Byte b of lane l is at (b / 4) * 128 + l * 4 + b % 4: word 0 of lanes
  // 0-7 is sector 0, of lanes 8-15 sector 1; word 1 of lane 0 sector 4.
  EXPECT_EQ(localSector(0, 0), 0);
  EXPECT_EQ(localSector(3, 7), 0);
  EXPECT_EQ(localSector(0, 8), 1);
  EXPECT_EQ(localSector(4, 0), 4);
  EXPECT_EQ(localSector(4 * 7, 31), 7 * 4 + 3);
}

TEST(LocalModel, MeasuredPatterns) {
  struct Case {
    const char *Name;
    unsigned Bytes;
    LaneInts Offset;
    LaneMask Active;
    unsigned Sectors, Ideal;
  } Cases[] = {
      {"float t[k]", 4, elements(4, [](unsigned) { return 7; }), AllLanes, 4, 4},
      {"double t[k]", 8, elements(8, [](unsigned) { return 7; }), AllLanes, 8, 8},
      {"float4 t[k]", 16, elements(16, [](unsigned) { return 7; }), AllLanes, 16, 16},
      {"char t[k]", 1, elements(1, [](unsigned) { return 7; }), AllLanes, 4, 4},
      {"float t[lane % 4 + k]", 4, elements(4, [](unsigned L) { return L % 4 + 7; }), AllLanes,
       16, 4},
      {"float t[lane + k]", 4, elements(4, [](unsigned L) { return L + 7; }), AllLanes, 32, 4},
      {"float t[lane * 8 + k]", 4, elements(4, [](unsigned L) { return L * 8 + 3; }), AllLanes,
       32, 4},
      {"double t[lane % 2 + k]", 8, elements(8, [](unsigned L) { return L % 2 + 7; }), AllLanes,
       16, 8},
      {"float t[k], lanes 0-7", 4, elements(4, [](unsigned) { return 7; }), 0xFFu, 1, 1},
  };
  for (const Case &C : Cases) {
    LocalCount N = countLocalSectors(C.Offset, C.Active, C.Bytes);
    EXPECT_EQ(N.Sectors, C.Sectors) << C.Name;
    EXPECT_EQ(N.Ideal, C.Ideal) << C.Name;
  }
}

TEST(LocalModel, TheIdealIsAtMostTheCost) {
  // Lane 0 reads 4 bytes at offset 2 (two words), the others at offset 0:
  // 5 sectors; all lanes at offset 2 would be 8. The ideal is capped at 5.
  LaneInts A = elements(1, [](unsigned L) { return L == 0 ? 2 : 0; });
  LocalCount C = countLocalSectors(A, AllLanes, 4);
  EXPECT_EQ(C.Sectors, 5u);
  EXPECT_EQ(C.Ideal, 5u);
}

TEST(LocalModel, UnalignedAccessSpansTwoWords) {
  // A 4-byte access at offset 2 covers words 0 and 1 of every lane.
  LaneInts A = elements(1, [](unsigned) { return 2; });
  EXPECT_EQ(countLocalSectors(A, AllLanes, 4).Sectors, 8u);
  EXPECT_EQ(countLocalSectors(A, 0, 4).Sectors, 0u);
}

TEST(LocalModel, SpaceRow) {
  const SpaceModel &M = spaceModel(MemorySpace::Local);
  EXPECT_STREQ(M.Name, "local");
  EXPECT_STREQ(M.Unit, "sector");
  EXPECT_EQ(M.Period, 4);
  EXPECT_EQ(M.WidestAccess, 16u);
  RequestCost C = M.Count(elements(4, [](unsigned L) { return L % 4; }), AllLanes, 4);
  EXPECT_EQ(C.Cost, 16u);
  EXPECT_EQ(C.Ideal, 4u);
}
