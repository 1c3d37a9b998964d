//===- Answer.h - What the analysis says one access costs -----------------===//
//
// Design note: the answer for an access is one tagged value, in the spirit of
// LLVM's ValueLatticeElement: exactly one of
//
//   exact            every request's cost is known: the request-weighted
//                    mean over warps, blocks and iterations, and its ideal;
//   over alignments  the cost depends on where the warp-uniform part of the
//                    address falls (model/Alignment.h): the likely value
//                    (the alignment assumed) and the range over alignments;
//   parametric       the cost depends on a run-time size
//                    (model/Parametric.h): the case for realistic sizes
//                    first, whose own alignment range (if any) is the range
//                    over alignments, and the span over the large sizes'
//                    cases, kept apart;
//   no instruction   nvcc issues no instruction of its own for the access
//                    (it reuses an earlier load, forwards a stored value):
//                    nothing to count, and why;
//   unknown          the reason.
//
// plus, for the answers with a number, the spread of single requests
// (cheapest, dearest) and the 128-byte lines of global memory.
//
// The answer owns the merge (AnswerSum: today's request-weighted averaging)
// and the predicates readers need: the excess over a ratio, the range worth
// showing, whether single requests differ. Rules, emitters, the language
// server, SARIF, HTML and verify read it through these, never raw fields:
// the comparison tolerance is model/Alignment.h's CostTolerance, which the
// parametric cases use too.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_ANSWER_H
#define COALESCE_ANALYZER_REPORT_ANSWER_H

#include "model/Alignment.h"
#include "model/Parametric.h"
#include "report/Reasons.h"

#include <optional>

namespace coalesce {

/// The cheapest and dearest of a set of costs.
struct CostSpan {
  double Min = 0, Max = 0;
  /// Min and Max differ (beyond rounding).
  bool wide() const;
  bool operator==(const CostSpan &O) const { return Min == O.Min && Max == O.Max; }
};

class Answer {
public:
  enum class Kind { Exact, OverAlignments, Parametric, NoInstruction, Unknown };

  /// Unknown, for no reason yet.
  Answer() = default;
  static Answer unknown(Reason Why);
  /// Unknown because which lanes run it is not known, where the cost with
  /// all lanes active (Hypothetical, named in Why) is: the alignment it
  /// would rest on is kept (alignmentKnown()), no number.
  static Answer unknownLanes(Reason Why, const Answer &Hypothetical);
  static Answer noInstruction(Reason Why);
  /// A cost known for every request.
  static Answer exact(double Cost, double Ideal);
  /// A cost that depends on the alignment: Likely at the alignment assumed,
  /// Range over every alignment.
  static Answer overAlignments(double Likely, double Ideal, CostSpan Range);
  /// A cost that depends on a run-time size. The first case is the one the
  /// answer states.
  static Answer parametric(ParametricCost P);
  /// The cheapest and dearest single request, and whether they differ
  /// because the warp's offset from the period moves (blocks, iterations)
  /// rather than because the warps' patterns differ.
  Answer &withRequests(CostSpan Requests, bool AlignmentVaries);
  /// Global memory: 128-byte lines per request.
  Answer &withLines(double Lines);

  Kind kind() const { return K; }
  /// "exact", "over-alignments", "parametric", "no-instruction", "unknown"
  /// (JSON `answer`).
  static const char *kindName(Kind K);
  /// The answer has a number (exact, over alignments, parametric).
  bool known() const { return K == Kind::Exact || K == Kind::OverAlignments || K == Kind::Parametric; }
  bool noInstruction() const { return K == Kind::NoInstruction; }
  /// For unknown and no-instruction answers: why.
  const Reason &why() const { return Why; }

  // The number (known() answers) ---------------------------------------------
  /// The cost the answer states: the likely value, or the first case's.
  double cost() const { return Cost; }
  double ideal() const { return Ideal; }
  /// Cost over ideal (0 without an ideal): the n of an n-way bank conflict.
  double ratio() const { return Ideal > 0 ? Cost / Ideal : 0; }
  /// Cost > Ideal * Ratio, beyond rounding (Ratio 1: any excess).
  bool excessOver(double Ratio) const { return known() && exceeds(Cost, Ideal * Ratio); }
  /// The stated cost rests on no alignment assumption.
  bool alignmentKnown() const { return !AlignRange; }
  /// The range of the stated cost over the alignments, when it rests on an
  /// assumed one (JSON `sectors_range`); never the span over sizes.
  const std::optional<CostSpan> &alignmentRange() const { return AlignRange; }
  /// The same, only when it is wider than a point: a range worth showing.
  std::optional<CostSpan> rangeToShow() const;
  /// Parametric answers: the cases, and the span of the large sizes' cases.
  const ParametricCost *parametric() const { return Param ? &*Param : nullptr; }
  std::optional<CostSpan> sizeSpan() const;
  /// The cheapest and dearest single request.
  const CostSpan &requests() const { return Requests; }
  bool requestsDiffer() const { return known() && Requests.wide(); }
  bool alignmentVaries() const { return AlignVaries; }
  double lines() const { return Lines; }

  /// The one tolerance every comparison of two costs uses.
  static bool differ(double A, double B);
  /// A > B beyond rounding.
  static bool exceeds(double A, double B);

  /// The same answer: kind, reason, cost, ideal and range over alignments
  /// (the records of walks that agree on these are one).
  bool operator==(const Answer &O) const;
  bool operator!=(const Answer &O) const { return !(*this == O); }

private:
  Kind K = Kind::Unknown;
  Reason Why;
  double Cost = 0, Ideal = 0, Lines = 0;
  std::optional<CostSpan> AlignRange;
  CostSpan Requests;
  bool AlignVaries = false;
  std::optional<ParametricCost> Param;
};

/// The request-weighted mean of many requests' costs (model/Alignment.h's
/// Cost of each), which is what Nsight Compute's per-instruction counters
/// measure: the merge the aggregator does per access.
class AnswerSum {
public:
  void add(const Cost &C, double Weight, double Lines = 0);
  /// A request whose lanes sit at another offset from the space's period
  /// than an earlier one's, with the same pattern.
  void noteAlignmentVaries() { AlignVaries = true; }
  bool empty() const { return !HaveReq; }
  /// Everything added rests on no alignment assumption.
  bool exact() const { return Exact; }
  bool alignmentVaries() const { return AlignVaries; }
  /// Sums over the requests (not divided by the weight).
  double costSum() const { return SumCost; }
  double idealSum() const { return SumIdeal; }
  double minSum() const { return SumMin; }
  double maxSum() const { return SumMax; }
  /// The answer, over total weight W (which may include requests whose
  /// cost was added elsewhere: none of them here).
  Answer answer(double W) const;

private:
  double SumCost = 0, SumIdeal = 0, SumMin = 0, SumMax = 0, SumLines = 0;
  double ReqMin = 0, ReqMax = 0;
  bool Exact = true, HaveReq = false, AlignVaries = false;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_ANSWER_H
