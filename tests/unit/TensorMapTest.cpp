// TMA tensor maps: the contract of cuTensorMapEncodeTiled and the layout a
// swizzle writes (model/TensorMap.h).
#include "model/TensorMap.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace coalesce;

namespace {

/// A 2-D map of halves: a box of Rows x Cols over a matrix of 256 x 64.
TensorMapEncoding halves(int64_t Cols, int64_t Rows, int64_t Swizzle) {
  TensorMapEncoding E;
  E.At = "k.cu:10";
  E.DataType = 6; // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  E.Rank = 2;
  E.Interleave = 0;
  E.Swizzle = Swizzle;
  E.GlobalDims = {64, 256};
  E.GlobalStrides = {128};
  E.Box = {Cols, Rows};
  E.ElementStrides = {1, 1};
  E.AddressOffset = 0;
  return E;
}

std::vector<std::string> rules(const TensorMapEncoding &E) {
  std::vector<std::string> Out;
  for (const ContractBreak &B : encodeContract(E))
    Out.push_back(B.Rule);
  return Out;
}

TEST(TensorMap, ElementSizesFollowTheEnum) {
  EXPECT_EQ(tensorElementBytes(0), 1u);  // UINT8
  EXPECT_EQ(tensorElementBytes(6), 2u);  // FLOAT16
  EXPECT_EQ(tensorElementBytes(7), 4u);  // FLOAT32
  EXPECT_EQ(tensorElementBytes(8), 8u);  // FLOAT64
  EXPECT_EQ(tensorElementBytes(9), 2u);  // BFLOAT16
  EXPECT_EQ(tensorElementBytes(13), 0u); // 16U4_ALIGN8B: packed
}

TEST(TensorMap, SwizzleSpans) {
  EXPECT_EQ(swizzleSpan(0), 0u);
  EXPECT_EQ(swizzleSpan(1), 32u);
  EXPECT_EQ(swizzleSpan(2), 64u);
  EXPECT_EQ(swizzleSpan(3), 128u);
  EXPECT_FALSE(swizzleSpan(4)); // 128B with 32-byte atoms: not modelled
  EXPECT_EQ(swizzleName(3), "CU_TENSOR_MAP_SWIZZLE_128B");
}

TEST(TensorMap, SwizzledOffsetsAreCuTesSwizzleOnBytes) {
  // 128B: chunk c of row r (128-byte rows) lands at chunk c ^ (r % 8).
  for (int64_t R = 0; R < 16; ++R)
    for (int64_t C = 0; C < 8; ++C)
      EXPECT_EQ(swizzledOffset(128, R * 128 + C * 16 + 4), R * 128 + ((C ^ (R % 8)) * 16) + 4);
  // 64B with 64-byte rows: chunk c of row r at c ^ ((r / 2) % 4).
  for (int64_t R = 0; R < 16; ++R)
    for (int64_t C = 0; C < 4; ++C)
      EXPECT_EQ(swizzledOffset(64, R * 64 + C * 16), R * 64 + ((C ^ ((R / 2) % 4)) * 16));
  // 32B with 32-byte rows: chunk c of row r at c ^ ((r / 4) % 2).
  for (int64_t R = 0; R < 16; ++R)
    for (int64_t C = 0; C < 2; ++C)
      EXPECT_EQ(swizzledOffset(32, R * 32 + C * 16), R * 32 + ((C ^ ((R / 4) % 2)) * 16));
  // No swizzle; and each mode is its own inverse.
  EXPECT_EQ(swizzledOffset(0, 1234), 1234);
  for (unsigned Span : {32u, 64u, 128u})
    for (int64_t O = 0; O < 4096; O += 4)
      EXPECT_EQ(swizzledOffset(Span, swizzledOffset(Span, O)), O);
}

TEST(TensorMap, BoxBytes) {
  EXPECT_EQ(boxBytes(halves(64, 64, 3)), 8192);
  EXPECT_EQ(boxBytes(halves(32, 64, 2)), 4096);
  TensorMapEncoding E = halves(64, 64, 3);
  E.ElementStrides = {1, 2}; // every other row: 32 rows
  EXPECT_EQ(boxBytes(E), 4096);
  E.Box[1] = std::nullopt;
  EXPECT_FALSE(boxBytes(E));
}

TEST(TensorMap, AValidMapBreaksNothing) {
  EXPECT_TRUE(encodeContract(halves(64, 64, 3)).empty());
  EXPECT_TRUE(encodeContract(halves(32, 64, 2)).empty());
  EXPECT_TRUE(encodeContract(halves(16, 256, 1)).empty());
  EXPECT_TRUE(encodeContract(halves(256, 8, 0)).empty());
}

TEST(TensorMap, TheContractsRules) {
  // A box row of 256 bytes under the 128B swizzle.
  EXPECT_EQ(rules(halves(128, 64, 3)), std::vector<std::string>{"box-inner-exceeds-swizzle"});
  // 64 bytes under 32B.
  EXPECT_EQ(rules(halves(32, 64, 1)), std::vector<std::string>{"box-inner-exceeds-swizzle"});
  // 12 bytes: not a multiple of 16.
  EXPECT_EQ(rules(halves(6, 64, 0)), std::vector<std::string>{"box-inner-bytes"});
  // More than 256 rows.
  EXPECT_EQ(rules(halves(64, 512, 3)), std::vector<std::string>{"box-dim"});
  TensorMapEncoding E = halves(64, 64, 3);
  E.GlobalStrides = {100};
  EXPECT_EQ(rules(E), std::vector<std::string>{"global-stride"});
  E = halves(64, 64, 3);
  E.AddressOffset = 8;
  EXPECT_EQ(rules(E), std::vector<std::string>{"global-address-alignment"});
  E = halves(64, 64, 3);
  E.ElementStrides = {1, 9};
  EXPECT_EQ(rules(E), std::vector<std::string>{"element-stride"});
  E = halves(64, 64, 3);
  E.Rank = 6;
  EXPECT_EQ(rules(E), std::vector<std::string>{"tensor-rank"});
  // Values the walk does not know break nothing.
  E = halves(64, 64, 3);
  E.Box = {std::nullopt, std::nullopt};
  E.GlobalStrides = {std::nullopt};
  E.AddressOffset.reset();
  EXPECT_TRUE(encodeContract(E).empty());
}

} // namespace
