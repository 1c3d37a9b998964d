//===- Report.cpp - What the analysis concludes, without clang types ------===//

#include "report/Report.h"
#include "report/Numbers.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace coalesce {

std::string SourcePos::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

bool SourcePos::operator<(const SourcePos &O) const {
  return std::tie(File, Line, Column) < std::tie(O.File, O.Line, O.Column);
}

const char *spaceName(MemorySpace S) { return spaceModel(S).Name; }

const char *witnessedName(Witnessed W) {
  switch (W) {
  case Witnessed::SourceOnly:
    return "source-only";
  case Witnessed::Confirmed:
    return "compiler-confirmed";
  case Witnessed::Corrected:
    return "compiler-corrected";
  }
  return "source-only";
}

const char *opName(AccessOp O) {
  switch (O) {
  case AccessOp::Load: return "load";
  case AccessOp::Store: return "store";
  case AccessOp::Atomic: return "atomic";
  case AccessOp::Call: return "call";
  }
  return "load";
}

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Ok: return "ok";
  case Verdict::Uncoalesced: return "uncoalesced";
  case Verdict::BankConflict: return "bank-conflict";
  case Verdict::Serialised: return "serialised";
  case Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

Verdict excessVerdict(MemorySpace S) { return spaceModel(S).Excess; }

Verdict AccessRecord::verdict() const {
  if (!Ans.known())
    return Verdict::Unknown;
  return Ans.excessOver(1) ? excessVerdict(Space) : Verdict::Ok;
}

/// What one cost is counted per: a request (one instruction executed by one
/// warp); for the constant cache, whose own requests are the unit, the
/// instruction.
static const char *countedPer(MemorySpace S) {
  return spaceModel(S).PerInstruction ? " per instruction" : " per request";
}

std::string costUnits(MemorySpace S) { return std::string(spaceModel(S).Unit) + "s"; }

std::string costPerRequest(MemorySpace S) { return costUnits(S) + countedPer(S); }

std::string costPhrase(double V, MemorySpace S) {
  const std::string N = formatNumber(V);
  return N + " " + spaceModel(S).Unit + (N == "1" ? "" : "s") + countedPer(S);
}

static std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string SourcePos::fileLine() const { return baseName(File) + ":" + std::to_string(Line); }

std::string LaunchConfig::partialStr() const {
  std::string S = "(";
  for (int I = 0; I < 3; ++I)
    S += (I ? ", " : "") + (KnownDims[I] ? std::to_string(KnownDims[I]) : std::string("?"));
  return S + ")";
}

std::string LaunchConfig::describe() const {
  // "the launch at a.cu:1", "the launches at a.cu:1, a.cu:9 and 2 more";
  // one site reached with several configurations of the same figures (a
  // loop of launches) is named once: "the launch at a.cu:4 (35 launches)".
  bool Plural = false;
  auto SiteList = [&] {
    std::vector<std::string> Names;
    for (const SourcePos &P : Sites) {
      std::string N = P.fileLine();
      if (std::find(Names.begin(), Names.end(), N) == Names.end())
        Names.push_back(std::move(N));
    }
    Plural = Names.size() > 1;
    std::string S = Plural ? "the launches at " : "the launch at ";
    for (size_t I = 0; I < Names.size(); ++I) {
      if (I)
        S += ", ";
      if (I == 3) {
        S += "and " + std::to_string(Names.size() - 3) + " more";
        break;
      }
      S += Names[I];
    }
    if (Sites.size() > Names.size())
      S += " (" + std::to_string(Sites.size()) + " launches)";
    return S;
  };
  auto NotKnown = [&] {
    std::string S = SiteList();
    S += Plural ? " have" : " has";
    S += " a block shape that is not known statically";
    if (!BlockUnknown.empty())
      S += " (" + BlockUnknown + ")";
    return S;
  };
  if (partlyKnown()) {
    // Which dimensions are not known, and whether that matters.
    std::string Unknown;
    static const char *Axis[] = {"x", "y", "z"};
    for (int I = 0; I < 3; ++I)
      if (!KnownDims[I])
        Unknown += std::string(Unknown.empty() ? "" : " and ") + Axis[I];
    std::string S = "blockDim partly known: " + SiteList();
    S += (Plural ? " have" : " has") + std::string(" block shape ") + partialStr();
    if (!BlockUnknown.empty())
      S += " (" + Unknown + ": " + BlockUnknown + ")";
    if (std::optional<PartialWarps> W = partialWarps(KnownDims[0], KnownDims[1], KnownDims[2]))
      S += "; every warp lies within " +
           std::string(W->Axes == 2 ? "one z-slice of " + std::to_string(W->Sub.X) + " x " +
                                          std::to_string(W->Sub.Y) + " threads"
                                    : "one row of " + std::to_string(W->Sub.X) + " threads") +
           ", so the unknown " + Unknown + " does not change which threads share a warp";
    else
      S += "; which threads share a warp depends on the unknown " + Unknown;
    return S + "; set " + BlockOption + " to be exact";
  }
  if (!BlockKnown) {
    if (Source == "assumed")
      return "blockDim unknown (no launch in this file): assuming blockDim.x "
             "is a multiple of 32; set " + BlockOption + " to be exact";
    if (Sites.empty())
      return "blockDim unknown from " + Source + ": assuming blockDim.x is a multiple of 32";
    return "blockDim unknown: " + NotKnown() +
           "; assuming blockDim.x is a multiple of 32; set " + BlockOption + " to be exact";
  }
  std::string S = "assuming blockDim = " + Block.str();
  if (Source == "--block") {
    S += " from " + (BlockGivenBy.empty() ? BlockOption.substr(0, BlockOption.find('='))
                                          : BlockGivenBy);
    S += Sites.empty() ? std::string(" (no launch in this file)") : ": " + NotKnown();
  } else {
    S += " from " + SiteList();
    if (!Branches.empty())
      S += " " + Branches;
  }
  return S;
}

std::string LaunchConfig::key() const {
  std::ostringstream OS;
  OS << (BlockKnown ? Block.str() : std::string("?")) << "/"
     << (Grid ? Grid->str() : std::string("?")) << "/" << Source << "/" << Branches << "/"
     << KnownDims[0] << "," << KnownDims[1] << "," << KnownDims[2];
  for (auto &A : Args)
    OS << "/" << A.first << "=" << A.second;
  for (auto &A : PointerOffsets)
    OS << "/" << A.first << "+" << A.second;
  return OS.str();
}

std::string AccessRecord::key() const {
  std::ostringstream OS;
  OS << baseName(Pos.File) << ":" << Pos.Line << ":" << Pos.Column << "|"
     << Kernel << "|" << Context << "|" << spaceName(Space) << "|" << opName(Op)
     << "|" << Array << "|" << (Launch.BlockKnown ? Launch.Block.str() : "?");
  return OS.str();
}

} // namespace coalesce
