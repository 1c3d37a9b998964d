//===- MappingFix.h - Fixes of a kernel's thread mapping, as reported -----===//
//
// A global access whose lanes walk down a column can often be made
// contiguous by changing which thread handles which element. The analysis
// proves such a change by running the kernel again with it
// (cost/ThreadSwap.h) and re-costing every access, so each fix carries the
// numbers after for the access it is offered on and for every other access
// of the kernel it changes. No clang types here.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_MAPPINGFIX_H
#define COALESCE_ANALYZER_REPORT_MAPPINGFIX_H

#include "model/Spaces.h"
#include "model/WarpModel.h"
#include "report/SourcePos.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// One access of the kernel, before and after a change of the mapping:
/// its cost per request in its space's unit (sectors, wavefronts) and its
/// requests per warp (0 where not known: loops of unknown trip count).
struct CostChange {
  SourcePos Pos;
  MemorySpace Space = MemorySpace::Global;
  bool Store = false;
  std::string Array;
  double Before = 0, After = 0;
  double IdealBefore = 0, IdealAfter = 0;
  double RequestsBefore = 0, RequestsAfter = 0;
  /// Where the cost depends on a run-time size: the case Before and After
  /// are for ("for every N >= 8"); the comparison covered every size.
  std::string When;
};

/// Exchanging the roles of x and y: threadIdx.x <-> threadIdx.y (and
/// blockIdx, blockDim, gridDim) in the kernel and the device functions it
/// calls, and the x and y of the block and grid at the launch. The same
/// threads run the same code; the hardware forms warps with the former
/// threadIdx.y fastest.
struct SwapLaunch {
  std::vector<SourcePos> Sites;
  Dim3 Block;               // before; after, X and Y exchanged
  std::optional<Dim3> Grid; // likewise, where known
};
struct ThreadSwapFix {
  /// Every launch of the kernel: the kernel's code is the same for all,
  /// so the exchange is offered only where it holds for each.
  std::vector<SwapLaunch> Launches;
  /// This access after (its own before is the record's answer).
  double CostAfter = 0, IdealAfter = 0;
  std::string When; // CostChange::When, for this access
  /// Every other access of the kernel whose cost changes (none gets worse:
  /// the fix is not offered otherwise), and how many keep theirs.
  std::vector<CostChange> Others;
  unsigned Unchanged = 0;
};

/// Staging through a shared tile: where exchanging x and y would make
/// this access contiguous but another access of the same statement
/// (the classic transpose: `out[x * H + y] = in[y * W + x]`) worse, the
/// block reads the other side as it does now into a tile, synchronises,
/// and this access takes its element from the tile with threadIdx.x and
/// threadIdx.y exchanged in its index.
struct StagedTransposeFix {
  CostChange Partner;       // the other side of the assignment: keeps its cost
  double CostAfter = 0, IdealAfter = 0; // this access, rewritten
  std::string ElementType;
  unsigned ElementBytes = 0;
  int64_t Tile = 0;         // the tile is Tile x (Tile + Pad) elements
  int64_t Pad = 0;
  /// Wavefronts per request of the tile's accesses along a row
  /// (tile[threadIdx.y][threadIdx.x]) and down a column
  /// (tile[threadIdx.x][threadIdx.y]) with the padding, and down a column
  /// without it. A rewritten store reads the tile by column; a rewritten
  /// load writes it by column.
  double RowWavefronts = 0, ColumnWavefronts = 0, ColumnUnpadded = 0;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_MAPPINGFIX_H
