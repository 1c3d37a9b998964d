//===- RuleRegistry.cpp - The rule list and shared wording ----------------===//

#include "Rule.h"

#include "ConstantSerialisation.h"
#include "MisalignedGlobal.h"
#include "SharedBankConflict.h"
#include "TensorCopyContract.h"
#include "UncoalescedGlobal.h"
#include "UncoalescedLocal.h"

#include "model/BankModel.h"

#include <algorithm>
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

/// For a finding shown at the caller's argument (shownAt()): a note at the
/// access itself, in the helper.
static void noteBlame(const AccessRecord &R, Finding &F) {
  if (!R.Blame)
    return;
  F.Notes.push_back({R.Pos, "the access is in '" + R.Blame->Helper +
                                "', which only dereferences what it is given; shown at the "
                                "argument that chooses the address"});
}

std::vector<Finding> runRules(const std::vector<AccessRecord> &Records,
                              const RuleOptions &Opts,
                              const std::vector<std::string> &Enabled) {
  std::vector<Finding> Out;
  // An excess is reported when it is over the threshold, and always over
  // the ideal.
  const double Ratio = std::max(1.0, Opts.MinRatio);
  for (const AccessRecord &R : Records)
    for (const auto &Rl : allRules()) {
      if (Rl->space() != R.Space ||
          (!Enabled.empty() && std::find(Enabled.begin(), Enabled.end(), Rl->id()) == Enabled.end()))
        continue;
      // A rule about what the code reads reports every record it claims;
      // one about cost, its excesses and (as remarks) its unknowns.
      if (Rl->aboutCost() && !R.Ans.known()) {
        // One remark per record, from the rule of its space that claims it.
        if (Opts.ReportUnknown && Rl->claims(R))
          Out.push_back(unknownRemark(Rl->id(), R));
        continue;
      }
      if ((Rl->aboutCost() && !R.Ans.excessOver(Ratio)) || !Rl->claims(R))
        continue;
      Finding F;
      F.RuleId = Rl->id();
      F.Pos = shownAt(R);
      F.Record = &R;
      Rl->describe(R, Opts, F);
      noteBlame(R, F);
      Out.push_back(std::move(F));
    }
  return Out;
}

std::string unknownPhrase(const AccessRecord &R) {
  const std::string &Why = R.Ans.why().Text;
  if (R.Ans.noInstruction())
    return " needs " + Why;
  return " cannot be predicted: " + Why;
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
  const bool Banks = spaceModel(R.Space).Picture == SpacePicture::Banks;
  auto One = [&](unsigned L) {
    OS << "lane " << L << " -> byte " << signedBytes(P.Offset[L]);
    if (Banks)
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

std::string settleNote(const AccessRecord &R) {
  const std::vector<std::string> &Facts = R.Ans.why().Settle;
  if (Facts.empty() || R.Ans.known())
    return "";
  // Options are quoted as typed; a front-end's own wording ("the check
  // option Block=k=X,Y,Z") is not.
  std::string Options;
  for (size_t I = 0; I < Facts.size(); ++I)
    Options += (I ? (I + 1 == Facts.size() ? " and " : ", ") : "") +
               (Facts[I].rfind("--", 0) == 0 ? "`" + Facts[I] + "`" : Facts[I]);
  const bool Block = Facts.front().rfind("--block", 0) == 0 ||
                     Facts.front().find("Block=") != std::string::npos;
  return std::string(Block ? "the block shape of the launch is not known statically"
                           : Facts.size() == 1 ? "no launch in this file makes the value known"
                                               : "no launch in this file makes the values known") +
         ": state it with " + Options + " to get a number";
}

Finding unknownRemark(const std::string &Id, const AccessRecord &R) {
  Finding F;
  F.RuleId = Id;
  F.Pos = shownAt(R);
  F.Record = &R;
  F.Level = Severity::Remark;
  F.Message = accessPhrase(R) + unknownPhrase(R);
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  if (std::string S = settleNote(R); !S.empty())
    F.Notes.push_back({std::nullopt, S});
  if (std::string W = witnessNote(R); !W.empty())
    F.Notes.push_back({std::nullopt, W});
  noteBlame(R, F);
  return F;
}

std::string costStatement(const AccessRecord &R) {
  return costPhrase(R.Ans.cost(), R.Space) + " (ideal " + formatNumber(R.Ans.ideal()) + ")" +
         sizeCondition(R);
}

std::string sizeCondition(const AccessRecord &R) {
  const ParametricCost *P = R.Ans.parametric();
  return P ? " " + P->Cases.front().Text : "";
}

namespace {
std::string otherSizesNote(const AccessRecord &R, const std::string &Unit) {
  const ParametricCost *P = R.Ans.parametric();
  if (!P || P->Cases.size() < 2)
    return "";
  const std::vector<ParamCase> &Cs = P->Cases;
  // The large sizes' cases, and at most a few small ones.
  constexpr size_t MaxShown = 4;
  std::string S = "for other values of '" + P->Name + "': ";
  size_t Shown = 0;
  for (size_t I = 1; I < Cs.size() && Shown < MaxShown; ++I, ++Shown)
    S += (Shown ? "; " : "") + quantity(Cs[I].Cost.Cost, Unit) + " (ideal " +
         formatNumber(Cs[I].Cost.Ideal) + ") " + Cs[I].Text;
  if (Cs.size() - 1 > Shown)
    S += "; and " + std::to_string(Cs.size() - 1 - Shown) + " more case" +
         (Cs.size() - 1 - Shown == 1 ? "" : "s") + " (--explain lists them)";
  return S + "; --assume " + P->Stated + "=VALUE gives the number for one value";
}
} // namespace

void addSizeCases(Finding &F, const AccessRecord &R, const RuleOptions &Opts,
                  const std::string &Unit) {
  if (std::string Other = otherSizesNote(R, Unit); !Other.empty())
    F.Notes.push_back({std::nullopt, Other});
  const ParametricCost *P = R.Ans.parametric();
  if (!P)
    return;
  // The fine case with the largest values (the contiguous one); sizes that
  // would misalign the access cannot occur and do not count.
  const ParamCase *Fine = nullptr;
  for (const ParamCase &C : P->Cases) {
    // A size of 0 alone (every lane at one address: an empty problem) does
    // not count.
    const bool ZeroOnly = C.When.Min <= 0 && C.When.Max && *C.When.Max <= 0;
    if (ZeroOnly || !C.Cost.Possible || Answer::exceeds(C.Cost.Cost, C.Cost.Ideal * Opts.MinRatio))
      continue;
    if (!Fine || C.When.Min > Fine->When.Min)
      Fine = &C;
  }
  if (Fine) {
    const ParamCase &C = *Fine;
    const std::string &N = P->Name;
    F.Level = Severity::Remark;
    F.Notes.push_back(
        {std::nullopt, "not a warning: the cost is " + quantity(C.Cost.Cost, Unit) + " (ideal " +
                           formatNumber(C.Cost.Ideal) + ") " + C.Text +
                           ", and the values '" + N +
                           "' takes decide which case holds; state them with --assume " +
                           P->Stated + "=VALUE (or " + P->Stated +
                           " >= VALUE), or check them in the host code "
                           "before the launch"});
  }
}

void addEvidenceAndAssumptions(Finding &F, const AccessRecord &R, const RuleOptions &Opts,
                               const std::string &Unit, const std::string &EvidenceSuffix) {
  std::string Ev = laneEvidence(R);
  if (!Ev.empty())
    F.Notes.push_back({std::nullopt, Ev + EvidenceSuffix});
  addSizeCases(F, R, Opts, Unit);
  if (std::string I = instructionNote(R); !I.empty())
    F.Notes.push_back({std::nullopt, I});
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  if (std::string W = witnessNote(R); !W.empty())
    F.Notes.push_back({std::nullopt, W});
}

std::string instructionNote(const AccessRecord &R) {
  if (R.Instruction.empty())
    return "";
  const bool Shared = R.Space == MemorySpace::Shared;
  if (R.Instruction.rfind("ldmatrix", 0) == 0 || R.Instruction.rfind("stmatrix", 0) == 0)
    return "the access is an " + R.Instruction +
           ": each matrix's 8 row addresses (lanes 0-7, 8-15, ...) are served together, "
           "and rows in one 16-byte bank group take a wavefront each";
  std::string Side = Shared ? "the shared write" : "the global read";
  if (R.Instruction.find("BYPASS") != std::string::npos)
    return Side + " of a " + R.Instruction +
           ", costed with its other side: a quarter-warp that moves whole sectors into aligned "
           "32-byte slots of shared memory costs one wavefront per pair of a 128-byte global "
           "line and a 128-byte shared block it moves data between; one that conflicts on every "
           "lane is served lane by lane (8 wavefronts, each lane's sector alone)";
  return Side + " of a " + R.Instruction +
         ", costed with its other side: the data passes the L1's 32 banks, so each phase costs "
         "the most lanes one bank serves on either side (the global address's offset in its "
         "128-byte line, or the shared address)";
}

std::string witnessNote(const AccessRecord &R) {
  std::string Here = R.Emitted.empty() ? "" : R.Emitted.front();
  switch (R.Witness) {
  case Witnessed::SourceOnly:
    return Here.empty() ? "" : "nvcc emitted " + Here + " on this line";
  case Witnessed::Confirmed:
    return "the compiler witness agrees: nvcc emitted " + (Here.empty() ? "no instruction" : Here) +
           " on this line";
  case Witnessed::Corrected:
    return "decided with what nvcc emitted" +
           (R.WitnessNote.empty() ? std::string() : ": " + R.WitnessNote) +
           (Here.empty() ? "" : " (" + Here + " on this line)");
  }
  return "";
}

std::string requestsUnknownText(const AccessRecord &R) {
  return R.RequestsWhy.empty() ? "the requests per warp are not known" : R.RequestsWhy;
}

std::string assumptionNote(const AccessRecord &R) {
  std::string S = R.Launch.describe();
  if (!R.Context.empty())
    S = R.Context + "; " + S;
  for (const Assumption &A : R.Assumptions)
    S += "; " + A.Text;
  if (!R.RequestsKnown)
    S += "; " + requestsUnknownText(R);
  return S;
}

} // namespace coalesce
