//===- SectorModel.h - 32-byte sectors per global request -----------------===//
//
// Design note: how Nsight Compute counts a global load or store.
//
// One warp-level LDG/STG executed by one warp is one *request*. The memory
// system serves it in 32-byte aligned *sectors*; the cost of the request is
// the number of distinct sectors covered by the bytes that the *active* lanes
// touch (`L2 Theoretical Sectors Global`). Lanes that touch the same sector,
// or the same bytes, share it. The *ideal* (`... Global Ideal`) is the number
// of sectors the bytes the active lanes ask for would need if they were
// contiguous and 32-byte aligned, ceil(active lanes x width / 32), capped at
// the sectors the request touches. Duplicates count in the first term: all 32
// lanes loading one float is 1 sector with ideal 1 (the cap), but 16 lanes on
// each of two far floats is 2 sectors with ideal 2, not 1 (measured on an
// H200, sample_kernels/ideal_sectors.cu).
//
// Assumptions: warp of 32 lanes; sectors of 32 bytes; a lane's access of W
// bytes covers [addr, addr + W). Addresses here are absolute in the sense that
// only their residue modulo 32 relative to a sector boundary matters; the
// caller supplies the alignment of the base (see Alignment.h).
//
// Example: 32 lanes loading floats at stride 2 (lane L -> byte 8L) cover bytes
// 0..251: sectors 0..7, so 8 sectors per request, ideal 4.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_SUPPORT_SECTORMODEL_H
#define COALESCE_ANALYZER_SUPPORT_SECTORMODEL_H

#include "model/Poly.h"

namespace coalesce {

constexpr int64_t SectorBytes = 32;
constexpr int64_t CacheLineBytes = 128;

/// The sectors the bytes [Byte, Byte + Width) of one lane touch.
inline UnitSpan sectorsTouched(int64_t Byte, unsigned Width) {
  return unitsTouched(Byte, Width, SectorBytes);
}

struct SectorCount {
  unsigned Sectors = 0;
  unsigned Ideal = 0;
  unsigned Lines = 0; // distinct 128-byte lines (the seeds' "transactions")
};

/// Counts the sectors touched by the active lanes of one request.
SectorCount countSectors(const LaneInts &ByteAddr, LaneMask Active,
                         unsigned BytesPerLane);

/// Ideal sectors for Lanes active lanes of BytesPerLane distinct bytes each.
unsigned idealSectors(unsigned Lanes, unsigned BytesPerLane);

} // namespace coalesce

#endif // COALESCE_ANALYZER_SUPPORT_SECTORMODEL_H
