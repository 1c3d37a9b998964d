//===- Answer.cpp - What the analysis says one access costs ---------------===//

#include "report/Answer.h"

#include <algorithm>
#include <cmath>

namespace coalesce {

bool Answer::differ(double A, double B) { return !sameCost(A, B); }
bool Answer::exceeds(double A, double B) { return costExceeds(A, B); }

bool CostSpan::wide() const { return Answer::exceeds(Max, Min); }

const char *Answer::kindName(Kind K) {
  switch (K) {
  case Kind::Exact: return "exact";
  case Kind::OverAlignments: return "over-alignments";
  case Kind::Parametric: return "parametric";
  case Kind::NoInstruction: return "no-instruction";
  case Kind::Unknown: return "unknown";
  }
  return "unknown";
}

Answer Answer::unknown(Reason W) {
  Answer A;
  A.K = Kind::Unknown;
  A.Why = std::move(W);
  return A;
}

Answer Answer::unknownLanes(Reason W, const Answer &Hypothetical) {
  Answer A = unknown(std::move(W));
  A.AlignRange = Hypothetical.AlignRange;
  return A;
}

Answer Answer::noInstruction(Reason W) {
  Answer A;
  A.K = Kind::NoInstruction;
  A.Why = std::move(W);
  return A;
}

Answer Answer::exact(double Cost, double Ideal) {
  Answer A;
  A.K = Kind::Exact;
  A.Cost = Cost;
  A.Ideal = Ideal;
  A.Requests = {Cost, Cost};
  return A;
}

Answer Answer::overAlignments(double Likely, double Ideal, CostSpan Range) {
  Answer A = exact(Likely, Ideal);
  A.K = Kind::OverAlignments;
  A.AlignRange = Range;
  return A;
}

Answer Answer::parametric(ParametricCost P) {
  const CostPoint &Head = P.Cases.front().Cost;
  Answer A = Head.Exact ? exact(Head.Cost, Head.Ideal)
                        : overAlignments(Head.Cost, Head.Ideal, {Head.Min, Head.Max});
  A.K = Kind::Parametric;
  A.Param = std::move(P);
  return A;
}

Answer &Answer::withRequests(CostSpan R, bool Varies) {
  Requests = R;
  AlignVaries = Varies;
  return *this;
}

Answer &Answer::withLines(double L) {
  Lines = L;
  return *this;
}

std::optional<CostSpan> Answer::rangeToShow() const {
  if (AlignRange && AlignRange->wide())
    return AlignRange;
  return std::nullopt;
}

std::optional<CostSpan> Answer::sizeSpan() const {
  if (!Param)
    return std::nullopt;
  return CostSpan{Param->LargeMin, Param->LargeMax};
}

bool Answer::operator==(const Answer &O) const {
  return K == O.K && Why == O.Why && Cost == O.Cost && Ideal == O.Ideal &&
         AlignRange == O.AlignRange;
}

void AnswerSum::add(const Cost &C, double Weight, double L) {
  SumCost += C.Value * Weight;
  SumIdeal += C.Ideal * Weight;
  SumMin += C.Min * Weight;
  SumMax += C.Max * Weight;
  SumLines += L * Weight;
  ReqMin = HaveReq ? std::min(ReqMin, C.Lowest) : C.Lowest;
  ReqMax = HaveReq ? std::max(ReqMax, C.Highest) : C.Highest;
  HaveReq = true;
  AlignVaries |= Answer::exceeds(C.Highest, C.Lowest);
  Exact &= C.Exact;
}

Answer AnswerSum::answer(double W) const {
  if (W <= 0)
    W = 1;
  Answer A = Exact ? Answer::exact(SumCost / W, SumIdeal / W)
                   : Answer::overAlignments(SumCost / W, SumIdeal / W,
                                            {SumMin / W, SumMax / W});
  A.withRequests({ReqMin, ReqMax}, AlignVaries);
  A.withLines(SumLines / W);
  return A;
}

} // namespace coalesce
