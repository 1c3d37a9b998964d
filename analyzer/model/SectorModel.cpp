//===- SectorModel.cpp - 32-byte sectors per global request ---------------===//

#include "model/SectorModel.h"

#include <algorithm>
#include <climits>
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
  // The ideal packs the distinct bytes the lanes touch (a broadcast load of
  // one float is 1 sector, ideal 1).
  // (In 128 bits: a range may end past INT64_MAX.)
  std::vector<std::pair<__int128, __int128>> Ranges;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L))
      Ranges.emplace_back(ByteAddr[L], __int128(ByteAddr[L]) + BytesPerLane);
  std::sort(Ranges.begin(), Ranges.end());
  int64_t Bytes = 0;
  __int128 End = INT64_MIN;
  for (auto &Rg : Ranges) {
    __int128 Begin = std::max(Rg.first, End);
    if (Rg.second > Begin)
      Bytes += static_cast<int64_t>(Rg.second - Begin);
    End = std::max(End, Rg.second);
  }
  R.Ideal = static_cast<unsigned>((Bytes + SectorBytes - 1) / SectorBytes);
  return R;
}

} // namespace coalesce
