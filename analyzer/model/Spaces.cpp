//===- Spaces.cpp - The memory spaces and the cost model of each ----------===//

#include "model/Spaces.h"

#include "model/BankModel.h"
#include "model/ConstantModel.h"
#include "model/LocalModel.h"
#include "model/SectorModel.h"

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

const SpaceModel Models[] = {
    {MemorySpace::Global, "global", "sector", SectorBytes, WidestGlobalOrShared,
     /*PlacedAlignment=*/1, globalCost},
    {MemorySpace::Shared, "shared", "wavefront", BankPeriodBytes, WidestGlobalOrShared,
     /*PlacedAlignment=*/16, sharedCost},
    {MemorySpace::Constant, "constant", "constant-cache request", 1, WidestConstantLoad,
     /*PlacedAlignment=*/1, constantCost},
    // The compiler lays out a thread's local memory and aligns arrays to 16
    // bytes (it stores a float array filled in a loop with STL.128).
    {MemorySpace::Local, "local", "sector", LocalWordBytes, WidestGlobalOrShared,
     /*PlacedAlignment=*/16, localCost},
};

} // namespace

const SpaceModel &spaceModel(MemorySpace S) {
  for (const SpaceModel &M : Models)
    if (M.Space == S)
      return M;
  return Models[0];
}

} // namespace coalesce
