//===- BankModel.h - Shared-memory wavefronts per request -----------------===//
//
// Design note: how Nsight Compute counts a shared load or store.
//
// Shared memory has 32 banks of 4 bytes: the 4-byte word at byte address a
// lives in bank (a / 4) % 32. A request is served in *wavefronts*; in one
// wavefront each bank delivers one word, to any number of lanes (lanes reading
// the same word are served together: broadcast / multicast). So for one phase
// of lanes,
//
//     ways = max over banks of the number of distinct words requested in it.
//
// Wide accesses are first split into phases: 64-bit accesses are processed per
// half-warp (lanes 0-15, 16-31) and 128-bit accesses per quarter-warp (8 lanes),
// so that each phase asks for at most 128 bytes. The request costs the sum of
// the ways of its phases that have an active lane. The ideal is the number of
// such phases (1 for 32-bit and narrower, 2 for 64-bit, 4 for 128-bit with a
// full warp); "n-way conflict" = wavefronts / ideal. 8- and 16-bit accesses
// touch part of one word; lanes that share a word share it.
// A group of lanes whose distinct data is at most 64 bytes is served as one:
// the whole warp for 64-bit accesses, each half-warp for 128-bit ones, costing
// the group's ways. So an LDS.64 that all lanes aim at one address costs 1
// wavefront and an LDS.128 2; an LDS.64 reading 8 distinct doubles costs 1,
// one reading 11 costs 2. A 128-bit half-warp merges only when each quarter
// asks for at most two 16-byte blocks (lanes reading blocks 0-3 in turn, as
// a register tile's row of SGEMM_CUDA's warp tiling does, cost 4) and its
// blocks are in distinct banks (blocks 64 bytes apart cost 4, ideal 4; two
// blocks 128 bytes apart 8, ideal 4: sample_kernels/wide_blocks.cu). Measured
// on an H200 (tests/verify/fixtures): the rule fits all 19 64- and 128-bit
// cases of sample_kernels/shared_wide.cu, of the probe and of
// sample_kernels/merged_rows.cu.
//
// Example: float tile[32][32]; tile[threadIdx.x][c] -> lane L reads word
// 32L + c, all in bank c: 32 distinct words in one bank, 32 wavefronts
// (32-way conflict). With tile[32][33] lane L reads word 33L + c, bank
// (L + c) % 32: one word per bank, 1 wavefront.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_SUPPORT_BANKMODEL_H
#define COALESCE_ANALYZER_SUPPORT_BANKMODEL_H

#include "model/Poly.h"

namespace coalesce {

constexpr unsigned NumBanks = 32;
constexpr int64_t BankWordBytes = 4;
constexpr int64_t BankPeriodBytes = NumBanks * BankWordBytes; // 128

/// The 4-byte words the bytes [Byte, Byte + Width) of one lane touch.
inline UnitSpan wordsTouched(int64_t Byte, unsigned Width) {
  return unitsTouched(Byte, Width, BankWordBytes);
}
/// The bank of a 4-byte word, and of the word holding a byte.
inline unsigned bankOfWord(int64_t Word) { return unsigned(floorMod(Word, NumBanks)); }
inline unsigned bankOfByte(int64_t Byte) { return bankOfWord(floorDiv(Byte, BankWordBytes)); }

struct BankCount {
  unsigned Wavefronts = 0;
  unsigned Ideal = 0;
  /// The most distinct words any one bank has to deliver in one phase.
  unsigned MaxWays = 0;
};

/// Lanes per phase for an access of BytesPerLane bytes (32, 16 or 8).
unsigned lanesPerPhase(unsigned BytesPerLane);

/// Counts the wavefronts of one shared-memory request.
BankCount countWavefronts(const LaneInts &ByteAddr, LaneMask Active,
                          unsigned BytesPerLane);

} // namespace coalesce

#endif // COALESCE_ANALYZER_SUPPORT_BANKMODEL_H
