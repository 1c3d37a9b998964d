//===- ConstantSerialisation.h - coalesce-constant-serialisation ----------===//
//
// A __constant__ memory read whose lanes read different addresses, so the
// constant cache serves it in one request per distinct address, one after
// another, instead of one request for the whole warp.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_CONSTANTSERIALISATION_H
#define COALESCE_RULES_CONSTANTSERIALISATION_H
#include "Rule.h"
COALESCE_DECLARE_RULE(ConstantSerialisation)
#endif // COALESCE_RULES_CONSTANTSERIALISATION_H
