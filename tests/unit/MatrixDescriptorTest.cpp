// wgmma's shared-memory matrix descriptors, its shapes, and the wavefronts
// Nsight Compute counts for its shared operands (model/MatrixDescriptor.h,
// model/Instructions.h).
#include "model/Instructions.h"
#include "model/MatrixDescriptor.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

std::vector<std::string> parts(const std::string &Opcode) {
  std::vector<std::string> Out;
  size_t I = 0;
  while (I <= Opcode.size()) {
    const size_t J = std::min(Opcode.find('.', I), Opcode.size());
    Out.push_back(Opcode.substr(I, J - I));
    I = J + 1;
  }
  return Out;
}

TEST(MatrixDescriptor, FieldsAboveTheAddress) {
  // Leading offset 1 (16 bytes), stride 64 (1024 bytes), 128B swizzle.
  const uint64_t Bits = (uint64_t(1) << 16) | (uint64_t(64) << 32) | (uint64_t(1) << 62);
  const std::optional<DescriptorFields> F = decodeDescriptorFields(Bits);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->LeadingBytes, 16u);
  EXPECT_EQ(F->StrideBytes, 1024u);
  EXPECT_EQ(F->BaseOffset, 0u);
  EXPECT_EQ(F->Mode, 1u);
  // Mode 3 (32B) sets bit 63: past INT64_MAX.
  EXPECT_EQ(decodeDescriptorFields(uint64_t(3) << 62)->Mode, 3u);
  EXPECT_EQ(decodeDescriptorFields(uint64_t(5) << 49)->BaseOffset, 5u);
  // Reserved bits: not a descriptor the model reads.
  EXPECT_FALSE(decodeDescriptorFields(uint64_t(1) << 14));
  EXPECT_FALSE(decodeDescriptorFields(uint64_t(1) << 47));
  EXPECT_FALSE(decodeDescriptorFields(uint64_t(1) << 55));
}

TEST(MatrixDescriptor, SwizzleModes) {
  EXPECT_EQ(descriptorSwizzleSpan(0), 0u);
  EXPECT_EQ(descriptorSwizzleSpan(1), 128u);
  EXPECT_EQ(descriptorSwizzleSpan(2), 64u);
  EXPECT_EQ(descriptorSwizzleSpan(3), 32u);
  EXPECT_EQ(descriptorSwizzleText(1), "the 128B swizzle (mode 1)");
  EXPECT_EQ(descriptorSwizzleText(0), "no swizzle (mode 0)");
}

TEST(MatrixDescriptor, Shapes) {
  std::optional<WgmmaShape> S =
      parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->M, 64u);
  EXPECT_EQ(S->N, 8u);
  EXPECT_EQ(S->K, 16u);
  EXPECT_EQ(S->ElemBits, 16u);
  EXPECT_TRUE(S->Transposable);
  S = parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32"));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->ElemBits, 32u);
  EXPECT_FALSE(S->Transposable);
  S = parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n64k32.f16.e4m3.e5m2"));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->ElemBits, 8u);
  // K must be the type's; N a multiple of 8 up to 256; M 64.
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16")));
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16")));
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n264k16.f32.f16.f16")));
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m32n8k16.f32.f16.f16")));
  // Not measured: integer and single-bit forms, sparse A.
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8")));
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc")));
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16")));
  EXPECT_FALSE(parseWgmmaShape(parts("wgmma.fence.sync.aligned")));
}

// Measured on an H100 (tests/verify/fixtures/probe-wgmma-h100): the
// warpgroup's shared bytes in 128-byte wavefronts, over its four warps.
TEST(MatrixDescriptor, WavefrontsOfTheSharedOperands) {
  auto Per = [](const char *Op, bool ARegs) {
    return wgmmaWavefrontsPerWarp(wgmmaSharedBytes(*parseWgmmaShape(parts(Op)), ARegs));
  };
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", false), 4.5);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16", false), 5);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", false), 8);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", false), 12);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", false), 20);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", true), 4);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", false), 8);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3", false), 8);
  EXPECT_DOUBLE_EQ(Per("wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16", false), 8);
}

} // namespace
