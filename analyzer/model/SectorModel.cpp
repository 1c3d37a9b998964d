//===- SectorModel.cpp - 32-byte sectors per global request ---------------===//

#include "model/SectorModel.h"

#include <algorithm>
#include <vector>

namespace coalesce {

static unsigned countDistinct(std::vector<int64_t> &V) {
  std::sort(V.begin(), V.end());
  return static_cast<unsigned>(std::unique(V.begin(), V.end()) - V.begin());
}

unsigned idealSectors(unsigned Lanes, unsigned BytesPerLane) {
  uint64_t Bytes = static_cast<uint64_t>(Lanes) * BytesPerLane;
  return static_cast<unsigned>((Bytes + SectorBytes - 1) / SectorBytes);
}

SectorCount countSectors(const LaneInts &ByteAddr, LaneMask Active,
                         unsigned BytesPerLane) {
  SectorCount R;
  if (!Active || BytesPerLane == 0)
    return R;
  std::vector<int64_t> Sectors, Lines;
  Sectors.reserve(WarpSize * 2);
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    // Without forming ByteAddr + BytesPerLane, which overflows near INT64_MAX.
    const UnitSpan Span = sectorsTouched(ByteAddr[L], BytesPerLane);
    for (int64_t S = Span.First; S <= Span.Last; ++S) {
      Sectors.push_back(S);
      Lines.push_back(floorDiv(S, CacheLineBytes / SectorBytes));
    }
  }
  R.Sectors = countDistinct(Sectors);
  R.Lines = countDistinct(Lines);
  // The ideal (`L2 Theoretical Sectors Global Ideal`): the bytes the active
  // lanes ask for, packed (lanes x width, duplicates included), but never
  // more than the sectors the request touches. So a broadcast of one float is
  // 1 sector, ideal 1, while two far addresses read by 16 lanes each are 2
  // sectors, ideal 2 (measured on an H200: sample_kernels/ideal_sectors.cu).
  unsigned Lanes = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes += laneActive(Active, L);
  R.Ideal = std::min(R.Sectors, idealSectors(Lanes, BytesPerLane));
  return R;
}

} // namespace coalesce
