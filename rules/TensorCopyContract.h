//===- TensorCopyContract.h - coalesce-tma-contract -----------------------===//
//
// A TMA copy (cp.async.bulk.tensor) whose tensor map or shared destination
// breaks the contract of cuTensorMapEncodeTiled or of the copy, a shared
// load that reads a box a TMA copy swizzled without applying the swizzle,
// or a wgmma whose matrix descriptor reads a box with another swizzle or
// row stride than the copy wrote.
//
// Unlike the other rules it is about what the code reads, not what it
// costs: a finding whatever the access's cost, one per rule broken
// (AccessRecord::Contract, filled by interp/TensorCopies.cpp from the
// rules of model/TensorMap.h).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_TENSORCOPYCONTRACT_H
#define COALESCE_RULES_TENSORCOPYCONTRACT_H
#include "Rule.h"

COALESCE_RULE_CLASS(TensorCopyContract, bool claims(const AccessRecord &R) const override;
                    bool aboutCost() const override { return false; })

#endif // COALESCE_RULES_TENSORCOPYCONTRACT_H
