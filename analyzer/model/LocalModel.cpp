//===- LocalModel.cpp - Sectors of a local-memory request -----------------===//

#include "model/LocalModel.h"

#include "model/SectorModel.h"

#include <algorithm>
#include <vector>

namespace coalesce {

namespace {

using Int128 = __int128;

/// The sector of byte B of lane L, in 128 bits (offsets may be anywhere in
/// int64_t: the word times 128 may not fit).
Int128 sectorOf(Int128 B, unsigned L) {
  auto FloorDiv = [](Int128 A, Int128 D) { return A / D - ((A % D != 0) && (A < 0)); };
  const Int128 Word = FloorDiv(B, LocalWordBytes);
  const Int128 Physical =
      Word * LocalLineBytes + Int128(L) * LocalWordBytes + (B - Word * LocalWordBytes);
  return FloorDiv(Physical, SectorBytes);
}

/// The distinct sectors of the active lanes when lane L's bytes start at
/// Start(L): one sector per word a lane's bytes fall in.
template <class F>
unsigned distinctSectors(LaneMask Active, unsigned BytesPerLane, F Start) {
  std::vector<Int128> S;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    const Int128 First = Start(L);
    const Int128 Last = First + BytesPerLane - 1;
    for (Int128 B = First; B <= Last; B += LocalWordBytes)
      S.push_back(sectorOf(B, L));
    S.push_back(sectorOf(Last, L));
  }
  std::sort(S.begin(), S.end());
  return static_cast<unsigned>(std::unique(S.begin(), S.end()) - S.begin());
}

} // namespace

int64_t localSector(int64_t B, unsigned L) { return static_cast<int64_t>(sectorOf(B, L)); }

LocalCount countLocalSectors(const LaneInts &Offset, LaneMask Active, unsigned BytesPerLane) {
  LocalCount C;
  if (!Active || BytesPerLane == 0)
    return C;
  C.Sectors = distinctSectors(Active, BytesPerLane, [&](unsigned L) { return Offset[L]; });
  const int64_t First = Offset[firstLane(Active)];
  // At most the sectors touched (as global memory's ideal): lanes at
  // different alignments may touch fewer words than the first lane's alone.
  C.Ideal = std::min(C.Sectors,
                     distinctSectors(Active, BytesPerLane, [&](unsigned) { return First; }));
  return C;
}

} // namespace coalesce
