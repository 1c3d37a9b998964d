//===- Sarif.cpp - Findings as SARIF 2.1.0 for GitHub code scanning -------===//

#include "Sarif.h"

#include "Emit.h"
#include "Grouping.h"
#include "RuleDocs.h"
#include "SourceKey.h"
#include "Waste.h"

#include "llvm/Support/FileSystem.h"

#include <map>

namespace coalesce {

namespace {

using nlohmann::json;

const char *SrcRoot = "%SRCROOT%", *FsRoot = "%FSROOT%";

struct RuleMeta {
  const char *Id, *Name;
};
const RuleMeta Rules[] = {
#define COALESCE_RULE(Class, Id, Summary) {Id, #Class},
#include "Rules.def"
};

std::vector<std::string> tagsOf(const std::string &Id) {
  std::vector<std::string> Tags = {"cuda", "performance"};
  if (Id == "uncoalesced-global")
    Tags.push_back("global-memory");
  else if (Id == "shared-bank-conflict")
    Tags.push_back("shared-memory");
  return Tags;
}

/// Inline Markdown (emphasis, code spans) as plain text.
std::string plainText(const std::string &Md) {
  std::string Out;
  for (size_t I = 0; I < Md.size(); ++I) {
    if (Md[I] == '`' || (Md[I] == '*' && I + 1 < Md.size() && Md[I + 1] == '*')) {
      if (Md[I] == '*')
        ++I;
      continue;
    }
    Out += Md[I];
  }
  return Out;
}

/// Clang columns count bytes; SARIF's (run.columnKind) count code points.
unsigned codePointColumn(const std::string &LineText, unsigned ByteColumn) {
  if (LineText.empty() || ByteColumn == 0)
    return ByteColumn;
  unsigned Col = 1;
  for (size_t I = 0; I + 1 < ByteColumn; ++I) {
    if (I >= LineText.size()) {
      Col += ByteColumn - 1 - I; // past the text: one column per byte
      break;
    }
    if ((static_cast<unsigned char>(LineText[I]) & 0xC0) != 0x80)
      ++Col;
  }
  return Col;
}

/// A file under the source root is relative to %SRCROOT%; any other (an
/// input elsewhere, a header the header filter lets through) to %FSROOT%,
/// the file system root. No file: URI, so no path of the machine that ran
/// the analysis is needed to read the log, and none leaks into it.
json artifactLocation(const std::string &File, const std::string &Root) {
  if (auto Rel = relativePath(File, Root))
    return {{"uri", uriPath(*Rel)}, {"uriBaseId", SrcRoot}};
  const std::string Abs = absolutePath(File);
  return {{"uri", uriPath(llvm::StringRef(Abs).ltrim('/').str())}, {"uriBaseId", FsRoot}};
}

bool usesBase(const json &J, const char *Base) {
  if (J.is_object()) {
    auto It = J.find("uriBaseId");
    if (It != J.end() && *It == Base)
      return true;
  }
  if (J.is_structured())
    for (const json &V : J)
      if (usesBase(V, Base))
        return true;
  return false;
}

json region(const SourcePos &P, unsigned EndByteColumn) {
  json R;
  R["startLine"] = std::max(1u, P.Line);
  const unsigned Start = std::max(1u, codePointColumn(P.LineText, P.Column));
  R["startColumn"] = Start;
  unsigned End = EndByteColumn > P.Column ? codePointColumn(P.LineText, EndByteColumn) : Start + 1;
  R["endColumn"] = std::max(End, Start);
  if (EndByteColumn > P.Column && P.Column >= 1 && EndByteColumn - 1 <= P.LineText.size())
    R["snippet"] = {{"text", P.LineText.substr(P.Column - 1, EndByteColumn - P.Column)}};
  return R;
}

json physicalLocation(const SourcePos &P, const std::string &Root) {
  json L = {{"artifactLocation", artifactLocation(P.File, Root)},
            {"region", region(P, P.EndColumn)}};
  if (!P.LineText.empty())
    L["contextRegion"] = {{"startLine", std::max(1u, P.Line)},
                          {"snippet", {{"text", P.LineText}}}};
  return L;
}

json properties(const Finding &F) {
  json P = json::object();
  P["notes"] = json::array();
  for (const FindingNote &N : F.Notes)
    P["notes"].push_back(N.Message);
  const AccessRecord *R = F.Record;
  if (!R)
    return P;
  P["kernel"] = R->Kernel;
  // The same finding of several instantiations or launches (Grouping.h).
  std::vector<std::string> Kernels = kernelsOf(F);
  if (Kernels.size() > 1)
    P["kernels"] = Kernels;
  if (!R->Context.empty())
    P["context"] = R->Context;
  P["space"] = spaceName(R->Space);
  P["op"] = opName(R->Op);
  P["array"] = R->Array;
  P["expression"] = R->Expression;
  P["bytesPerLane"] = R->BytesPerLane;
  if (!R->Instruction.empty())
    P["instruction"] = R->Instruction;
  P["verdict"] = verdictName(R->verdict());
  // The compiler witness (docs/witness.md).
  P["witness"] = witnessedName(R->Witness);
  if (!R->Emitted.empty())
    P["emitted"] = R->Emitted;
  if (!R->Contract.empty()) {
    P["contract"] = json::array();
    for (const ContractBreak &B : R->Contract)
      P["contract"].push_back({{"rule", B.Rule}, {"text", B.Text}});
  }
  if (R->Chance) {
    P["vectorChance"] = {{"bytesPerLane", R->Chance->Width},
                         {"accesses", R->Chance->Accesses},
                         {"lines", {R->Chance->FirstLine, R->Chance->LastLine}},
                         {"sectorsPerWarpBefore", R->Chance->SectorsBefore},
                         {"sectorsPerWarpAfter", R->Chance->SectorsAfter}};
  }
  json Launch;
  Launch["block"] = R->Launch.BlockKnown
                        ? json{R->Launch.Block.X, R->Launch.Block.Y, R->Launch.Block.Z}
                        : json(nullptr);
  Launch["grid"] = R->Launch.Grid ? json{R->Launch.Grid->X, R->Launch.Grid->Y, R->Launch.Grid->Z}
                                  : json(nullptr);
  Launch["source"] = R->Launch.Source;
  if (!R->Launch.Branches.empty())
    Launch["branches"] = R->Launch.Branches;
  P["launch"] = Launch;
  const Answer &A = R->Ans;
  if (!A.known()) {
    P["reason"] = A.why().Text;
    return P;
  }
  const SpaceModel &Space = spaceModel(R->Space);
  P[Space.Keys.SarifCost] = jsonNumber(A.cost());
  P[Space.Keys.SarifIdeal] = jsonNumber(A.ideal());
  if (Space.ReportsConflictWays) {
    P["conflictWays"] = jsonNumber(A.ratio());
    if (R->Fix) {
      P["layoutFix"] = R->Fix->What;
      P["wavefrontsPerRequestAfterFix"] = jsonNumber(R->Fix->After);
    }
  }
  if (R->Swap) {
    P["mappingFix"] = "thread-swap";
    P["sectorsPerRequestAfterFix"] = jsonNumber(R->Swap->CostAfter);
  } else if (R->Stage) {
    P["mappingFix"] = "staged-transpose";
    P["sectorsPerRequestAfterFix"] = jsonNumber(R->Stage->CostAfter);
  }
  if (const std::optional<CostSpan> &Range = A.alignmentRange())
    P["costRange"] = {jsonNumber(Range->Min), jsonNumber(Range->Max)};
  P["requestsPerWarp"] = R->RequestsKnown ? jsonNumber(R->RequestsPerWarp) : json(nullptr);
  if (const ParametricCost *Param = A.parametric())
    P["parametric"] = parametricToJson(*Param, /*WithTable=*/false);
  return P;
}

/// The finding's fix: one SARIF fix whose replacements are all its edits
/// (a padding is one edit of the declaration, a swizzle one edit per use of
/// the array), grouped by file; described by the note at the first edit.
json fixes(const Finding &F, const std::string &Root) {
  if (F.Fixes.empty())
    return json::array();
  const FixIt &First = F.Fixes.front();
  std::string Desc;
  for (const FindingNote &N : F.Notes)
    if (N.Pos && N.Pos->File == First.Pos.File && N.Pos->Line == First.Pos.Line &&
        N.Pos->Column == First.Pos.Column)
      Desc = N.Message;
  if (Desc.empty())
    Desc = F.Fixes.size() == 1 ? "insert \"" + First.Insert + "\""
                               : std::to_string(F.Fixes.size()) + " edits";
  std::vector<std::string> Files;
  std::map<std::string, json> ByFile;
  for (const FixIt &X : F.Fixes) {
    json Deleted;
    Deleted["startLine"] = std::max(1u, X.Pos.Line);
    unsigned Start = std::max(1u, codePointColumn(X.Pos.LineText, X.Pos.Column));
    Deleted["startColumn"] = Start;
    Deleted["endColumn"] =
        X.RemoveLength ? codePointColumn(X.Pos.LineText, X.Pos.Column + X.RemoveLength) : Start;
    json Replacement = {{"deletedRegion", Deleted}};
    if (!X.Insert.empty())
      Replacement["insertedContent"] = {{"text", X.Insert}};
    if (!ByFile.count(X.Pos.File)) {
      Files.push_back(X.Pos.File);
      ByFile[X.Pos.File] = json::array();
    }
    ByFile[X.Pos.File].push_back(std::move(Replacement));
  }
  json Changes = json::array();
  for (const std::string &File : Files)
    Changes.push_back({{"artifactLocation", artifactLocation(File, Root)},
                       {"replacements", std::move(ByFile[File])}});
  return json::array({{{"description", {{"text", Desc}}}, {"artifactChanges", Changes}}});
}

std::string messageText(const Finding &F) {
  std::string S = F.Message;
  for (const FindingNote &N : F.Notes)
    S += "\n" + N.Message;
  return S;
}

} // namespace

std::string uriPath(const std::string &Path) {
  static const char *Hex = "0123456789ABCDEF";
  std::string Out;
  for (unsigned char C : Path) {
    if (std::isalnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/')
      Out += static_cast<char>(C);
    else {
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

std::string lineHash(const Finding &F) {
  return stableHash({F.checkName(), F.Record ? F.Record->Kernel : std::string(),
                     normaliseLineText(F.Pos.LineText)});
}

nlohmann::json findingsToSarif(const std::vector<Finding> &Findings,
                               const std::vector<std::string> &Errors,
                               const SarifOptions &Opts) {
  const std::string Root = absolutePath(Opts.SourceRoot.empty() ? "." : Opts.SourceRoot);

  json Driver;
  Driver["name"] = "coalesce-lint";
  Driver["version"] = COALESCE_VERSION;
  Driver["semanticVersion"] = COALESCE_VERSION;
  // Optional in SARIF: only an https URI configured at build time
  // (-DCOALESCE_INFORMATION_URI), never a path of the build machine.
  if (*COALESCE_INFORMATION_URI)
    Driver["informationUri"] = COALESCE_INFORMATION_URI;
  Driver["rules"] = json::array();
  std::map<std::string, size_t> RuleIndex;
  for (const auto &R : allRules()) {
    const std::string Id = R->id();
    std::string Name = Id;
    for (const RuleMeta &M : Rules)
      if (Id == M.Id)
        Name = M.Name;
    std::string Doc = ruleDocMarkdown(Id).str();
    std::string Full = ruleDocIntroduction(Id);
    json Rule;
    Rule["id"] = "coalesce-" + Id;
    Rule["name"] = Name;
    Rule["shortDescription"] = {{"text", R->summary()}};
    if (Full.empty())
      Rule["fullDescription"] = {{"text", R->summary()}};
    else
      Rule["fullDescription"] = {{"text", plainText(Full)}, {"markdown", Full}};
    Rule["help"] = {{"text", Doc.empty() ? std::string(R->summary()) : Doc},
                    {"markdown", Doc.empty() ? std::string(R->summary()) : Doc}};
    Rule["defaultConfiguration"] = {{"level", "warning"}};
    Rule["properties"] = {{"tags", tagsOf(Id)},
                          {"precision", "high"},
                          {"problem.severity", "warning"}};
    RuleIndex[Id] = Driver["rules"].size();
    Driver["rules"].push_back(Rule);
  }

  json Results = json::array();
  std::map<std::pair<std::string, std::string>, unsigned> Occurrences; // (file, hash)
  const std::vector<double> Ranks = wasteRanks(Findings);
  for (size_t FI = 0; FI < Findings.size(); ++FI) {
    const Finding &F = Findings[FI];
    json Res;
    Res["ruleId"] = F.checkName();
    if (RuleIndex.count(F.RuleId))
      Res["ruleIndex"] = RuleIndex[F.RuleId];
    Res["level"] = F.Level == Severity::Remark ? "note" : "warning";
    Res["message"] = {{"text", messageText(F)}};
    Res["locations"] = json::array({{{"physicalLocation", physicalLocation(F.Pos, Root)}}});
    json Related = json::array();
    for (const FindingNote &N : F.Notes)
      if (N.Pos) {
        json L = {{"id", Related.size() + 1},
                  {"physicalLocation", physicalLocation(*N.Pos, Root)},
                  {"message", {{"text", N.Message}}}};
        Related.push_back(L);
      }
    if (!Related.empty())
      Res["relatedLocations"] = Related;
    const std::string Hash = lineHash(F);
    const unsigned N = ++Occurrences[{absolutePath(F.Pos.File), Hash}];
    Res["partialFingerprints"] = {{"primaryLocationLineHash", Hash + ":" + std::to_string(N)}};
    if (Opts.Baseline)
      Res["baselineState"] = "new";
    if (!F.Fixes.empty())
      Res["fixes"] = fixes(F, Root);
    Res["properties"] = properties(F);
    // Worse findings rank higher (Waste.h): code scanning sorts by it.
    if (Ranks[FI] >= 0) {
      Res["rank"] = Ranks[FI];
      const Waste W = *findingWaste(F);
      Res["properties"]["wastedTraffic"] = {{"scope", W.scopeName()},
                                            {"units", jsonNumber(W.Units)},
                                            {"weight", jsonNumber(W.Weight)},
                                            {"bytes", W.Bytes ? jsonNumber(*W.Bytes) : json(nullptr)},
                                            {"text", W.text()}};
    }
    Results.push_back(Res);
  }

  json Invocation;
  Invocation["executionSuccessful"] = Errors.empty();
  if (!Errors.empty() || !Opts.Notifications.empty()) {
    Invocation["toolExecutionNotifications"] = json::array();
    for (const std::string &E : Errors)
      Invocation["toolExecutionNotifications"].push_back(
          {{"level", "error"}, {"message", {{"text", E}}}});
    for (const SarifOptions::Notification &N : Opts.Notifications) {
      json J = {{"level", N.Level}, {"message", {{"text", N.Text}}}};
      if (N.Pos)
        J["locations"] = json::array({{{"physicalLocation", physicalLocation(*N.Pos, Root)}}});
      Invocation["toolExecutionNotifications"].push_back(J);
    }
  }

  json Run;
  Run["tool"] = {{"driver", Driver}};
  Run["invocations"] = json::array({Invocation});
  // The bases have no uri: the consumer knows where its checkout is (GitHub
  // code scanning takes %SRCROOT%-relative URIs as repository paths).
  Run["originalUriBaseIds"] = {
      {SrcRoot,
       {{"description",
         {{"text", "the source root: the directory given with --source-root, or the one "
                   "coalesce-lint ran in"}}}}}};
  if (usesBase(Results, FsRoot))
    Run["originalUriBaseIds"][FsRoot] = {
        {"description",
         {{"text", "the file system root ('/') of the machine that ran coalesce-lint, for "
                   "files outside the source root"}}}};
  Run["columnKind"] = "unicodeCodePoints";
  Run["results"] = Results;

  json Doc;
  Doc["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  Doc["version"] = "2.1.0";
  Doc["runs"] = json::array({Run});
  return Doc;
}

std::vector<SarifOptions::Notification> runNotifications(const std::vector<TUReport> &Reports) {
  std::vector<SarifOptions::Notification> Out;
  for (const TUReport &R : Reports) {
    for (const KernelSummary &K : R.Kernels) {
      if (!K.NotAnalysed.empty())
        Out.push_back({"warning", notAnalysedNote(K), K.Pos});
      else if (K.BudgetExceeded)
        Out.push_back({"warning",
                       "kernel '" + K.Name +
                           "': the analysis ran out of its step budget; the accesses it did not "
                           "reach are unknown",
                       K.Pos});
    }
    if (!R.WitnessNotUsed.empty())
      Out.push_back({"note", R.File + ": the compiler witness was not used: " + R.WitnessNotUsed,
                     std::nullopt});
  }
  return Out;
}

} // namespace coalesce
