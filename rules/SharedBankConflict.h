//===- SharedBankConflict.h - coalesce-shared-bank-conflict ---------------===//
//
// A shared-memory load or store whose lanes ask one bank for several different
// words, so the request takes more wavefronts than it needs.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_SHAREDBANKCONFLICT_H
#define COALESCE_RULES_SHAREDBANKCONFLICT_H

#include "Rule.h"

namespace coalesce {

class SharedBankConflict : public Rule {
public:
  const char *id() const override;
  const char *summary() const override;
  MemorySpace space() const override;
  void describe(const AccessRecord &R, const RuleOptions &Opts, Finding &F) const override;
};

} // namespace coalesce

#endif // COALESCE_RULES_SHAREDBANKCONFLICT_H
