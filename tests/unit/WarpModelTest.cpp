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
