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
  if (R.Fix && !Answer::exceeds(R.Fix->Before, R.Fix->After)) {
    // The array's fix helps its other accesses, not this one.
    F.Notes.push_back({std::nullopt, "the layout proposed for the other accesses of '" + R.Array +
                                         "' (" + R.Fix->What + ") leaves this one at " +
                                         quantity(R.Fix->After, "wavefront") + " per request"});
  } else if (R.Fix) {
    const LayoutFix &X = *R.Fix;
    std::string Fix = X.What + " gives " + quantity(X.After, "wavefront") + " per request (now " +
                      formatNumber(X.Before) + ") " + X.Condition + "; ";
    Fix += X.Accesses == 1 ? "it is the only access of '" + R.Array + "'"
                           : "none of the " + std::to_string(X.Accesses) + " accesses of '" +
                                 R.Array + "' gets dearer (" + formatNumber(X.ArrayBefore) +
                                 " -> " + formatNumber(X.ArrayAfter) + " wavefronts per warp)";
    if (!X.Alternative.empty())
      Fix += "; " + X.Alternative;
    if (!X.WhyNot.empty())
      Fix += "; no fix-it is offered: " + X.WhyNot;
    // A remark (a cost that holds only for some sizes) gets no fix-it.
    if (!X.Edits.empty() && X.WhyNot.empty() && F.Level == Severity::Warning) {
      for (const SourceEdit &E : X.Edits)
        F.Fixes.push_back({E.Pos, E.RemoveLength, E.Insert});
      F.Notes.push_back({X.Edits.front().Pos, Fix});
    } else {
      F.Notes.push_back({std::nullopt, Fix});
    }
  } else if (!R.NoFixWhy.empty()) {
    F.Notes.push_back({std::nullopt, R.NoFixWhy});
  }
}

} // namespace coalesce
