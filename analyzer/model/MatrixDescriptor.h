//===- MatrixDescriptor.h - wgmma and its shared-memory descriptors -------===//
//
// `wgmma.mma_async` (sm_90a; HGMMA in SASS) multiplies a warpgroup's tiles:
// A from shared memory (or from registers) and B from shared memory, each
// named by a 64-bit matrix descriptor (PTX ISA, "Matrix Descriptor Format"
// of the asynchronous warpgroup-level matrix instructions):
//
//   bits  0-13  the start address in the shared window, >> 4
//   bits 16-29  the leading dimension byte offset, >> 4
//   bits 32-45  the stride dimension byte offset, >> 4
//   bits 49-51  the matrix base offset
//   bits 62-63  the swizzle mode: 0 none (interleave), 1 128B, 2 64B, 3 32B
//
// A K-major operand with a swizzle is laid out in atoms of 8 rows of the
// swizzle's span (32, 64, 128 bytes), the 16-byte chunks of each row XORed
// as a TMA copy with the same swizzle writes them; the stride offset is the
// distance between atoms along M (N). A copy's box whose rows are the span
// is such a layout with atoms 8 spans apart.
//
// Measured on an H100 (sample_kernels/wgmma_descriptors.cu, each product
// compared with the CPU's): a 128B-swizzled box read through 128B
// descriptors (start 32 bytes into the rows, stride 1024) and a 32B box
// through 32B descriptors (stride 256) multiply right; the 128B box through
// 64B descriptors gets 1820 of 2048 values wrong, an unswizzled box through
// 32B descriptors 1024 of 2048 (the rows the swizzle moves).
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_MATRIXDESCRIPTOR_H
#define COALESCE_ANALYZER_MODEL_MATRIXDESCRIPTOR_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// The bits a shifted shared address can reach in a descriptor (0-13);
/// the shared window is below 2^18 bytes.
constexpr unsigned SharedWindowBits = 18;
constexpr unsigned DescriptorAddressShift = 4;

/// The fields of a descriptor other than its start address.
struct DescriptorFields {
  unsigned LeadingBytes = 0; // leading dimension byte offset
  unsigned StrideBytes = 0;  // stride dimension byte offset
  unsigned BaseOffset = 0;
  unsigned Mode = 0; // bits 62-63
};

/// The fields of a descriptor whose start address field is zero; nullopt
/// when a reserved bit (14-15, 30-31, 46-48, 52-61) is set.
std::optional<DescriptorFields> decodeDescriptorFields(uint64_t Bits);

/// The span of a descriptor's swizzle mode: 128, 64, 32 bytes; 0 for none.
unsigned descriptorSwizzleSpan(unsigned Mode);
/// "the 128B swizzle (mode 1)", "no swizzle (mode 0)".
std::string descriptorSwizzleText(unsigned Mode);

/// A wgmma instruction's shape and operand types.
struct WgmmaShape {
  unsigned M = 0, N = 0, K = 0;
  unsigned ElemBits = 0; // of A and B
  bool Transposable = false; // .f16/.bf16: imm-trans-a/b operands exist
};

/// The shape of `wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype`
/// (the opcode's parts) for the measured operand types: .f16, .bf16, .tf32,
/// .e4m3, .e5m2; nullopt for other forms (sparse, .s8/.u8, .b1, unknown
/// shapes).
std::optional<WgmmaShape> parseWgmmaShape(const std::vector<std::string> &Opcode);

/// Bytes the warpgroup's instruction reads from shared memory: B, and A
/// unless it is in registers.
unsigned wgmmaSharedBytes(const WgmmaShape &S, bool AInRegisters);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_MATRIXDESCRIPTOR_H
