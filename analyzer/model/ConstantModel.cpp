//===- ConstantModel.cpp - Constant-cache requests per constant load ------===//

#include "model/ConstantModel.h"

#include <algorithm>

namespace coalesce {

std::vector<int64_t> constantAddresses(const LaneInts &ByteAddr, LaneMask Active) {
  std::vector<int64_t> A;
  A.reserve(WarpSize);
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L))
      A.push_back(ByteAddr[L]);
  std::sort(A.begin(), A.end());
  A.erase(std::unique(A.begin(), A.end()), A.end());
  return A;
}

ConstantCount countConstantRequests(const LaneInts &ByteAddr, LaneMask Active,
                                    unsigned BytesPerLane) {
  ConstantCount C;
  if (!Active || BytesPerLane == 0)
    return C;
  C.Requests = static_cast<unsigned>(constantAddresses(ByteAddr, Active).size());
  C.Ideal = 1;
  return C;
}

} // namespace coalesce
