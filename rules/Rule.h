//===- Rule.h - What a rule is, and what it produces ----------------------===//
//
// A rule reads AccessRecords (the analysis' conclusions) and turns the ones it
// is about into Findings: a message with the numbers, notes with the evidence
// and the assumptions, and fix-its where a fix preserves meaning. Rules never
// walk the AST and never compute costs; front-ends print Findings.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_RULE_H
#define COALESCE_RULES_RULE_H

#include "report/Numbers.h"
#include "report/SourceEdit.h"
#include "report/Report.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

enum class Severity { Warning, Remark };

struct FindingNote {
  std::optional<SourcePos> Pos; // none: attached to the finding's location
  std::string Message;
};

/// A fix-it: an edit of the source (Pos: where it starts).
using FixIt = SourceEdit;

struct Finding {
  std::string RuleId;      // "uncoalesced-global"
  Severity Level = Severity::Warning;
  SourcePos Pos;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::vector<FixIt> Fixes;
  const AccessRecord *Record = nullptr;
  /// The records of the same finding from other instantiations of a template
  /// kernel or other launch configurations, when a front-end reports them as
  /// one (tools/output/Grouping.h); Record is the first.
  std::vector<const AccessRecord *> Also;
  std::string checkName() const { return "coalesce-" + RuleId; }
};

struct RuleOptions {
  /// Report an access only if cost > ideal * MinRatio (1.0: any excess).
  double MinRatio = 1.0;
  /// Also report accesses that cannot be predicted, as remarks.
  bool ReportUnknown = true;
  /// Report accesses whose only excess is rows starting off a 32-byte
  /// boundary (coalesce-misaligned-global) as warnings, not remarks.
  bool MisalignedWarnings = false;
};

/// A rule declares the memory space it is about and says what it has to say
/// about an access that costs more than its ideal; the registry decides which
/// records reach it (runRules()): the rule's space, the verdict of an excess
/// over the threshold (RuleOptions::MinRatio), and the one remark every rule
/// gives for an access it cannot predict (unknownRemark()).
class Rule {
public:
  virtual ~Rule() = default;
  virtual const char *id() const = 0;
  virtual const char *summary() const = 0;
  /// The memory space whose accesses the rule is about.
  virtual MemorySpace space() const = 0;
  /// Whether a record of the rule's space with an excess is the rule's to
  /// describe (two rules can split a space: misaligned and uncoalesced
  /// global accesses).
  virtual bool claims(const AccessRecord &) const { return true; }
  /// False for a rule about what the code does rather than what an access
  /// costs (coalesce-tma-contract): it reports every record it claims,
  /// known cost or not, and gives no remark for unknown ones.
  virtual bool aboutCost() const { return true; }
  /// The finding about R, an access in space() whose cost exceeds its ideal
  /// by more than Opts.MinRatio: F comes with the rule's id, R's position
  /// and R; the rule writes the message, notes and fix-its, and may make it
  /// a remark (a cost that holds only for some sizes).
  virtual void describe(const AccessRecord &R, const RuleOptions &Opts, Finding &F) const = 0;
};

/// The declaration of a rule's class (rules/<Class>.h): id() and summary()
/// come from Rules.def, space() and describe() from the rule's own file;
/// Extra declares more members (a rule that shares its space says which
/// records are its own: claims()).
#define COALESCE_RULE_CLASS(Class, Extra)                                      \
  namespace coalesce {                                                         \
  class Class : public Rule {                                                  \
  public:                                                                      \
    const char *id() const override;                                           \
    const char *summary() const override;                                      \
    MemorySpace space() const override;                                        \
    Extra                                                                      \
    void describe(const AccessRecord &R, const RuleOptions &Opts,              \
                  Finding &F) const override;                                  \
  };                                                                           \
  }
#define COALESCE_DECLARE_RULE(Class) COALESCE_RULE_CLASS(Class, )
#define COALESCE_DECLARE_SPLIT_RULE(Class)                                     \
  COALESCE_RULE_CLASS(Class, bool claims(const AccessRecord &R) const override;)

/// All rules, in the order of Rules.def.
const std::vector<std::unique_ptr<Rule>> &allRules();
const Rule *findRule(const std::string &Id);

/// Runs the enabled rules (all when Enabled is empty) over the records.
std::vector<Finding> runRules(const std::vector<AccessRecord> &Records,
                              const RuleOptions &Opts,
                              const std::vector<std::string> &Enabled = {});

/// Shared wording helpers for rules (numbers: formatNumber, quantity,
/// report/Numbers.h).
/// "global load from 'in'", "shared store to 'tile'", "global atomic on 'sum'"
std::string accessPhrase(const AccessRecord &R);
/// What follows accessPhrase() for a record with no number: " cannot be
/// predicted: <why>", or, for a load nvcc does not issue again (reason kind
/// load-reused, load-forwarded), " needs no instruction of its own: <which
/// load or store it reuses>".
std::string unknownPhrase(const AccessRecord &R);
std::string laneEvidence(const AccessRecord &R);
std::string assumptionNote(const AccessRecord &R);
/// What the compiler witness says of the record (docs/witness.md): the
/// instructions nvcc emitted on its line, and whether they confirmed or
/// corrected the source analysis ("" when it was not used).
std::string witnessNote(const AccessRecord &R);
/// What the instruction's own counting rule is (an asynchronous copy's side,
/// a matrix load), or "" for a plain load or store.
std::string instructionNote(const AccessRecord &R);
/// For an unknown a stated fact may settle (Reason::Settle): the note that
/// names the options stating it; "" otherwise.
std::string settleNote(const AccessRecord &R);
/// Why an access's requests per warp are not known (the loop, the branch).
std::string requestsUnknownText(const AccessRecord &R);

/// "8 sectors per request (ideal 4)", "4 constant-cache requests per
/// instruction (ideal 1)" (costPhrase() in the record's space), with the
/// size condition (sizeCondition()).
std::string costStatement(const AccessRecord &R);

/// For a cost that depends on a run-time size: " for every cols >= 8" (the
/// condition of the case the message states), else "".
std::string sizeCondition(const AccessRecord &R);
/// For such a cost: a note with its other cases ("5 sectors per request
/// when D is not a multiple of 8 and D >= 17; 3 when D == 8; ..."). A
/// warning must hold for every value the size can take (from the smallest
/// the facts allow: --assume, a check in host code before the launch);
/// where some value gives a cost within MinRatio of its ideal (a byte
/// stride equal to the element size; neither a size of 0 alone nor one
/// that would misalign the access counts), F becomes a remark, with a note
/// naming that case and what would decide it.
void addSizeCases(Finding &F, const AccessRecord &R, const RuleOptions &Opts,
                  const std::string &Unit);
/// The notes every finding has, in order: the lanes' evidence (with
/// EvidenceSuffix), the other sizes' cases (addSizeCases), the assumptions.
void addEvidenceAndAssumptions(Finding &F, const AccessRecord &R, const RuleOptions &Opts,
                               const std::string &Unit, const std::string &EvidenceSuffix = "");

/// What every rule reports for an access in its space that it cannot
/// predict: a remark saying why (or, for a load nvcc does not issue again,
/// that it needs no instruction of its own), with the assumptions.
Finding unknownRemark(const std::string &Id, const AccessRecord &R);

} // namespace coalesce

#endif // COALESCE_RULES_RULE_H
