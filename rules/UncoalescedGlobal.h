//===- UncoalescedGlobal.h - coalesce-uncoalesced-global ------------------===//
//
// A global load or store whose warp touches more 32-byte sectors than the same
// bytes would need if they were contiguous and aligned.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_UNCOALESCEDGLOBAL_H
#define COALESCE_RULES_UNCOALESCEDGLOBAL_H
#include "Rule.h"
COALESCE_DECLARE_SPLIT_RULE(UncoalescedGlobal)
#endif // COALESCE_RULES_UNCOALESCEDGLOBAL_H
