//===- UncoalescedLocal.h - coalesce-uncoalesced-local --------------------===//
//
// A load or store of a per-thread array in local memory whose lanes use
// different offsets, so the warp touches more 32-byte sectors than when every
// lane uses the same offset. The hardware interleaves the lanes' private
// arrays word by word (model/LocalModel.h).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_UNCOALESCEDLOCAL_H
#define COALESCE_RULES_UNCOALESCEDLOCAL_H
#include "Rule.h"
COALESCE_DECLARE_RULE(UncoalescedLocal)
#endif // COALESCE_RULES_UNCOALESCEDLOCAL_H
