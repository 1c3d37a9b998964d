//===- SharedBankConflict.cpp - coalesce-shared-bank-conflict -------------===//

#include "SharedBankConflict.h"

namespace coalesce {

MemorySpace SharedBankConflict::space() const { return MemorySpace::Shared; }

void SharedBankConflict::describe(const AccessRecord &R, const RuleOptions &Opts,
                                  Finding &F) const {
  // An asynchronous copy's shared side pays for its global side's lines too
  // (model/Instructions.h): not a bank conflict alone.
  if (R.Instruction.find("LDGSTS") != std::string::npos)
    F.Message = accessPhrase(R) + " of an asynchronous copy takes " +
                formatNumber(R.Ans.ratio()) + "x the ideal wavefronts: " + costStatement(R);
  else
    F.Message = accessPhrase(R) + " has " + articleFor(formatNumber(R.Ans.ratio())) + " " +
                formatNumber(R.Ans.ratio()) + "-way bank conflict: " + costStatement(R);
  addEvidenceAndAssumptions(F, R, Opts, "wavefront");
  if (R.PaddedCost) {
    std::string Fix = "padding the innermost dimension by " +
                      quantity(R.PadElements, "element") + " (" + R.PadDeclaration +
                      ") gives " + quantity(*R.PaddedCost, "wavefront") +
                      " per request";
    if (!R.PadTradeoff.empty())
      Fix += ", but " + R.PadTradeoff;
    if (!R.PadWhyNot.empty())
      Fix += "; no fix-it is offered: " + R.PadWhyNot;
    // A remark (a cost that holds only for some sizes) gets no fix-it.
    if (!R.PadInsertText.empty() && F.Level == Severity::Warning) {
      F.Fixes.push_back({R.PadInsertPos, R.PadRemoveLength, R.PadInsertText});
      F.Notes.push_back({R.PadInsertPos, Fix});
    } else {
      F.Notes.push_back({std::nullopt, Fix});
    }
  }
}

} // namespace coalesce
