//===- LocalModel.cpp - Sectors of a local-memory request -----------------===//

#include "model/LocalModel.h"

#include "model/SectorModel.h"

#include <algorithm>
#include <vector>

namespace coalesce {

namespace {

/// The distinct sectors of the active lanes when lane L's bytes start at
/// Start(L).
template <class F>
unsigned distinctSectors(LaneMask Active, unsigned BytesPerLane, F Start) {
  std::vector<int64_t> S;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    const int64_t B0 = Start(L);
    // One sector per word: words of a lane are whole 4-byte units.
    for (int64_t W = floorDiv(B0, LocalWordBytes);
         W <= floorDiv(B0 + int64_t(BytesPerLane) - 1, LocalWordBytes); ++W)
      S.push_back(localSector(W * LocalWordBytes, L));
  }
  std::sort(S.begin(), S.end());
  return static_cast<unsigned>(std::unique(S.begin(), S.end()) - S.begin());
}

} // namespace

int64_t localSector(int64_t B, unsigned L) {
  const int64_t Physical = floorDiv(B, LocalWordBytes) * LocalLineBytes +
                           int64_t(L) * LocalWordBytes + floorMod(B, LocalWordBytes);
  return floorDiv(Physical, SectorBytes);
}

LocalCount countLocalSectors(const LaneInts &Offset, LaneMask Active, unsigned BytesPerLane) {
  LocalCount C;
  if (!Active || BytesPerLane == 0)
    return C;
  C.Sectors = distinctSectors(Active, BytesPerLane, [&](unsigned L) { return Offset[L]; });
  const int64_t First = Offset[firstLane(Active)];
  C.Ideal = distinctSectors(Active, BytesPerLane, [&](unsigned) { return First; });
  return C;
}

} // namespace coalesce
