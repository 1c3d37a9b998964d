//===- TensorMap.h - TMA tensor maps: their contract and their layout -----===//
//
// A TMA copy (`cp.async.bulk.tensor`, UTMALDG in SASS) moves a box of a
// tensor between global and shared memory, issued by one thread. What it
// does is set on the host: `cuTensorMapEncodeTiled` encodes the element
// type, the global shape and strides, the box, and the swizzle mode of the
// shared copy into a 128-byte opaque map the kernel receives (as a
// `const __grid_constant__ CUtensorMap` parameter).
//
// The contract (CUDA driver API, cuTensorMapEncodeTiled; PTX ISA,
// cp.async.bulk.tensor), each rule broken making the encode fail with
// CUDA_ERROR_INVALID_VALUE or the copy read what was not meant:
//   - rank 1 to 5 (at least 3 when interleaved);
//   - the global address 16-byte aligned (32 when interleaved by 32 bytes);
//   - global strides (bytes, rank - 1 of them) multiples of 16 (32 when
//     interleaved by 32 bytes) and below 2^40;
//   - box dimensions 1 to 256; without interleave, the box's inner
//     dimension in bytes a multiple of 16, and with a swizzle at most the
//     swizzle's span (32, 64 or 128 bytes);
//   - element strides 1 to 8;
//   - the shared destination 128-byte aligned.
//
// The layout a swizzle writes (measured on an H100:
// tests/verify/fixtures/probe-tma-h100), for boxes whose rows are exactly the
// swizzle's span: the box is stored row after row, inner dimension first;
// the 16-byte chunk of shared address a (bits 4 and up) is XORed with the
// bits of a that count spans of 128 bytes: a ^ (((a >> 7) & M) << 4) with
// M = 1, 3, 7 for the 32B, 64B, 128B modes (CuTe's Swizzle<1,4,3>, <2,4,3>,
// <3,4,3> on byte addresses). It follows the address, not the offset in the
// destination: the two agree only for a destination aligned to the
// pattern's repeat (256, 512, 1024 bytes). Rows narrower than the span are
// laid out otherwise (not modelled).
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_TENSORMAP_H
#define COALESCE_ANALYZER_MODEL_TENSORMAP_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// What a `cuTensorMapEncodeTiled` call encoded, as far as the host walk
/// knows it (each value unset where it does not).
struct TensorMapEncoding {
  std::string At; // "f.cu:120": the encode call
  std::optional<int64_t> DataType, Rank, Interleave, Swizzle;
  std::vector<std::optional<int64_t>> GlobalDims, GlobalStrides, Box, ElementStrides;
  /// The global address: bytes past the start of its allocation (which is
  /// at least 256-byte aligned), where known.
  std::optional<int64_t> AddressOffset;
  bool operator==(const TensorMapEncoding &O) const;
};

/// Bytes of an element of CUtensorMapDataType T (0: a packed type of 4 or 6
/// bits, or not a type).
unsigned tensorElementBytes(int64_t T);
/// The enumerator's name ("CU_TENSOR_MAP_SWIZZLE_128B"), for messages.
std::string swizzleName(int64_t Mode);
/// The span a swizzle mode permutes 16-byte chunks within: 32, 64, 128
/// bytes; 0 for no swizzle; nullopt for the modes whose layout is not
/// modelled (the 128B modes with 32- or 64-byte atoms).
std::optional<unsigned> swizzleSpan(int64_t Mode);
/// Where byte O of a box (row-major, rows packed) lands in shared memory,
/// relative to a destination aligned to the mode's repeat (8 spans). The
/// swizzle is its own inverse.
int64_t swizzledOffset(unsigned Span, int64_t O);

/// One rule of the contract that a map or a copy breaks.
struct ContractBreak {
  std::string Rule; // "box-inner-exceeds-swizzle"
  std::string Text; // the sentence for the finding
};

/// The rules of cuTensorMapEncodeTiled that E breaks (known values only).
std::vector<ContractBreak> encodeContract(const TensorMapEncoding &E);

/// Every value of the encoding, for keys (two launches with different maps
/// are walked apart).
std::string tensorMapKey(const TensorMapEncoding &E);

/// The box's bytes (every box dimension and the element size known).
std::optional<int64_t> boxBytes(const TensorMapEncoding &E);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_TENSORMAP_H
