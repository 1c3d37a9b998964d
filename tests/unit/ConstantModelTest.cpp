// Constant model: the constant-cache requests of one LDC (model/ConstantModel.h),
// and the table of memory spaces that dispatches to it (model/Spaces.h).
#include "model/ConstantModel.h"
#include "model/Spaces.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// Byte address of each lane for float cst[Index(lane)].
template <class F> LaneInts floats(F Index) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = 4 * static_cast<int64_t>(Index(L));
  return A;
}

struct LaneCase {
  const char *Name;
  LaneInts Addr;
  unsigned Requests;
};

class MeasuredPatterns : public ::testing::TestWithParam<LaneCase> {};

TEST_P(MeasuredPatterns, OneRequestPerDistinctAddress) {
  const LaneCase &C = GetParam();
  ConstantCount N = countConstantRequests(C.Addr, AllLanes, 4);
  EXPECT_EQ(N.Requests, C.Requests) << C.Name;
  EXPECT_EQ(N.Ideal, 1u) << C.Name;
}

// Requests per LDC measured on an H200 (idc__requests per executed LDC;
// sample_kernels/constant_memory.cu): distinct addresses, not cache lines.
INSTANTIATE_TEST_SUITE_P(
    H200, MeasuredPatterns,
    ::testing::Values(LaneCase{"cst[k]", floats([](unsigned) { return 7; }), 1},
                      LaneCase{"cst[lane]", floats([](unsigned L) { return L; }), 32},
                      LaneCase{"cst[lane / 8]", floats([](unsigned L) { return L / 8; }), 4},
                      LaneCase{"cst[(lane / 16) * 100]",
                               floats([](unsigned L) { return (L / 16) * 100; }), 2},
                      LaneCase{"cst[lane * 32]", floats([](unsigned L) { return L * 32; }), 32}));

TEST(ConstantModel, InactiveLanesDoNotCount) {
  const LaneInts A = floats([](unsigned L) { return L; });
  EXPECT_EQ(countConstantRequests(A, 0x000000FFu, 4).Requests, 8u);
  EXPECT_EQ(countConstantRequests(A, 0x80000001u, 4).Requests, 2u);
  ConstantCount None = countConstantRequests(A, 0, 4);
  EXPECT_EQ(None.Requests, 0u);
  EXPECT_EQ(None.Ideal, 0u);
}

TEST(ConstantModel, TheAlignmentDoesNotMatter) {
  // The same lanes at another base: the same distinct addresses.
  LaneInts A = floats([](unsigned L) { return L / 4; });
  for (int64_t Shift : {0, 4, 28, 124, 4096 + 12}) {
    LaneInts B = A;
    for (int64_t &X : B)
      X += Shift;
    EXPECT_EQ(countConstantRequests(B, AllLanes, 4).Requests, 8u) << Shift;
  }
}

TEST(ConstantModel, DistinctAddressesAscending) {
  LaneInts A = floats([](unsigned L) { return (31 - L) / 16; });
  EXPECT_EQ(constantAddresses(A, AllLanes), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(constantAddresses(A, 0x0000FFFFu), (std::vector<int64_t>{4}));
}

TEST(Spaces, EachSpaceCountsWithItsModel) {
  // Lanes 4 bytes apart: 4 sectors, 1 wavefront, 32 constant-cache requests.
  const LaneInts A = floats([](unsigned L) { return L; });
  RequestCost G = spaceModel(MemorySpace::Global).Count(A, AllLanes, 4);
  RequestCost S = spaceModel(MemorySpace::Shared).Count(A, AllLanes, 4);
  RequestCost C = spaceModel(MemorySpace::Constant).Count(A, AllLanes, 4);
  EXPECT_EQ(G.Cost, 4u);
  EXPECT_EQ(G.Ideal, 4u);
  EXPECT_EQ(S.Cost, 1u);
  EXPECT_EQ(S.Ideal, 1u);
  EXPECT_EQ(C.Cost, 32u);
  EXPECT_EQ(C.Ideal, 1u);
}

TEST(Spaces, TheTable) {
  EXPECT_STREQ(spaceModel(MemorySpace::Global).Name, "global");
  EXPECT_STREQ(spaceModel(MemorySpace::Shared).Name, "shared");
  EXPECT_STREQ(spaceModel(MemorySpace::Constant).Name, "constant");
  EXPECT_STREQ(spaceModel(MemorySpace::Constant).Unit, "constant-cache request");
  EXPECT_EQ(spaceModel(MemorySpace::Global).Period, 32);
  EXPECT_EQ(spaceModel(MemorySpace::Shared).Period, 128);
  EXPECT_EQ(spaceModel(MemorySpace::Constant).Period, 1);
  EXPECT_EQ(spaceModel(MemorySpace::Global).WidestAccess, 16u);
  EXPECT_EQ(spaceModel(MemorySpace::Constant).WidestAccess, 8u);
}

} // namespace
