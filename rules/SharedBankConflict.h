//===- SharedBankConflict.h - coalesce-shared-bank-conflict ---------------===//
//
// A shared-memory load or store whose lanes ask one bank for several different
// words, so the request takes more wavefronts than it needs.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_SHAREDBANKCONFLICT_H
#define COALESCE_RULES_SHAREDBANKCONFLICT_H
#include "Rule.h"
COALESCE_DECLARE_RULE(SharedBankConflict)
#endif // COALESCE_RULES_SHAREDBANKCONFLICT_H
