//===- BankModel.cpp - Shared-memory wavefronts per request ---------------===//

#include "model/BankModel.h"

#include <algorithm>
#include <vector>

namespace coalesce {

unsigned lanesPerPhase(unsigned BytesPerLane) {
  if (BytesPerLane <= 4)
    return 32;
  if (BytesPerLane <= 8)
    return 16;
  return 8;
}

namespace {

/// Ways of one phase: the most distinct words any bank must deliver.
unsigned phaseWays(const LaneInts &ByteAddr, LaneMask Active, unsigned Begin,
                   unsigned End, unsigned BytesPerLane) {
  std::vector<int64_t> Words;
  for (unsigned L = Begin; L < End; ++L) {
    if (!laneActive(Active, L))
      continue;
    // Without forming ByteAddr + BytesPerLane, which overflows near INT64_MAX.
    const UnitSpan Span = wordsTouched(ByteAddr[L], BytesPerLane);
    for (int64_t W = Span.First; W <= Span.Last; ++W)
      Words.push_back(W);
  }
  if (Words.empty())
    return 0;
  std::sort(Words.begin(), Words.end());
  Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
  unsigned PerBank[NumBanks] = {};
  unsigned Ways = 0;
  for (int64_t W : Words)
    Ways = std::max(Ways, ++PerBank[bankOfWord(W)]);
  return Ways;
}

/// Distinct addresses used by the active lanes in [Begin, End).
unsigned distinctAddresses(const LaneInts &ByteAddr, LaneMask Active,
                           unsigned Begin, unsigned End) {
  std::vector<int64_t> A;
  for (unsigned L = Begin; L < End; ++L)
    if (laneActive(Active, L))
      A.push_back(ByteAddr[L]);
  std::sort(A.begin(), A.end());
  return static_cast<unsigned>(std::unique(A.begin(), A.end()) - A.begin());
}

} // namespace

BankCount countWavefronts(const LaneInts &ByteAddr, LaneMask Active,
                          unsigned BytesPerLane) {
  BankCount R;
  if (!Active || BytesPerLane == 0)
    return R;
  const unsigned Phase = lanesPerPhase(BytesPerLane);
  // Wide accesses are processed in phases of 128 bytes, but a group of
  // lanes (the whole warp for 64-bit accesses, each half-warp for 128-bit
  // ones) whose distinct data is at most 64 bytes is served as one, costing
  // the group's ways (measured on an H200: see BankModel.h).
  const unsigned Group = BytesPerLane <= 4 ? WarpSize : BytesPerLane <= 8 ? 32 : 16;
  for (unsigned G = 0; G < WarpSize; G += Group) {
    const LaneMask GroupMask =
        Group == 32 ? AllLanes : (((1u << Group) - 1) << G);
    if (!(Active & GroupMask))
      continue;
    bool Merge =
        BytesPerLane > 4 &&
        distinctAddresses(ByteAddr, Active, G, G + Group) * BytesPerLane <= 64;
    // A 128-bit half-warp is one wavefront only when each of its quarters
    // asks for at most two 16-byte blocks: lanes reading blocks 0-3 in
    // turn (l % 4, a register tile's row) cost a wavefront per quarter.
    for (unsigned Q = G; Merge && BytesPerLane > 8 && Q < G + Group; Q += Phase)
      Merge = distinctAddresses(ByteAddr, Active, Q, Q + Phase) <= 2;
    // ... and when its blocks are in distinct banks: blocks 64 or 128 bytes
    // apart, or two blocks in the same banks, go quarter by quarter.
    if (Merge && BytesPerLane > 8)
      Merge = phaseWays(ByteAddr, Active, G, G + Group, BytesPerLane) == 1;
    if (Merge) {
      unsigned Ways = phaseWays(ByteAddr, Active, G, G + Group, BytesPerLane);
      R.Wavefronts += Ways;
      R.MaxWays = std::max(R.MaxWays, Ways);
      R.Ideal += 1;
      continue;
    }
    for (unsigned Begin = G; Begin < G + Group; Begin += Phase) {
      unsigned Ways = phaseWays(ByteAddr, Active, Begin, Begin + Phase, BytesPerLane);
      if (!Ways)
        continue;
      R.Wavefronts += Ways;
      R.MaxWays = std::max(R.MaxWays, Ways);
      R.Ideal += 1;
    }
  }
  return R;
}

} // namespace coalesce
