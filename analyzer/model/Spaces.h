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
// front-ends ask it instead of branching on the space. It also says how each
// space is reported: the verdict of an excess, what the cost is counted per,
// the JSON and SARIF key names, the picture, and the Nsight Compute columns
// verify mode reads (`coalesce-lint --list-spaces --format=json` prints it,
// and verify mode reads it from there).
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

#include <vector>

namespace coalesce {

enum class MemorySpace { Global, Shared, Constant, Local };

/// Uncoalesced, BankConflict, Serialised: the request costs more than its
/// ideal, in global (and local), shared and constant memory respectively.
enum class Verdict { Ok, Uncoalesced, BankConflict, Serialised, Unknown };

/// What a picture of one request shows (tools/output/WarpMap.h): the
/// 32-byte sectors the lanes touch, the banks of their words, the distinct
/// addresses they read; none where no picture is drawn (local memory, whose
/// lanes' offsets are each in their own copy).
enum class SpacePicture { Sectors, Banks, Addresses, None };

/// The names one space's numbers have in the outputs (docs/json-schema.md,
/// docs/github-code-scanning.md): the cost per request, its ideal, the range
/// over alignments and a launch's total in the JSON; the cost and ideal in
/// SARIF's result properties.
struct SpaceKeys {
  const char *JsonCost, *JsonIdeal, *JsonRange, *JsonTotal;
  const char *SarifCost, *SarifIdeal;
};

/// How Nsight Compute reports the space on its source page (the columns of
/// `--page source --csv`, gpu-model.md's recipe): the cost and the ideal
/// per line ("" where the page has none: the constant cache's requests are
/// kernel-level metrics, local memory has no ideal).
struct SpaceMetrics {
  const char *AddressSpace; // the "Address Space" column's value ("" for constant)
  const char *CostColumn, *IdealColumn;
};

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
  /// ptxas merges accesses of one base at adjacent offsets into one wider
  /// instruction where it can prove their alignment (interp/models/
  /// SharedMerges.cpp): modelled for shared memory, whose base it places.
  bool MergedByPtxas;
  RequestCost (*Count)(const LaneInts &ByteAddr, LaneMask Active, unsigned BytesPerLane);

  // How the space is reported --------------------------------------------------
  /// The verdict of a request that costs more than its ideal.
  Verdict Excess;
  /// The cost is counted per request (one instruction executed by one
  /// warp); the constant cache's own requests are the unit, so its cost is
  /// counted per instruction.
  bool PerInstruction;
  /// Extra numbers the space reports: 128-byte lines per request (the seeds'
  /// unit of global memory), the n-way bank conflict and the cost after a
  /// padding fix (shared memory).
  bool ReportsLines, ReportsConflictWays;
  /// Padding an array's innermost dimension is a fix to propose (shared
  /// memory: it moves the rows of a tile to other banks).
  bool PaddingFix;
  /// An exact cost states the alignment assumed of the array's base
  /// (global memory: a pointer assumed to start a cudaMalloc allocation);
  /// the other spaces' bases are placed by the compiler, or (constant
  /// memory) their cost does not depend on it.
  bool StatesBaseAlignment;
  SpacePicture Picture;
  /// What the picture's columns are: "the 32-byte sectors they touch".
  const char *PictureTargets;
  SpaceKeys Keys;
  SpaceMetrics Metrics;
};

/// Every space, in the order of MemorySpace.
const std::vector<SpaceModel> &allSpaces();

const SpaceModel &spaceModel(MemorySpace S);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_SPACES_H
