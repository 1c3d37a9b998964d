//===- RuleRegistry.cpp - The rule list and shared wording ----------------===//

#include "Rule.h"

#include "ConstantSerialisation.h"
#include "SharedBankConflict.h"
#include "UncoalescedGlobal.h"
#include "UncoalescedLocal.h"

#include "model/BankModel.h"

#include <cmath>
#include <sstream>

namespace coalesce {

#define COALESCE_RULE(Class, Id, Summary)                                      \
  const char *Class::id() const { return Id; }                                 \
  const char *Class::summary() const { return Summary; }
#include "Rules.def"

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> Rules = [] {
    std::vector<std::unique_ptr<Rule>> V;
#define COALESCE_RULE(Class, Id, Summary) V.push_back(std::make_unique<Class>());
#include "Rules.def"
    return V;
  }();
  return Rules;
}

const Rule *findRule(const std::string &Id) {
  for (const auto &R : allRules())
    if (Id == R->id())
      return R.get();
  return nullptr;
}

std::vector<Finding> runRules(const std::vector<AccessRecord> &Records,
                              const RuleOptions &Opts,
                              const std::vector<std::string> &Enabled) {
  std::vector<Finding> Out;
  for (const AccessRecord &R : Records)
    for (const auto &Rl : allRules()) {
      if (!Enabled.empty()) {
        bool On = false;
        for (const std::string &E : Enabled)
          On |= E == Rl->id();
        if (!On)
          continue;
      }
      Rl->check(R, Opts, Out);
    }
  return Out;
}

std::string quantity(double V, const std::string &Unit) {
  std::string N = formatNumber(V);
  return N + " " + Unit + (N == "1" ? "" : "s");
}

std::string unknownPhrase(const AccessRecord &R) {
  const std::string Own = "no instruction of its own: ";
  if ((R.ReasonK == ReasonKind::LoadReused || R.ReasonK == ReasonKind::LoadForwarded) &&
      R.Reason.rfind(Own, 0) == 0)
    return " needs " + R.Reason;
  return " cannot be predicted: " + R.Reason;
}

std::string accessPhrase(const AccessRecord &R) {
  if (R.Op == AccessOp::Call)
    return std::string(spaceName(R.Space)) + " accesses to '" + R.Array + "' by a call";
  const char *Prep = R.Op == AccessOp::Load ? " from '" : R.Op == AccessOp::Store ? " to '" : " on '";
  return std::string(spaceName(R.Space)) + " " + opName(R.Op) + Prep + R.Array + "'";
}

static std::string signedBytes(int64_t V) {
  return (V < 0 ? "-" : "+") + std::to_string(V < 0 ? -V : V);
}

std::string laneEvidence(const AccessRecord &R) {
  if (!R.Pattern)
    return "";
  const LanePattern &P = *R.Pattern;
  std::vector<unsigned> On;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(P.Active, L))
      On.push_back(L);
  if (On.empty())
    return "";
  std::ostringstream OS;
  const bool Shared = R.Space == MemorySpace::Shared;
  auto One = [&](unsigned L) {
    OS << "lane " << L << " -> byte " << signedBytes(P.Offset[L]);
    if (Shared)
      OS << " (bank " << bankOfByte(P.BaseResidue + P.Offset[L]) << ")";
  };
  const size_t Show = On.size() <= 4 ? On.size() : 3;
  for (size_t I = 0; I < Show; ++I) {
    if (I)
      OS << ", ";
    One(On[I]);
  }
  if (Show < On.size()) {
    OS << ", ..., ";
    One(On.back());
  }
  OS << " (relative to lane " << On.front() << ")";
  if (!R.Because.empty())
    OS << "; the lanes are spread by " << R.Because;
  if (popcount(P.Active) < WarpSize)
    OS << "; " << popcount(P.Active) << " of 32 lanes active";
  return OS.str();
}

std::optional<Finding> beginFinding(const std::string &Id, const AccessRecord &R,
                                    const RuleOptions &Opts, std::vector<Finding> &Out) {
  Finding F;
  F.RuleId = Id;
  F.Pos = R.Pos;
  F.Record = &R;
  if (R.V != Verdict::Unknown)
    return F;
  if (Opts.ReportUnknown) {
    F.Level = Severity::Remark;
    F.Message = accessPhrase(R) + unknownPhrase(R);
    F.Notes.push_back({std::nullopt, assumptionNote(R)});
    Out.push_back(std::move(F));
  }
  return std::nullopt;
}

std::string sizeCondition(const AccessRecord &R) {
  return R.Parametric ? " " + R.Parametric->Cases.front().Text : "";
}

namespace {
std::string otherSizesNote(const AccessRecord &R, const std::string &Unit) {
  if (!R.Parametric || R.Parametric->Cases.size() < 2)
    return "";
  const std::vector<ParamCase> &Cs = R.Parametric->Cases;
  // The large sizes' cases, and at most a few small ones.
  constexpr size_t MaxShown = 4;
  std::string S = "for other values of '" + R.Parametric->Name + "': ";
  size_t Shown = 0;
  for (size_t I = 1; I < Cs.size() && Shown < MaxShown; ++I, ++Shown)
    S += (Shown ? "; " : "") + quantity(Cs[I].Cost.Cost, Unit) + " (ideal " +
         formatNumber(Cs[I].Cost.Ideal) + ") " + Cs[I].Text;
  if (Cs.size() - 1 > Shown)
    S += "; and " + std::to_string(Cs.size() - 1 - Shown) + " more case" +
         (Cs.size() - 1 - Shown == 1 ? "" : "s") + " (--explain lists them)";
  return S + "; --assume " + R.Parametric->Name + "=VALUE gives the number for one value";
}
} // namespace

void addSizeCases(Finding &F, const AccessRecord &R, const RuleOptions &Opts,
                  const std::string &Unit) {
  if (std::string Other = otherSizesNote(R, Unit); !Other.empty())
    F.Notes.push_back({std::nullopt, Other});
  if (!R.Parametric)
    return;
  // The fine case with the largest values (the contiguous one); sizes that
  // would misalign the access cannot occur and do not count.
  const ParamCase *Fine = nullptr;
  for (const ParamCase &C : R.Parametric->Cases) {
    // A size of 0 alone (every lane at one address: an empty problem) does
    // not count.
    const bool ZeroOnly = C.When.Min <= 0 && C.When.Max && *C.When.Max <= 0;
    if (ZeroOnly || !C.Cost.Possible || C.Cost.Cost > C.Cost.Ideal * Opts.MinRatio + 1e-9)
      continue;
    if (!Fine || C.When.Min > Fine->When.Min)
      Fine = &C;
  }
  if (Fine) {
    const ParamCase &C = *Fine;
    const std::string &N = R.Parametric->Name;
    F.Level = Severity::Remark;
    F.Notes.push_back(
        {std::nullopt, "not a warning: the cost is " + quantity(C.Cost.Cost, Unit) + " (ideal " +
                           formatNumber(C.Cost.Ideal) + ") " + C.Text +
                           ", and the values '" + N +
                           "' takes decide which case holds; state them with --assume " + N +
                           "=VALUE (or " + N + " >= VALUE), or check them in the host code "
                           "before the launch"});
  }
}

std::string assumptionNote(const AccessRecord &R) {
  std::string S = R.Launch.describe();
  if (!R.Context.empty())
    S = R.Context + "; " + S;
  for (const Assumption &A : R.Assumptions)
    S += "; " + A.Text;
  if (!R.RequestsKnown)
    S += "; the cost is per loop iteration (trip count not known)";
  return S;
}

} // namespace coalesce
