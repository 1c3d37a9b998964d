//===- BankModel.cpp - Shared-memory wavefronts per request ---------------===//

#include "support/BankModel.h"

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
    int64_t First = floorDiv(ByteAddr[L], BankWordBytes);
    int64_t Last = floorDiv(ByteAddr[L] + BytesPerLane - 1, BankWordBytes);
    for (int64_t W = First; W <= Last; ++W)
      Words.push_back(W);
  }
  if (Words.empty())
    return 0;
  std::sort(Words.begin(), Words.end());
  Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
  unsigned PerBank[NumBanks] = {};
  unsigned Ways = 0;
  for (int64_t W : Words)
    Ways = std::max(Ways, ++PerBank[floorMod(W, NumBanks)]);
  return Ways;
}

/// True if every active lane in [Begin, End) uses the same address.
bool uniformAddress(const LaneInts &ByteAddr, LaneMask Active, unsigned Begin,
                    unsigned End) {
  bool Seen = false;
  int64_t A = 0;
  for (unsigned L = Begin; L < End; ++L) {
    if (!laneActive(Active, L))
      continue;
    if (Seen && ByteAddr[L] != A)
      return false;
    A = ByteAddr[L];
    Seen = true;
  }
  return Seen;
}

} // namespace

BankCount countWavefronts(const LaneInts &ByteAddr, LaneMask Active,
                          unsigned BytesPerLane) {
  BankCount R;
  if (!Active || BytesPerLane == 0)
    return R;
  const unsigned Phase = lanesPerPhase(BytesPerLane);
  // Wide accesses: a group of lanes that all use one address is served in a
  // single wavefront (the whole warp for 64-bit, each half-warp for 128-bit);
  // otherwise the group is split into phases of 128 bytes.
  const unsigned Group = BytesPerLane <= 4 ? WarpSize : BytesPerLane <= 8 ? 32 : 16;
  for (unsigned G = 0; G < WarpSize; G += Group) {
    if (!(Active & (Group == 32 ? AllLanes : (((1u << Group) - 1) << G))))
      continue;
    if (BytesPerLane > 4 && uniformAddress(ByteAddr, Active, G, G + Group)) {
      R.Wavefronts += 1;
      R.Ideal += 1;
      R.MaxWays = std::max(R.MaxWays, 1u);
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
