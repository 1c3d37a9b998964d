//===- Emit.cpp - Turning records and findings into text and JSON --------===//

#include "Emit.h"

#include "Waste.h"

#include <cmath>
#include <sstream>

namespace coalesce {

namespace {

const char *Bold = "\033[1m";
const char *Reset = "\033[0m";
const char *Magenta = "\033[1;35m";
const char *Blue = "\033[1;34m";
const char *Black = "\033[1;30m";
const char *Green = "\033[1;32m";

std::string caret(const SourcePos &P, const TextStyle &S) {
  if (P.LineText.empty() || P.Line == 0)
    return "";
  std::ostringstream OS;
  std::string Num = std::to_string(P.Line);
  std::string Pad(Num.size() < 5 ? 5 - Num.size() : 0, ' ');
  OS << Pad << Num << " | " << P.LineText << "\n";
  OS << std::string(Pad.size() + Num.size(), ' ') << " | ";
  std::string Mark;
  for (unsigned C = 1; C < P.Column && C <= P.LineText.size(); ++C)
    Mark += P.LineText[C - 1] == '\t' ? '\t' : ' ';
  Mark += '^';
  if (P.EndColumn > P.Column + 1)
    Mark += std::string(P.EndColumn - P.Column - 1, '~');
  if (S.Color)
    OS << Green << Mark << Reset;
  else
    OS << Mark;
  OS << "\n";
  return OS.str();
}

std::string header(const SourcePos &P, const char *Kind, const char *KindColor,
                   const std::string &Msg, const TextStyle &S) {
  std::ostringstream OS;
  if (S.Color)
    OS << Bold;
  OS << P.str() << ": ";
  if (S.Color)
    OS << KindColor;
  OS << Kind << ": ";
  if (S.Color)
    OS << Reset << Bold;
  OS << Msg;
  if (S.Color)
    OS << Reset;
  return OS.str();
}

nlohmann::json number(double V) { return jsonNumber(V); }

/// A shared array's layout fix (report/LayoutFix.h) as JSON.
nlohmann::json layoutFixJson(const LayoutFix &F) {
  using nlohmann::json;
  json J;
  const SharedLayout &L = F.Layout;
  J["kind"] = L.K == SharedLayout::Pad ? "padding" : "swizzle";
  if (L.K == SharedLayout::Pad)
    J["pad_bytes"] = L.PadBytes;
  else
    J["swizzle"] = {{"unit_bytes", L.UnitBytes}, {"bits", L.Bits}, {"row_shift", L.Shift}};
  J["what"] = F.What;
  J["wavefronts_before"] = number(F.Before);
  J["wavefronts_after"] = number(F.After);
  J["array_wavefronts_per_warp_before"] = number(F.ArrayBefore);
  J["array_wavefronts_per_warp_after"] = number(F.ArrayAfter);
  J["accesses_checked"] = F.Accesses;
  J["extra_bytes"] = F.ExtraBytes;
  J["condition"] = F.Condition;
  J["alternative"] = F.Alternative.empty() ? json(nullptr) : json(F.Alternative);
  json Edits = json::array();
  for (const SourceEdit &E : F.Edits)
    Edits.push_back({{"file", E.Pos.File}, {"line", E.Pos.Line}, {"column", E.Pos.Column},
                     {"remove", E.RemoveLength}, {"insert", E.Insert}});
  J["edits"] = std::move(Edits);
  J["no_fix_it_why"] = F.WhyNot.empty() ? json(nullptr) : json(F.WhyNot);
  return J;
}

} // namespace

nlohmann::json jsonNumber(double V) {
  double R = std::round(V * 1e6) / 1e6;
  if (R == std::floor(R) && std::fabs(R) < 9e15)
    return static_cast<int64_t>(R);
  return R;
}

std::string renderFinding(const Finding &F, const TextStyle &Style) {
  std::ostringstream OS;
  const bool Remark = F.Level == Severity::Remark;
  OS << header(F.Pos, Remark ? "remark" : "warning", Remark ? Blue : Magenta,
               F.Message + " [" + F.checkName() + "]", Style)
     << "\n";
  OS << caret(F.Pos, Style);
  for (const FindingNote &N : F.Notes) {
    const SourcePos &P = N.Pos ? *N.Pos : F.Pos;
    OS << header(P, "note", Black, N.Message, Style) << "\n";
    if (N.Pos)
      OS << caret(*N.Pos, Style);
  }
  for (const FixIt &X : F.Fixes) {
    if (X.RemoveLength)
      OS << "fix-it: " << X.Pos.str() << ": replace " << X.RemoveLength
         << " characters with \"" << X.Insert << "\"\n";
    else if (!X.Insert.empty())
      OS << "fix-it: " << X.Pos.str() << ": insert \"" << X.Insert << "\"\n";
  }
  return OS.str();
}

nlohmann::json accessToJson(const AccessRecord &R) {
  using nlohmann::json;
  json J;
  J["file"] = R.Pos.File;
  J["line"] = R.Pos.Line;
  J["column"] = R.Pos.Column;
  if (R.Blame)
    J["shown_at"] = {{"file", R.Blame->At.File},
                     {"line", R.Blame->At.Line},
                     {"column", R.Blame->At.Column},
                     {"helper", R.Blame->Helper}};
  else
    J["shown_at"] = nullptr;
  J["kernel"] = R.Kernel;
  J["context"] = R.Context;
  json L;
  if (R.Launch.BlockKnown)
    L["block"] = {R.Launch.Block.X, R.Launch.Block.Y, R.Launch.Block.Z};
  else
    L["block"] = nullptr;
  if (R.Launch.Grid)
    L["grid"] = {R.Launch.Grid->X, R.Launch.Grid->Y, R.Launch.Grid->Z};
  else
    L["grid"] = nullptr;
  L["source"] = R.Launch.Source;
  L["branches"] = R.Launch.Branches;
  if (R.Launch.partlyKnown()) {
    L["block_known_dims"] = json::array();
    for (int64_t D : R.Launch.KnownDims)
      L["block_known_dims"].push_back(D ? json(D) : json(nullptr));
  } else {
    L["block_known_dims"] = nullptr;
  }
  L["block_option"] = R.Launch.BlockGivenBy;
  L["block_unknown"] = R.Launch.BlockUnknown;
  L["sites"] = json::array();
  for (const SourcePos &S : R.Launch.Sites)
    L["sites"].push_back(S.File + ":" + std::to_string(S.Line));
  L["args"] = json::object();
  for (auto &A : R.Launch.Args)
    L["args"][A.first] = A.second;
  L["pointer_offsets"] = json::object();
  for (auto &A : R.Launch.PointerOffsets)
    L["pointer_offsets"][A.first] = A.second;
  J["launch"] = L;
  J["space"] = spaceName(R.Space);
  J["op"] = opName(R.Op);
  J["array"] = R.Array;
  J["expression"] = R.Expression;
  J["element_type"] = R.ElementType;
  J["bytes_per_lane"] = R.BytesPerLane;
  if (!R.Instruction.empty())
    J["instruction"] = R.Instruction;
  J["instructions_per_access"] = R.InstructionsPerAccess;
  const Answer &A = R.Ans;
  const bool Known = A.known();
  const SpaceModel &Space = spaceModel(R.Space);
  const SpaceKeys &Keys = Space.Keys;
  auto Num = [&](double V) { return Known ? number(V) : json(nullptr); };
  J[Keys.JsonCost] = Num(A.cost());
  J[Keys.JsonIdeal] = Num(A.ideal());
  if (Space.ReportsLines)
    J["lines_per_request"] = Num(A.lines());
  if (Space.ReportsConflictWays) {
    J["conflict_ways"] = Num(A.ratio());
    J["layout_fix"] = R.Fix && Known ? layoutFixJson(*R.Fix) : json(nullptr);
    J["layout_fix_unavailable"] = R.NoFixWhy.empty() ? json(nullptr) : json(R.NoFixWhy);
  }
  // The range over the alignments only; a parametric answer's span over
  // the sizes is in its own object.
  if (const std::optional<CostSpan> &Range = A.alignmentRange(); Known && Range)
    J[Keys.JsonRange] = {number(Range->Min), number(Range->Max)};
  J["alignment_known"] = A.alignmentKnown();
  J["requests_per_warp"] =
      R.RequestsKnown ? number(R.RequestsPerWarp) : json(nullptr);
  J["requests_unknown_why"] =
      R.RequestsKnown ? json(nullptr) : json(requestsUnknownText(R));
  json Totals = json::array();
  for (const AccessRecord::LaunchTotal &T : R.LaunchTotals) {
    json Total = json::object();
    Total["grid"] = {T.Grid.X, T.Grid.Y, T.Grid.Z};
    json Sites = json::array();
    for (const SourcePos &S : T.Sites)
      Sites.push_back(S.str());
    Total["sites"] = Sites;
    Total["requests"] = number(T.Requests);
    Total[Keys.JsonTotal] = T.Units && Known ? number(*T.Units) : json(nullptr);
    Totals.push_back(Total);
  }
  J["launch_totals"] = Totals;
  // The excess over the ideal that ranks findings (Waste.h, docs/ranking.md).
  if (std::optional<Waste> W = recordWaste(R))
    J["waste"] = {{"scope", W->In == Waste::Scope::Launch ? "launch"
                            : W->In == Waste::Scope::Warp ? "warp"
                                                          : "warp-iteration"},
                  {"units", number(W->Units)},
                  {"weight", number(W->Weight)},
                  {"bytes", W->Bytes ? number(*W->Bytes) : json(nullptr)},
                  {"grid", W->In == Waste::Scope::Launch ? json{W->Grid.X, W->Grid.Y, W->Grid.Z}
                                                         : json(nullptr)}};
  else
    J["waste"] = nullptr;
  J["verdict"] = verdictName(R.verdict());
  J["answer"] = Answer::kindName(A.kind());
  const Reason &Why = A.why();
  J["reason"] = Why.Text;
  // The kinds' families: one name for the sentence shapes of one kind of
  // problem ("index-arithmetic" for "division-by-zero"), as programs match.
  J["reason_kind"] = Why.Kind == ReasonKind::None
                         ? json(nullptr)
                         : json(reasonKindName(reasonFamily(Why.Kind)));
  J["reason_cause"] = Why.Cause == ReasonKind::None
                          ? json(nullptr)
                          : json(reasonKindName(reasonFamily(Why.Cause)));
  // The facts a user could state that may settle an unknown (--assume,
  // --block), as the options that state them.
  J["settle"] = Known ? json::array() : json(Why.Settle);
  J["because"] = R.Because;
  J["contract"] = json::array();
  for (const ContractBreak &B : R.Contract)
    J["contract"].push_back({{"rule", B.Rule}, {"text", B.Text}});
  J["assumptions"] = json::array();
  J["assumption_kinds"] = json::array();
  for (const Assumption &A : R.Assumptions) {
    J["assumptions"].push_back(A.Text);
    J["assumption_kinds"].push_back(assumptionKindName(A.Kind));
  }
  J["witness"] = witnessedName(R.Witness);
  J["emitted"] = R.Emitted;
  J["witness_note"] = R.WitnessNote.empty() ? json(nullptr) : json(R.WitnessNote);
  if (R.Chance) {
    const AccessRecord::VectorChance &C = *R.Chance;
    J["vector_chance"] = {{"bytes_per_lane", C.Width},
                          {"accesses", C.Accesses},
                          {"lines", {C.FirstLine, C.LastLine}},
                          {"emitted", C.Emitted},
                          {"pointer", C.Pointer},
                          {"pointer_type", C.PointerType},
                          {"proven_alignment", C.ProvenAlign},
                          {"sectors_per_warp_before", C.SectorsBefore},
                          {"sectors_per_warp_after", C.SectorsAfter}};
  } else {
    J["vector_chance"] = nullptr;
  }
  if (R.Space == MemorySpace::Global) {
    // The thread-mapping fixes (cost/ThreadSwap.h), proven by a second walk.
    auto Change = [](const CostChange &C) {
      return json{{"position", C.Pos.str()},
                  {"space", spaceName(C.Space)},
                  {"op", C.Store ? "store" : "load"},
                  {"array", C.Array},
                  {"before", number(C.Before)},
                  {"after", number(C.After)},
                  {"ideal_after", number(C.IdealAfter)},
                  {"requests_per_warp_before", C.RequestsBefore > 0 ? number(C.RequestsBefore) : json(nullptr)},
                  {"requests_per_warp_after", C.RequestsAfter > 0 ? number(C.RequestsAfter) : json(nullptr)}};
    };
    if (R.Swap) {
      const ThreadSwapFix &F = *R.Swap;
      json Launches = json::array();
      for (const SwapLaunch &L : F.Launches) {
        json Sites = json::array();
        for (const SourcePos &S : L.Sites)
          Sites.push_back(S.File + ":" + std::to_string(S.Line));
        Launches.push_back({{"sites", Sites},
                            {"block_after", {L.Block.Y, L.Block.X, L.Block.Z}},
                            {"grid_after", L.Grid ? json{L.Grid->Y, L.Grid->X, L.Grid->Z}
                                                  : json(nullptr)}});
      }
      json Others = json::array();
      for (const CostChange &C : F.Others)
        Others.push_back(Change(C));
      J["thread_swap"] = {{"launches", Launches},
                          {"sectors_per_request_after", number(F.CostAfter)},
                          {"ideal_after", number(F.IdealAfter)},
                          {"other_accesses_changed", Others},
                          {"other_accesses_unchanged", F.Unchanged}};
    } else {
      J["thread_swap"] = nullptr;
    }
    if (R.Stage) {
      const StagedTransposeFix &S = *R.Stage;
      J["staged_transpose"] = {{"partner", Change(S.Partner)},
                               {"sectors_per_request_after", number(S.CostAfter)},
                               {"ideal_after", number(S.IdealAfter)},
                               {"tile", {S.Tile, S.Tile + S.Pad}},
                               {"element_type", S.ElementType},
                               {"padding", S.Pad},
                               {"row_wavefronts", number(S.RowWavefronts)},
                               {"column_wavefronts", number(S.ColumnWavefronts)},
                               {"column_wavefronts_unpadded", number(S.ColumnUnpadded)}};
    } else {
      J["staged_transpose"] = nullptr;
    }
    J["mapping_fix_unavailable"] = R.NoSwapWhy.empty() || R.Swap ? json(nullptr) : json(R.NoSwapWhy);
  }
  if (const ParametricCost *P = A.parametric(); P && Known)
    J["parametric"] = parametricToJson(*P, /*WithTable=*/true);
  if (R.Pattern && Known) {
    json Offs = json::array();
    for (unsigned L2 = 0; L2 < WarpSize; ++L2)
      Offs.push_back(laneActive(R.Pattern->Active, L2) ? json(R.Pattern->Offset[L2])
                                                        : json(nullptr));
    J["lane_offsets"] = Offs;
  } else {
    J["lane_offsets"] = nullptr;
  }
  return J;
}

nlohmann::json parametricToJson(const ParametricCost &P, bool WithTable) {
  using nlohmann::json;
  auto Point = [](const CostPoint &C) {
    json J{{"cost", jsonNumber(C.Cost)},
           {"ideal", jsonNumber(C.Ideal)},
           {"alignment_known", C.Exact}};
    if (!C.Exact) // the range over the alignments at this size
      J["range"] = {jsonNumber(C.Min), jsonNumber(C.Max)};
    return J;
  };
  json J;
  J["size"] = P.Name;
  J["assume"] = P.Stated;
  J["cases"] = json::array();
  for (const ParamCase &C : P.Cases) {
    json W;
    W["min"] = C.When.Min;
    W["max"] = C.When.Max ? json(*C.When.Max) : json(nullptr);
    W["modulus"] = C.When.Modulus;
    W["residues"] = C.When.Residues;
    json Case = Point(C.Cost);
    Case["when"] = W;
    Case["text"] = C.Text;
    J["cases"].push_back(Case);
  }
  J["periodic_from"] = P.PeriodicFrom;
  J["period"] = P.Period;
  // The cheapest and dearest of the cases that hold for all large sizes
  // (the span over sizes, not over alignments: that is the access's
  // `sectors_range`).
  J["large_sizes_range"] = {jsonNumber(P.LargeMin), jsonNumber(P.LargeMax)};
  if (WithTable) {
    J["table"] = json::array();
    for (const auto &[V, C] : P.Table) {
      json Row = Point(C);
      Row["value"] = V;
      J["table"].push_back(Row);
    }
  }
  return J;
}

nlohmann::json spacesToJson() {
  using nlohmann::json;
  json Out = json::array();
  auto OrNull = [](const char *S) { return *S ? json(S) : json(nullptr); };
  for (const SpaceModel &M : allSpaces()) {
    json J;
    J["space"] = M.Name;
    J["unit"] = M.Unit;
    J["units"] = costUnits(M.Space);
    J["counted_per"] = M.PerInstruction ? "instruction" : "request";
    J["excess_verdict"] = verdictName(M.Excess);
    J["period_bytes"] = M.Period;
    J["widest_access_bytes"] = M.WidestAccess;
    J["json"] = {{"cost", M.Keys.JsonCost},
                 {"ideal", M.Keys.JsonIdeal},
                 {"range", M.Keys.JsonRange},
                 {"total", M.Keys.JsonTotal}};
    J["sarif"] = {{"cost", M.Keys.SarifCost}, {"ideal", M.Keys.SarifIdeal}};
    J["ncu"] = {{"address_space", OrNull(M.Metrics.AddressSpace)},
                {"cost", OrNull(M.Metrics.CostColumn)},
                {"ideal", OrNull(M.Metrics.IdealColumn)}};
    const char *Pictures[] = {"sectors", "banks", "addresses", "none"};
    J["picture"] = Pictures[static_cast<int>(M.Picture)];
    Out.push_back(J);
  }
  return Out;
}

std::string spacesText() {
  std::ostringstream OS;
  for (const SpaceModel &M : allSpaces())
    OS << M.Name << ": " << costPerRequest(M.Space) << " (JSON " << M.Keys.JsonCost
       << ", SARIF " << M.Keys.SarifCost << "); more than the ideal: "
       << verdictName(M.Excess) << "\n";
  return OS.str();
}

nlohmann::json reportToJson(const std::vector<TUReport> &Reports,
                            const std::vector<std::string> &Errors) {
  using nlohmann::json;
  json J;
  J["version"] = 1;
  J["tool"] = {{"name", "coalesce-lint"}, {"version", COALESCE_VERSION}};
  J["files"] = json::array();
  J["accesses"] = json::array();
  J["kernels"] = json::array();
  J["errors"] = Errors;
  J["notes"] = json::array();
  J["witness"] = json::array();
  // The names of each space's numbers, for programs that read the report
  // (verify mode): the tool's own table, not a copy.
  J["spaces"] = spacesToJson();
  for (const TUReport &R : Reports) {
    J["files"].push_back(R.File);
    for (const AccessRecord &A : R.Accesses)
      J["accesses"].push_back(accessToJson(A));
    for (const KernelSummary &K : R.Kernels)
      J["kernels"].push_back({{"name", K.Name},
                              {"file", K.Pos.File},
                              {"line", K.Pos.Line},
                              {"accesses", K.Accesses},
                              {"findings", K.Findings},
                              {"unknowns", K.Unknowns},
                              {"budget_exceeded", K.BudgetExceeded},
                              {"not_analysed", K.NotAnalysed.empty()
                                                   ? nlohmann::json(nullptr)
                                                   : nlohmann::json(notAnalysedNote(K))}});
    for (const std::string &N : R.Notes)
      J["notes"].push_back(N);
    J["witness"].push_back(
        {{"file", R.File},
         {"used", !R.WitnessSource.empty()},
         {"source", R.WitnessSource.empty() ? json(nullptr) : json(R.WitnessSource)},
         {"cached", R.WitnessCached},
         {"not_used", R.WitnessNotUsed.empty() ? json(nullptr) : json(R.WitnessNotUsed)}});
  }
  return J;
}

std::string notAnalysedNote(const KernelSummary &K) {
  if (K.NotAnalysed.empty())
    return "";
  return "kernel '" + K.Name + "' is not analysed: clang reports an error in " +
         (K.ErrorFunction.empty() ? std::string("its code")
                                  : "'" + K.ErrorFunction + "', which it calls") +
         " at " + K.ErrorPos.str() + ": " + K.NotAnalysed;
}

std::string summaryLine(const std::vector<TUReport> &Reports) {
  unsigned Acc = 0, Ker = 0, Unc = 0, Bank = 0, Ser = 0, Unk = 0, Skipped = 0, ClangErrors = 0;
  for (const TUReport &R : Reports) {
    ClangErrors += R.ClangErrors;
    for (const KernelSummary &K : R.Kernels) {
      Skipped += !K.NotAnalysed.empty();
      Ker += K.NotAnalysed.empty();
    }
    for (const AccessRecord &A : R.Accesses) {
      ++Acc;
      const Verdict V = A.verdict();
      Unc += V == Verdict::Uncoalesced;
      Bank += V == Verdict::BankConflict;
      Ser += V == Verdict::Serialised;
      Unk += V == Verdict::Unknown;
    }
  }
  std::ostringstream OS;
  OS << Acc << " access" << (Acc == 1 ? "" : "es") << " in " << Ker << " kernel"
     << (Ker == 1 ? "" : "s") << ": " << Unc << " uncoalesced, " << Bank
     << " bank-conflicted, ";
  if (Ser)
    OS << Ser << " serialised, ";
  OS << Unk << " unknown";
  if (ClangErrors)
    OS << "; " << ClangErrors << " clang error" << (ClangErrors == 1 ? "" : "s") << ", "
       << Skipped << " kernel" << (Skipped == 1 ? "" : "s") << " not analysed";
  return OS.str();
}

} // namespace coalesce
