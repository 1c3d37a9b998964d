//===- ThreadSwap.h - Proving a change of the thread mapping --------------===//
//
// Design note. A global access whose lanes walk down a column
// (`a[x * W + y]` with x from threadIdx.x) is contiguous if the kernel lets
// threadIdx.y play x's part and the other way round: exchange .x and .y of
// threadIdx, blockIdx, blockDim and gridDim in the kernel, and the x and y of
// the block and the grid at its launch. Every thread then runs the code the
// thread with the other two indices ran, so the kernel computes the same
// values (unless it depends on which threads share a warp: shuffles, votes,
// warp-synchronous memory, ast/ThreadRoles.h); what changes is which threads
// the hardware puts in one warp: the former threadIdx.y fastest. So the
// analysis proves the exchange by walking the same launch again with warps
// formed that way (KernelRun::WarpsYFirst, model/WarpModel.h) and comparing
// every access of the kernel, global and shared: it is offered only where
// no access costs more after (per warp: cost per request x requests) and
// the access it is offered on costs less.
//
// Where it would make another access worse, and that access is the other
// side of this one's assignment (`out[x * H + y] = in[y * W + x]`), the
// classic fix is a staged transpose: read `in` as now into a shared tile,
// synchronise, and write `out` with threadIdx.x and threadIdx.y exchanged in
// its index, taking tile[threadIdx.x][threadIdx.y]. With a square block the
// rewritten access evaluated with the usual warps is exactly the original
// one evaluated with warps formed y first, so its cost after is the second
// walk's; the tile's wavefronts come from the bank model, with the smallest
// padding that makes its column read conflict-free.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_COST_THREADSWAP_H
#define COALESCE_ANALYZER_COST_THREADSWAP_H

#include "report/Report.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace coalesce {

/// Whether walking the launch again with x and y exchanged can find a fix:
/// a known block with x and y above 1, and a global access with a number
/// that costs more than its ideal.
bool swapWorthTrying(const LaunchConfig &C, const std::vector<AccessRecord> &Recs);

/// What the source says (ast/ThreadRoles.h).
struct SwapFacts {
  /// Why exchanging x and y could change the kernel's results, or "".
  std::string WarpSynchronous;
  /// (written, read) accesses of one assignment, by SourcePos::RawLoc.
  std::vector<std::pair<uint64_t, uint64_t>> Assignments;
};

/// Compares the records of a launch (Before) with those of the same launch
/// walked with warps formed y first (After), and attaches to Before's
/// global accesses that cost more than their ideal the exchange, or the
/// staged transpose, or why neither is offered. Returns why the exchange
/// does not hold for this launch ("" where it makes no access worse): the
/// kernel's code is the same for all its launches, so the exchange is
/// offered only where it holds for each (reconcileThreadSwaps).
std::string attachThreadSwap(std::vector<AccessRecord> &Before,
                             const std::vector<AccessRecord> &After, const SwapFacts &Facts);

/// One kernel's launches after attachThreadSwap: Verdicts[i] is the
/// verdict for the records of Groups[i] (launches with the same results
/// share a group; a launch whose block is not known has no walk: its
/// verdict says so). Where any launch's verdict is not empty the exchange
/// is withdrawn from every record (the note says which launch it would
/// hurt); else each offer lists every launch of the kernel.
void reconcileThreadSwaps(std::vector<std::vector<AccessRecord>> &Groups,
                          const std::vector<std::pair<size_t, std::string>> &Verdicts);

/// The shared tile of a staged transpose: Tile x (Tile + Pad) elements of
/// ElementBytes, accessed by a (Tile, Tile) block along rows (tile[ty][tx])
/// and down columns (tile[tx][ty]), warps formed as usual; wavefronts per
/// request averaged over the block's warps, for the smallest Pad (in
/// elements) that makes both cost their ideal (else the cheapest), and the
/// column access without padding.
struct TileCost {
  int64_t Pad = 0;
  double Row = 0, Column = 0, ColumnUnpadded = 0;
};
TileCost stagedTileCost(int64_t Tile, unsigned ElementBytes);

} // namespace coalesce

#endif // COALESCE_ANALYZER_COST_THREADSWAP_H
