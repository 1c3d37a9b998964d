//===- Spaces.cpp - The memory spaces and the cost model of each ----------===//

#include "model/Spaces.h"

#include "model/BankModel.h"
#include "model/ConstantModel.h"
#include "model/LocalModel.h"
#include "model/SectorModel.h"

#include <iterator>

namespace coalesce {

namespace {

/// The widest global and shared instructions: LDG.128/STG.128, LDS.128/STS.128.
constexpr unsigned WidestGlobalOrShared = 16;

RequestCost globalCost(const LaneInts &A, LaneMask Active, unsigned Width) {
  SectorCount S = countSectors(A, Active, Width);
  return {S.Sectors, S.Ideal};
}

RequestCost sharedCost(const LaneInts &A, LaneMask Active, unsigned Width) {
  BankCount B = countWavefronts(A, Active, Width);
  return {B.Wavefronts, B.Ideal};
}

RequestCost localCost(const LaneInts &A, LaneMask Active, unsigned Width) {
  LocalCount C = countLocalSectors(A, Active, Width);
  return {C.Sectors, C.Ideal};
}

RequestCost constantCost(const LaneInts &A, LaneMask Active, unsigned Width) {
  ConstantCount C = countConstantRequests(A, Active, Width);
  return {C.Requests, C.Ideal};
}

// Constant-initialized (an aggregate of constants): usable from any
// static initializer.
const SpaceModel Models[] = {
    {MemorySpace::Global, "global", "sector", SectorBytes, WidestGlobalOrShared,
     /*PlacedAlignment=*/1, /*MergedByPtxas=*/false, globalCost, Verdict::Uncoalesced, /*PerInstruction=*/false,
     /*ReportsLines=*/true, /*ReportsConflictWays=*/false, /*PaddingFix=*/false,
     /*StatesBaseAlignment=*/true, SpacePicture::Sectors,
     "the 32-byte sectors they touch",
     {"sectors_per_request", "ideal_sectors_per_request", "sectors_range", "sectors",
      "sectorsPerRequest", "idealSectorsPerRequest"},
     {"global", "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal"}},
    {MemorySpace::Shared, "shared", "wavefront", BankPeriodBytes, WidestGlobalOrShared,
     /*PlacedAlignment=*/16, /*MergedByPtxas=*/true, sharedCost, Verdict::BankConflict, /*PerInstruction=*/false,
     /*ReportsLines=*/false, /*ReportsConflictWays=*/true, /*PaddingFix=*/true,
     /*StatesBaseAlignment=*/false, SpacePicture::Banks,
     "the shared-memory banks of the words they touch",
     {"wavefronts_per_request", "ideal_wavefronts", "wavefronts_range", "wavefronts",
      "wavefrontsPerRequest", "idealWavefrontsPerRequest"},
     {"shared", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"}},
    {MemorySpace::Constant, "constant", "constant-cache request", 1, WidestConstantLoad,
     /*PlacedAlignment=*/1, /*MergedByPtxas=*/false, constantCost, Verdict::Serialised, /*PerInstruction=*/true,
     /*ReportsLines=*/false, /*ReportsConflictWays=*/false, /*PaddingFix=*/false,
     /*StatesBaseAlignment=*/false, SpacePicture::Addresses,
     "the distinct addresses they read",
     {"constant_cache_requests_per_instruction", "ideal_constant_cache_requests",
      "constant_cache_requests_range", "constant_cache_requests",
      "constantCacheRequestsPerInstruction", "idealConstantCacheRequests"},
     {"", "", ""}},
    // The compiler lays out a thread's local memory and aligns arrays to 16
    // bytes (it stores a float array filled in a loop with STL.128). Its
    // numbers have global memory's names: sectors.
    {MemorySpace::Local, "local", "sector", LocalWordBytes, WidestGlobalOrShared,
     /*PlacedAlignment=*/16, /*MergedByPtxas=*/false, localCost, Verdict::Uncoalesced, /*PerInstruction=*/false,
     /*ReportsLines=*/false, /*ReportsConflictWays=*/false, /*PaddingFix=*/false,
     /*StatesBaseAlignment=*/false, SpacePicture::None,
     "the 32-byte sectors of local memory they touch",
     {"sectors_per_request", "ideal_sectors_per_request", "sectors_range", "sectors",
      "sectorsPerRequest", "idealSectorsPerRequest"},
     {"local", "L2 Theoretical Sectors Local", ""}},
};

} // namespace

const SpaceModel &spaceModel(MemorySpace S) {
  for (const SpaceModel &M : Models)
    if (M.Space == S)
      return M;
  return Models[0];
}

const std::vector<SpaceModel> &allSpaces() {
  static const std::vector<SpaceModel> All(std::begin(Models), std::end(Models));
  return All;
}

} // namespace coalesce
