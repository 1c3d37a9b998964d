//===- TensorCopyContract.cpp - coalesce-tma-contract ---------------------===//

#include "TensorCopyContract.h"

namespace coalesce {

MemorySpace TensorCopyContract::space() const { return MemorySpace::Shared; }

bool TensorCopyContract::claims(const AccessRecord &R) const { return !R.Contract.empty(); }

void TensorCopyContract::describe(const AccessRecord &R, const RuleOptions &, Finding &F) const {
  // The first rule broken is the message; the others are notes.
  const ContractBreak &First = R.Contract.front();
  const bool Copy = !R.Instruction.empty() && R.Instruction.rfind("cp.async.bulk.tensor", 0) == 0;
  const bool Mma = !R.Instruction.empty() && R.Instruction.rfind("wgmma", 0) == 0;
  F.Message = (Copy  ? "TMA copy breaks its contract ("
               : Mma ? "wgmma reads a TMA box against its contract ("
                     : "shared load of a TMA box breaks its contract (") +
              First.Rule + "): " + First.Text;
  for (size_t I = 1; I < R.Contract.size(); ++I)
    F.Notes.push_back({std::nullopt, "also (" + R.Contract[I].Rule + "): " + R.Contract[I].Text});
  if (!R.Context.empty())
    F.Notes.push_back({std::nullopt, R.Context});
}

} // namespace coalesce
