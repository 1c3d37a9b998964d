//===- LocalModel.h - Sectors of a local-memory request -------------------===//
//
// Design note: how Nsight Compute counts a load or store of local memory.
//
// Local memory holds what the compiler does not keep in registers: a
// per-thread array indexed at run time (`float t[256]; ... t[k]`), spills.
// Each thread sees its own private address space; the hardware interleaves
// the threads of a warp by 4-byte words (CUDA Programming Guide, "Local
// Memory": consecutive 32-bit words are accessed by consecutive thread IDs),
// so byte b of lane l's space is at
//
//     (b / 4) * 128 + l * 4 + b % 4
//
// from the warp's 128-byte-aligned base. An LDL/STL is one request; its cost
// is the distinct 32-byte sectors the active lanes' bytes fall in
// (`L2 Theoretical Sectors Local` on Nsight Compute's source page, with
// `--metrics smsp__sass_sectors_mem_local`). Word w of lane l is in sector
// 4 w + l / 8, so when every lane uses the same offset the warp reads whole
// 128-byte lines: 4 sectors per word for 32 lanes. That is the ideal here
// (Nsight Compute has no ideal for local memory): the cost the same request
// would have if every active lane used the first active lane's offset, at
// most the sectors it touches.
//
// Measured on an H200 (64 blocks of 64 threads, sectors per request): t[k]
// with k warp-uniform: float 4, double (LDL.64) 8, float4 (LDL.128 and
// STL.128) 16, char (LDL.U8) 4, a float field of a 12-byte struct 4;
// t[lane % 4 + k] float 16; t[lane + k] float 32; t[lane * 8 + k] float 32;
// double t[lane % 2 + k] 16; t[k] with only lanes 0-7 active 1.
//
// Assumptions: warp of 32 lanes; the warp's local window starts 128-byte
// aligned; whether an array is in local memory at all is the compiler's
// choice (the analysis says it assumes so).
//
// Example: float t[256]; t[threadIdx.x % 4 + k] -> 4 distinct words, each
// read by 8 lanes spread over a whole 128-byte line: 16 sectors (ideal 4).
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_LOCALMODEL_H
#define COALESCE_ANALYZER_MODEL_LOCALMODEL_H

#include "model/Poly.h"

namespace coalesce {

/// Bytes of one interleaving unit: lane l's word w is 4 bytes at
/// w * LocalLineBytes + l * LocalWordBytes.
constexpr int64_t LocalWordBytes = 4;
constexpr int64_t LocalLineBytes = LocalWordBytes * WarpSize;

struct LocalCount {
  unsigned Sectors = 0; // distinct 32-byte sectors of the active lanes' bytes
  unsigned Ideal = 0;   // the same with every active lane at the first one's
                        // offset, at most Sectors
};

/// The sector (32-byte unit of the warp's interleaved local window) that
/// byte B of lane L's private space falls in.
int64_t localSector(int64_t B, unsigned L);

/// Counts the sectors of one local-memory request: lane L accesses bytes
/// [Offset[L], Offset[L] + BytesPerLane) of its private space.
LocalCount countLocalSectors(const LaneInts &Offset, LaneMask Active, unsigned BytesPerLane);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_LOCALMODEL_H
