//===- Spaces.h - The memory spaces and the cost model of each ------------===//
//
// Design note: a memory access is made to one of the GPU's memory spaces, and
// each space has one cost model: what one warp-level request (one load or
// store instruction executed by one warp) costs at given lane byte addresses,
// counted in the unit Nsight Compute reports for that space, and its ideal.
//
//   space     unit                     model            period  widest    placed
//   global    32-byte sectors          SectorModel.h    32      16 bytes  -
//   shared    wavefronts               BankModel.h      128     16 bytes  16 bytes
//   constant  constant-cache requests  ConstantModel.h  1       8 bytes   -
//   local     32-byte sectors          LocalModel.h     4       16 bytes  16 bytes
//
// The period is what the cost of a request depends on its addresses modulo
// (sector boundaries; the bank period of 32 banks x 4 bytes; nothing for
// constant memory, where only the distinct addresses count); the alignment
// analysis (Alignment.h) averages over it. The widest instruction bounds the
// pieces an aggregate access is split into; the placed alignment is what
// the compiler knows of the space's base when it chooses those pieces
// (measured on an H200: sample_kernels/struct_copies.cu). This table is the one place
// that says these per space: the cost stage, the interpreter and the
// front-ends ask it instead of branching on the space.
//
// Local memory's addresses are each lane's offsets in its private space
// (the hardware interleaves the lanes by 4-byte words, so only the offset
// modulo a word matters: period 4). Parameter memory is not a space here:
// kernel parameters are constant-bank operands, not requests.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_SPACES_H
#define COALESCE_ANALYZER_MODEL_SPACES_H

#include "model/Poly.h"

namespace coalesce {

enum class MemorySpace { Global, Shared, Constant, Local };

/// The cost of one request in its space's unit, and the ideal.
struct RequestCost {
  unsigned Cost = 0;
  unsigned Ideal = 0;
};

struct SpaceModel {
  MemorySpace Space;
  const char *Name; // "global", "shared", "constant", "local"
  /// The cost's unit, singular: "sector", "wavefront", "constant-cache request".
  const char *Unit;
  int64_t Period;
  unsigned WidestAccess;
  /// The alignment the compiler knows the space's addresses to start at:
  /// it places shared memory itself and gives every array 16-byte
  /// alignment, so a struct copy there uses instructions as wide as the
  /// element's offset allows (STS.128 for a 32-byte struct of doubles, whose
  /// own alignment is 8). Global and constant addresses come from pointers
  /// and definitions the compiler keeps at their type's alignment (a
  /// __device__ array of such structs is copied with LDG.64): 1.
  int64_t PlacedAlignment;
  RequestCost (*Count)(const LaneInts &ByteAddr, LaneMask Active, unsigned BytesPerLane);
};

const SpaceModel &spaceModel(MemorySpace S);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_SPACES_H
