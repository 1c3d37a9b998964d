//===- WarpModel.h - Which threads form a warp ----------------------------===//
//
// Design note: the hardware forms warps from the linear thread id
//
//     tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y
//
// in consecutive groups of 32: warp w holds tid 32w .. 32w+31. With
// blockDim.x = 32 a warp is one row (one threadIdx.y); with blockDim.x = 16 it
// spans two rows; with blockDim.x = 48 warps straddle rows at different
// places, so different warps of one block can have different access patterns.
// A block whose size is not a multiple of 32 has a last warp with fewer lanes.
// Nsight Compute averages over every warp that executes an instruction, so the
// analysis runs once per warp of the block and averages.
//
// Example: blockDim = (16, 8, 1), warp 1 -> lanes 0..15 are (tx 0..15, ty 2),
// lanes 16..31 are (tx 0..15, ty 3).
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_SUPPORT_WARPMODEL_H
#define COALESCE_ANALYZER_SUPPORT_WARPMODEL_H

#include "model/Poly.h"

#include <optional>
#include <string>

namespace coalesce {

struct Dim3 {
  int64_t X = 1, Y = 1, Z = 1;
  int64_t volume() const { return X * Y * Z; }
  bool operator==(const Dim3 &O) const { return X == O.X && Y == O.Y && Z == O.Z; }
  bool operator!=(const Dim3 &O) const { return !(*this == O); }
  bool operator<(const Dim3 &O) const;
  std::string str() const; // "(32, 8, 1)"
};

/// Hardware limits of a thread block (all CUDA GPUs since compute capability 2.0).
constexpr int64_t MaxThreadsPerBlock = 1024;
constexpr int64_t MaxBlockDimZ = 64;

/// Empty string if the shape is a valid block shape, else why not.
std::string validateBlockShape(const Dim3 &Block);

unsigned warpsPerBlock(const Dim3 &Block);

/// A block shape known in part (a dimension of 0 is not known). Warps are
/// formed x fastest, so when the known leading dimensions hold a multiple of
/// 32 threads (x, or x * y), every warp lies within one row (one y and z) or
/// one z-slice, and which threads it holds does not depend on the unknown
/// dimensions: Sub is the block of those leading dimensions (the others 1),
/// Axes how many they are (1: x; 2: x and y). Example: (4, 8, ?) -> Sub
/// (4, 8, 1), Axes 2; (64, ?, ?) -> (64, 1, 1), Axes 1; (4, ?, 1) -> none:
/// a warp spans 8 rows of y if there are 8, or more z-slices if not.
struct PartialWarps {
  Dim3 Sub;
  unsigned Axes = 0;
};
std::optional<PartialWarps> partialWarps(int64_t X, int64_t Y, int64_t Z);

struct WarpThreads {
  LaneInts Tx, Ty, Tz;
  LaneMask Exists = 0; // lanes that hold a thread (last warp may be partial)
};

/// The thread indices of the lanes of warp `Warp` of a block of shape Block.
/// YFirst: the warps the same threads would form if the kernel exchanged the
/// roles of x and y (threadIdx, blockIdx, blockDim, gridDim) and its launch
/// exchanged the block's and grid's x and y: the hardware then counts the
/// kernel's threadIdx.y fastest. Example: Block (4, 8, 1), YFirst, warp 0 ->
/// lanes 0..7 are (tx 0, ty 0..7), lanes 8..15 (tx 1, ty 0..7), ...
/// (cost/ThreadSwap.h).
WarpThreads threadsOfWarp(const Dim3 &Block, unsigned Warp, bool YFirst = false);

} // namespace coalesce

#endif // COALESCE_ANALYZER_SUPPORT_WARPMODEL_H
