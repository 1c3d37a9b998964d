//===- Instructions.h - Memory instructions with their own counting rules --===//
//
// Design note: two kinds of instruction are not a plain load or store, and
// Nsight Compute counts them by rules of their own, measured on an H200
// (tests/verify/fixtures/probe-async-h200, sample_kernels/async_copies.cu,
// sample_kernels/matrix_loads.cu; docs/model.md "Asynchronous copies" and
// "Matrix loads and stores"):
//
// - LDSM / STSM (ldmatrix / stmatrix .m8n8 .x1/.x2/.x4, b16): lanes 8m..8m+7
//   give the 16-byte row addresses of matrix m. Each matrix is one phase of
//   8 addresses; a phase costs the most distinct 16-byte rows that fall in
//   any one 16-byte bank group ((address / 16) % 8), so 8 rows in distinct
//   groups cost 1 wavefront and 8 rows 128 bytes apart 8. Rows asked by
//   several lanes are served once. The lanes of matrices the instruction does
//   not use (.x1: lanes 8-31) do not count; an all-lanes broadcast costs one
//   wavefront per matrix (not the LDS.128's merged 2). Ideal: the matrices.
//
// - LDGSTS (cp.async global -> shared): one instruction, a global read and a
//   shared write, on one row of the source page (Address Space
//   "Global,Shared"). The data moves through the L1's 32 banks of 4 bytes:
//   the source bank of a lane's bytes is (global address / 4) % 32 (the
//   offset in the 128-byte line), the destination bank the shared one. Per
//   phase (the warp for 4 bytes, half-warps for 8, quarter-warps for 16) the
//   write costs the most *lanes* any one bank serves on either side (lanes
//   reading one global word, or writing one shared word, are not merged), at
//   least 1. The global side (.ca, through L1) costs the sectors of an LDG of
//   the same width.
//   The 16-byte .cg form (LDGSTS.BYPASS.128) differs, per quarter-warp:
//   * when every global sector it reads is read whole by two of its lanes
//     whose chunks fill one aligned 32-byte slot of shared memory (in either
//     order), it costs one wavefront per pair of a 128-byte global line and a
//     128-byte shared block that its lanes move data between (two rows of 64
//     bytes in two lines into one block: 2; one line into a row that crosses
//     two blocks at a 32-byte boundary: 2), and its sectors;
//   * when every lane of it reads a sector the quarter reads only in part,
//     or the chunk another lane also reads, or writes a bank group another
//     lane writes, it is served lane by lane: 8 wavefronts, and each lane's
//     sectors alone;
//   * anything else measured in between (a row that crosses two blocks at a
//     16-byte boundary: 3 or 4 wavefronts and twice the sectors; a padded
//     GEMM tile) with no rule found: the analysis says unknown, as it does
//     with some lanes off (the counts varied between runs).
//   The ideal is the distinct bytes written, in sectors.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_INSTRUCTIONS_H
#define COALESCE_ANALYZER_MODEL_INSTRUCTIONS_H

#include "model/BankModel.h"
#include "model/SectorModel.h"

#include <string>

namespace coalesce {

/// The instruction an access is, when its cost is not a plain load's or
/// store's.
enum class InstrKind : uint8_t {
  Plain,
  AsyncCopy,       // LDGSTS (cp.async.ca, or .cg of 4/8 bytes never emitted)
  AsyncCopyBypass, // LDGSTS.BYPASS.128 (cp.async.cg 16 bytes)
  Matrix,          // LDSM / STSM
  SharedAtomic,    // ATOMS of a 32-bit integer (used by the costing only)
  TensorCopy,      // UTMALDG / UTMASTG (cp.async.bulk.tensor): one thread's box
  Wgmma,           // HGMMA (wgmma.mma_async): a warpgroup's shared operands
};

/// Shared-memory atomics (ATOMS of a 32-bit integer): lanes on one word do
/// not share it as a load's lanes share a read, each is served on its own:
/// the most lanes on one bank. Measured on an H100
/// (sample_kernels/shared_atomics.cu): a lane per word 1 wavefront, 32
/// words of one bank 32, two lanes per word on 16 banks 2, four on 8 banks
/// 4, half-warps on two words of one bank 32, pairs on words sharing banks
/// two by two 4, a warp on one word indexed by t / 32: 32. Every lane on
/// one word with an index nvcc can prove the same for all (s[0]): nvcc
/// combines the warp's atomics into one lane's (1, one predicated ATOMS):
/// all lanes on one word is unknown (Unknown says why), since which of the
/// two nvcc does is not known here.
struct SharedAtomicCount {
  unsigned Wavefronts = 0;
  std::string Unknown;
};
SharedAtomicCount countSharedAtomicWavefronts(const LaneInts &ByteAddr, LaneMask Active);

/// Bytes of one row of an ldmatrix/stmatrix matrix, and lanes per matrix.
constexpr unsigned MatrixRowBytes = 16;
constexpr unsigned LanesPerMatrix = 8;

/// Wavefronts of one LDSM/STSM request of Matrices (1, 2 or 4) matrices:
/// the sum over matrices of the most distinct rows in one 16-byte bank group.
BankCount countMatrixWavefronts(const LaneInts &ByteAddr, unsigned Matrices);

/// The shared-side wavefronts of one LDGSTS request (Global: the lanes'
/// global byte addresses; Shared: their shared ones).
BankCount countAsyncCopyWavefronts(const LaneInts &Global, const LaneInts &Shared,
                                   LaneMask Active, unsigned Width, bool Bypass);

/// The global-side sectors of one LDGSTS request.
SectorCount countAsyncCopySectors(const LaneInts &Global, const LaneInts &Shared,
                                  LaneMask Active, unsigned Width, bool Bypass);

/// How the quarter-warp Q (lanes 8Q..8Q+7) of an LDGSTS.BYPASS.128 is served:
/// ByLine, every global sector read whole by two lanes that fill one
/// aligned 32-byte slot of shared memory; SplitSectors, every sector read
/// whole by two lanes whose chunks are adjacent in shared memory in the
/// global order, some pairs starting 16 bytes into a slot (a row at a
/// 16-byte boundary): such a pair's sector is moved as its two halves, in
/// two passes after the aligned pairs' (measured, docs/model.md), where the
/// quarter's chunks form at most two runs of adjacent chunks (rows; pairs
/// apart from each other measured otherwise: Unmodelled); ByLane,
/// every lane conflicting.
enum class BypassQuarter { Idle, ByLine, SplitSectors, ByLane, Unmodelled };
BypassQuarter classifyBypassQuarter(const LaneInts &Global, const LaneInts &Shared,
                                    LaneMask Active, unsigned Q);
/// Whether every quarter of the request follows a measured rule.
bool bypassModelled(const LaneInts &Global, const LaneInts &Shared, LaneMask Active);

/// Wavefronts per request (one warp's share) that Nsight Compute counts for
/// an HGMMA whose warpgroup reads Bytes of shared memory through its
/// descriptors: the bytes in 128-byte wavefronts, over the warpgroup's 4
/// warps; the ideal is the same (measured on an H100, docs/model.md "wgmma":
/// m64n8k16 .f16 reads 2048 + 256 bytes, 4.5 wavefronts per request,
/// whatever the swizzle).
double wgmmaWavefrontsPerWarp(unsigned Bytes);

/// "cp.async.cg 16 bytes (LDGSTS.BYPASS.128)", "ldmatrix .x4 (LDSM)".
std::string instructionName(InstrKind Kind, bool Store, unsigned Width, unsigned Matrices);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_INSTRUCTIONS_H
