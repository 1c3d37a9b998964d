//===- WarpModel.cpp - Which threads form a warp --------------------------===//

#include "model/WarpModel.h"

#include <sstream>

namespace coalesce {

bool Dim3::operator<(const Dim3 &O) const {
  if (X != O.X)
    return X < O.X;
  if (Y != O.Y)
    return Y < O.Y;
  return Z < O.Z;
}

std::string Dim3::str() const {
  std::ostringstream OS;
  OS << "(" << X << ", " << Y << ", " << Z << ")";
  return OS.str();
}

std::string validateBlockShape(const Dim3 &Block) {
  if (Block.X < 1 || Block.Y < 1 || Block.Z < 1)
    return "block dimensions must be at least 1";
  if (Block.Z > MaxBlockDimZ)
    return "blockDim.z must be at most 64";
  if (Block.X > MaxThreadsPerBlock || Block.Y > MaxThreadsPerBlock ||
      Block.volume() > MaxThreadsPerBlock)
    return "a block holds at most 1024 threads";
  return "";
}

unsigned warpsPerBlock(const Dim3 &Block) {
  return static_cast<unsigned>((Block.volume() + WarpSize - 1) / WarpSize);
}

std::optional<PartialWarps> partialWarps(int64_t X, int64_t Y, int64_t Z) {
  (void)Z; // the slowest dimension never decides a warp's threads alone
  if (X > 0 && Y > 0 && (X * Y) % WarpSize == 0)
    return PartialWarps{Dim3{X, Y, 1}, 2};
  if (X > 0 && X % WarpSize == 0)
    return PartialWarps{Dim3{X, 1, 1}, 1};
  return std::nullopt;
}

WarpThreads threadsOfWarp(const Dim3 &Block, unsigned Warp, bool YFirst) {
  WarpThreads W;
  const int64_t N = Block.volume();
  for (unsigned L = 0; L < WarpSize; ++L) {
    int64_t Tid = static_cast<int64_t>(Warp) * WarpSize + L;
    if (Tid >= N) {
      W.Tx[L] = W.Ty[L] = W.Tz[L] = 0;
      continue;
    }
    W.Exists |= 1u << L;
    if (YFirst) {
      W.Ty[L] = Tid % Block.Y;
      W.Tx[L] = (Tid / Block.Y) % Block.X;
    } else {
      W.Tx[L] = Tid % Block.X;
      W.Ty[L] = (Tid / Block.X) % Block.Y;
    }
    W.Tz[L] = Tid / (Block.X * Block.Y);
  }
  return W;
}

} // namespace coalesce
