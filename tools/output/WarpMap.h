//===- WarpMap.h - Pictures of one request: lanes -> sectors or banks ------===//
//
// A warp map shows, for the representative request of an access
// (AccessRecord::Pattern), where each of the 32 lanes lands:
//
//  - global: the 32-byte sector of its first byte, numbered from the sector
//    of the first active lane:  sector = floor((BaseResidue % 32 + offset) / 32);
//  - shared: the bank of each 4-byte word it touches:
//    bank = floor((BaseResidue + offset) / 4) % 32, grouped by phase (32 lanes
//    for 4-byte and narrower accesses, 16 for 8-byte, 8 for 16-byte);
//  - constant: the address it reads, numbered in address order among the
//    distinct addresses of the request (one constant-cache request each).
//
// The units each lane touches come from the models (sectorsTouched,
// wordsTouched, constantAddresses); they are used for drawing only. The costs
// printed with a map (sectors, wavefronts, requests, ideal, n-way) are the
// record's, never recounted.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_WARPMAP_H
#define COALESCE_TOOLS_OUTPUT_WARPMAP_H

#include "report/Report.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

struct WarpMapLane {
  bool Active = false;
  int64_t Offset = 0;          // byte offset from the first active lane
  /// The units the lane touches. Sectors: relative to the first active
  /// lane's; banks: words (absolute, BaseResidue-based); addresses: the rank
  /// of its address among the request's distinct addresses.
  int64_t First = 0, Last = 0;
};

/// What a map shows each lane landing on: the unit its space's model counts.
enum class WarpMapKind { Sectors, Banks, Addresses };

struct WarpMap {
  WarpMapKind Kind = WarpMapKind::Sectors;
  unsigned BytesPerLane = 0;
  unsigned FirstLane = 0;     // the lane the offsets are relative to
  int64_t StartInSector = 0;  // global: byte of the first lane within its sector
  unsigned LanesPerPhase = 32;
  std::array<WarpMapLane, 32> Lanes{};

  /// Sectors and addresses: the distinct units touched, ascending.
  std::vector<int64_t> units() const;
  /// Shared: bank of a word.
  static int64_t bankOf(int64_t Word);
  /// Shared: distinct words in each bank for the lanes of phase P.
  std::array<unsigned, 32> wordsPerBank(unsigned P) const;
  unsigned phases() const { return 32 / LanesPerPhase; }
};

/// The map of R's representative request; nullopt when R has none (unknown
/// accesses, or no active lane).
std::optional<WarpMap> buildWarpMap(const AccessRecord &R);

/// The cost line that goes with a map, from the record:
/// "32 sectors per request (ideal 4)", "32 wavefronts per request (ideal 1): 32-way bank conflict",
/// "4 constant-cache requests per instruction (ideal 1)".
std::string warpMapCaption(const AccessRecord &R);

/// What the lanes of R's map point at, for a caption: "the 32-byte sectors
/// they touch", "the shared-memory banks of the words they touch", "the
/// distinct addresses they read".
std::string warpMapTargets(const AccessRecord &R);

/// Plain-text map for --explain, each line indented by Indent; "" without a map.
std::string renderWarpMapText(const AccessRecord &R, const std::string &Indent = "  ");

/// A self-contained <svg> element; "" without a map.
std::string renderWarpMapSvg(const AccessRecord &R);

/// Escapes &, <, >, " and ' for HTML and SVG text and attributes.
std::string escapeXml(const std::string &S);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_WARPMAP_H
