// Warp model: which threads share a warp.
#include "model/WarpModel.h"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(WarpModel, OneRowPerWarpWhenBlockDimXIs32) {
  WarpThreads W = threadsOfWarp({32, 8, 1}, 3);
  EXPECT_EQ(W.Exists, AllLanes);
  for (unsigned L = 0; L < WarpSize; ++L) {
    EXPECT_EQ(W.Tx[L], int64_t(L));
    EXPECT_EQ(W.Ty[L], 3);
  }
}

TEST(WarpModel, NarrowBlocksSpanRows) {
  WarpThreads W = threadsOfWarp({16, 16, 1}, 1);
  EXPECT_EQ(W.Tx[0], 0);
  EXPECT_EQ(W.Ty[0], 2);
  EXPECT_EQ(W.Tx[16], 0);
  EXPECT_EQ(W.Ty[16], 3);
  WarpThreads V = threadsOfWarp({8, 4, 2}, 1);
  EXPECT_EQ(V.Tz[0], 1);
  EXPECT_EQ(V.Ty[9], 1);
}

TEST(WarpModel, WarpsStraddleRowsAtOddWidths) {
  WarpThreads W = threadsOfWarp({48, 2, 1}, 1); // tids 32..63
  EXPECT_EQ(W.Tx[0], 32);
  EXPECT_EQ(W.Ty[0], 0);
  EXPECT_EQ(W.Tx[16], 0);
  EXPECT_EQ(W.Ty[16], 1);
}

TEST(WarpModel, LastWarpOfAnOddBlockIsPartial) {
  EXPECT_EQ(warpsPerBlock({100, 1, 1}), 4u);
  WarpThreads W = threadsOfWarp({100, 1, 1}, 3);
  EXPECT_EQ(W.Exists, 0xfu);
}

TEST(WarpModel, ValidatesShapes) {
  EXPECT_EQ(validateBlockShape({256, 1, 1}), "");
  EXPECT_NE(validateBlockShape({2048, 1, 1}), "");
  EXPECT_NE(validateBlockShape({32, 32, 2}), "");
  EXPECT_NE(validateBlockShape({1, 1, 65}), "");
  EXPECT_NE(validateBlockShape({0, 1, 1}), "");
}

TEST(WarpModel, PartlyKnownShapesWhoseWarpsStayInKnownDimensions) {
  // (4, 8, ?): x * y = 32, every warp is one z-slice.
  auto A = partialWarps(4, 8, 0);
  ASSERT_TRUE(A.has_value());
  EXPECT_EQ(A->Sub, (Dim3{4, 8, 1}));
  EXPECT_EQ(A->Axes, 2u);
  // (64, ?, ?): every warp is half a row.
  auto B = partialWarps(64, 0, 0);
  ASSERT_TRUE(B.has_value());
  EXPECT_EQ(B->Sub, (Dim3{64, 1, 1}));
  EXPECT_EQ(B->Axes, 1u);
  // (16, 6, ?): 96 threads per slice, three warps, each within the slice.
  auto C = partialWarps(16, 6, 0);
  ASSERT_TRUE(C.has_value());
  EXPECT_EQ(C->Sub, (Dim3{16, 6, 1}));
  EXPECT_EQ(warpsPerBlock(C->Sub), 3u);
  // (4, ?, 1): a warp spans 8 rows if y >= 8, z-slices otherwise: not known.
  EXPECT_FALSE(partialWarps(4, 0, 1).has_value());
  // (16, 3, ?): 48 threads per slice, warps straddle slices.
  EXPECT_FALSE(partialWarps(16, 3, 0).has_value());
  // x unknown: nothing to go on.
  EXPECT_FALSE(partialWarps(0, 8, 4).has_value());
}

TEST(WarpModel, WarpsFormedYFirstCountThreadIdxYFastest) {
  // (4, 8, 1) formed y first: lanes 0..7 are (tx 0, ty 0..7), lanes 8..15
  // (tx 1, ty 0..7); as the block (8, 4, 1) would with x and y exchanged.
  WarpThreads W = threadsOfWarp({4, 8, 1}, 0, /*YFirst=*/true);
  EXPECT_EQ(W.Exists, AllLanes);
  for (unsigned L = 0; L < WarpSize; ++L) {
    EXPECT_EQ(W.Ty[L], int64_t(L % 8));
    EXPECT_EQ(W.Tx[L], int64_t(L / 8));
  }
  WarpThreads X = threadsOfWarp({8, 4, 1}, 0);
  for (unsigned L = 0; L < WarpSize; ++L) {
    EXPECT_EQ(W.Tx[L], X.Ty[L]);
    EXPECT_EQ(W.Ty[L], X.Tx[L]);
  }
  // z still counts last.
  WarpThreads Z = threadsOfWarp({4, 4, 4}, 1, true);
  EXPECT_EQ(Z.Tz[0], 2);
  EXPECT_EQ(Z.Ty[1], 1);
  EXPECT_EQ(Z.Tx[4], 1);
}
