//===- UncoalescedGlobal.h - coalesce-uncoalesced-global ------------------===//
//
// A global load or store whose warp touches more 32-byte sectors than the same
// bytes would need if they were contiguous and aligned.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_UNCOALESCEDGLOBAL_H
#define COALESCE_RULES_UNCOALESCEDGLOBAL_H

#include "Rule.h"

namespace coalesce {

class UncoalescedGlobal : public Rule {
public:
  const char *id() const override;
  const char *summary() const override;
  MemorySpace space() const override;
  void describe(const AccessRecord &R, const RuleOptions &Opts, Finding &F) const override;
};

} // namespace coalesce

#endif // COALESCE_RULES_UNCOALESCEDGLOBAL_H
