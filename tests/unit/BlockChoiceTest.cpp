//===- BlockChoiceTest.cpp - --block=KERNEL=X,Y,Z --------------------------===//

#include "launch/BlockChoice.h"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(BlockChoice, Parse) {
  std::string Why;
  auto Plain = parseBlockChoice("32,8", Why);
  ASSERT_TRUE(Plain) << Why;
  EXPECT_EQ(Plain->Kernel, "");
  EXPECT_EQ(Plain->Block, (Dim3{32, 8, 1}));
  auto Named = parseBlockChoice("reduce6<float, 256>=256", Why);
  ASSERT_TRUE(Named) << Why;
  EXPECT_EQ(Named->Kernel, "reduce6<float, 256>");
  EXPECT_EQ(Named->Block, (Dim3{256, 1, 1}));
  EXPECT_FALSE(parseBlockChoice("=32", Why));
  EXPECT_EQ(Why, "expects KERNEL=X[,Y[,Z]] with a kernel name, got '=32'");
  EXPECT_FALSE(parseBlockChoice("k=", Why));
  EXPECT_EQ(Why, "expects KERNEL=X[,Y[,Z]] with positive integers, got 'k='");
  EXPECT_FALSE(parseBlockChoice("k=64,64", Why));
  EXPECT_EQ(Why, "a block holds at most 1024 threads");
  EXPECT_FALSE(parseBlockChoice("k", Why));
}

TEST(BlockChoice, Names) {
  // With template arguments (spaces and integer suffixes aside) or without.
  EXPECT_EQ(namesKernel("reduce6<float,256>", "reduce6<float, 256U, true>"), 0);
  EXPECT_EQ(namesKernel("reduce6<float,256,true>", "reduce6<float, 256U, true>"), 2);
  EXPECT_EQ(namesKernel("reduce6", "reduce6<float, 256U, true>"), 1);
  EXPECT_EQ(namesKernel("reduce", "reduce6<float, 256U, true>"), 0);
  // With or without namespaces.
  EXPECT_EQ(namesKernel("blur", "img::blur<2>"), 1);
  EXPECT_EQ(namesKernel("img::blur", "img::blur<2>"), 1);
  EXPECT_EQ(namesKernel("blur<2>", "img::blur<2>"), 2);
  EXPECT_EQ(namesKernel("other::blur", "img::blur<2>"), 0);
  // A suffix is dropped only from numbers, not from names.
  EXPECT_EQ(namesKernel("k<T1>", "k<T1U>"), 0);
}

TEST(BlockChoice, MostSpecificThenLast) {
  std::vector<BlockChoice> C = {{"", Dim3{32, 1, 1}, "a"},
                                {"k", Dim3{64, 1, 1}, "b"},
                                {"k<1>", Dim3{128, 1, 1}, "c"},
                                {"k", Dim3{256, 1, 1}, "d"},
                                {"", Dim3{512, 1, 1}, "e"}};
  EXPECT_EQ(chooseBlock(C, "k<1>")->Spelling, "c");
  EXPECT_EQ(chooseBlock(C, "k<2>")->Spelling, "d");
  EXPECT_EQ(chooseBlock(C, "other")->Spelling, "e");
  EXPECT_EQ(chooseBlock({}, "k"), nullptr);
  std::vector<BlockChoice> OnlyNamed = {{"k", Dim3{64, 1, 1}, "b"}};
  EXPECT_EQ(chooseBlock(OnlyNamed, "other"), nullptr);
}
