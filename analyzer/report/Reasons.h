//===- Reasons.h - Why an access is unknown, what a prediction assumes ----===//
//
// Reasons and assumptions are typed values: a kind from the one list in
// Reasons.def and the arguments of its template. The text is a function of
// the two, rendered here and nowhere else (renderReason); a Reason keeps the
// text made when it was made, so that front-ends print it and programs (JSON
// consumers, verify mode) match the kind.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_REASONS_H
#define COALESCE_ANALYZER_REPORT_REASONS_H

#include "model/IntOps.h"
#include "model/Poly.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace coalesce {

enum class ReasonKind {
  None, // no reason: the value or access is known
#define REASON(Id, Name, Text) Id,
#include "report/Reasons.def"
};

enum class AssumptionKind {
#define ASSUMPTION(Id, Name, Text) Id,
#include "report/Reasons.def"
};

/// Why something is not known.
struct Reason {
  ReasonKind Kind = ReasonKind::None;
  /// The innermost reason of a wrapper ("which lanes are active depends on
  /// `c`: <the cause>"); Kind itself otherwise.
  ReasonKind Cause = ReasonKind::None;
  /// The arguments of Kind's template ({0}, {1}, ...); a wrapper's last
  /// one is the inner reason's text.
  std::vector<std::string> Args;
  /// renderReason(Kind, Args), made once by makeReason/wrapReason.
  std::string Text;
  /// The code the reason is about, for labels too short for Text (an
  /// editor's inlay hint): the argument the template quotes first
  /// (`idx[i]` in "depends on data loaded by `idx[i]`"), or what the
  /// maker set; empty when the reason names no code.
  std::string Subject;
  /// The facts a user could state that may settle it, as the options that
  /// state them ("--assume C=VALUE", "--block=k=X,Y,Z"): kernel parameters
  /// whose values no launch fixes, a block shape no launch gives. A
  /// wrapper keeps its inner reason's.
  std::vector<std::string> Settle;
  bool empty() const { return Kind == ReasonKind::None; }
  bool operator==(const Reason &O) const {
    return Kind == O.Kind && Text == O.Text;
  }
};

/// Something a prediction takes for granted.
struct Assumption {
  AssumptionKind Kind{};
  std::string Text;
  bool operator==(const Assumption &O) const {
    return Kind == O.Kind && Text == O.Text;
  }
};

/// The reason of kind K, its template filled with Args ({0}, {1}, ...).
Reason makeReason(ReasonKind K, std::initializer_list<std::string> Args = {});
/// A wrapper reason whose last argument is Inner's text; its cause is
/// Inner's cause.
Reason wrapReason(ReasonKind K, std::initializer_list<std::string> Args,
                  const Reason &Inner);
Reason makeReason(ReasonKind K, std::vector<std::string> Args);
/// The reason an integer operation of model/IntOps.h failed for (a kind of
/// the "index-arithmetic" family); None when R.Ok.
Reason makeReason(const IntResult &R);
/// The kernel parameters among Ids, by the name the user's code spells, in
/// order, each once; symbols of other kinds give none.
std::vector<std::string> paramNamesOf(const std::vector<SymbolId> &Ids, const SymbolTable &Syms);
/// The --assume facts that would give them a value ("--assume C=VALUE").
std::vector<std::string> assumeFactsFor(const std::vector<std::string> &Names);
std::vector<std::string> assumeFactsFor(const std::vector<SymbolId> &Ids,
                                        const SymbolTable &Syms);
Assumption makeAssumption(AssumptionKind K,
                          std::initializer_list<std::string> Args = {});

/// The text of a reason of kind K with Args: its template filled in. The
/// one place reasons' texts are made.
std::string renderReason(ReasonKind K, const std::vector<std::string> &Args);

/// The kind JSON reports for K (reason_kind, reason_cause): K's family
/// (REASON_OF in Reasons.def, "index-arithmetic" for "division-by-zero"),
/// K itself for the kinds of no family.
ReasonKind reasonFamily(ReasonKind K);
/// The reason kind an integer operation's failure is (model/IntFailures.def).
ReasonKind reasonKind(IntFail F);
/// The number of reason kinds, None included (for tests: every kind is in
/// [1, reasonKindCount())).
size_t reasonKindCount();
size_t assumptionKindCount();

/// "loaded-data": the kind as JSON and the docs name it ("" for None).
const char *reasonKindName(ReasonKind K);
const char *assumptionKindName(AssumptionKind K);
/// The text template of the kind, with its {N} placeholders.
const char *reasonTemplate(ReasonKind K);
const char *assumptionTemplate(AssumptionKind K);

/// Fills {0}, {1}, ... of Template with Args; exposed for tests.
std::string renderTemplate(const char *Template,
                           std::initializer_list<std::string> Args);

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_REASONS_H
