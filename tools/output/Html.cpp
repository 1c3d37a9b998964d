//===- Html.cpp - A self-contained HTML report with warp maps -------------===//

#include "Html.h"

#include "Emit.h"
#include "SourceKey.h"
#include "WarpMap.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace coalesce {

namespace {

const char *Style = R"css(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       margin: 0; color: #1d2330; background: #f5f6f8; }
header.top { background: #1d2330; color: #fff; padding: 18px 28px; }
header.top h1 { margin: 0 0 4px; font-size: 22px; }
header.top p { margin: 2px 0; color: #c9d1e0; }
main { padding: 12px 28px 40px; max-width: 1100px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 2px solid #d0d5de; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 18px 0 6px; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
nav table, table.numbers { border-collapse: collapse; }
nav td, nav th { padding: 2px 10px 2px 0; text-align: left; }
nav th { color: #5a6375; font-weight: 600; }
.kernel-meta { color: #5a6375; margin: 0 0 8px; }
details.access { background: #fff; border: 1px solid #d0d5de; border-left: 5px solid #8a94a6;
                 border-radius: 4px; margin: 10px 0; padding: 6px 12px; }
details.access.uncoalesced, details.access.bank-conflict { border-left-color: #c62828; }
details.access.unknown { border-left-color: #1565c0; }
details.access.ok { border-left-color: #2e7d32; }
details.access.silenced { border-left-color: #8a94a6; }
summary { cursor: pointer; padding: 2px 0; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; font-weight: 600;
         color: #fff; background: #8a94a6; vertical-align: 1px; }
.badge.uncoalesced, .badge.bank-conflict { background: #c62828; }
.badge.unknown { background: #1565c0; }
.badge.ok { background: #2e7d32; }
.badge.silenced { background: #6b7280; }
.loc { color: #5a6375; }
pre.src { background: #f0f2f5; padding: 6px 8px; border-radius: 3px; overflow-x: auto; margin: 6px 0; }
pre.src mark { background: #ffe08a; }
p.message { font-weight: 600; margin: 6px 0; }
p.message.remark { font-weight: normal; }
table.numbers td, table.numbers th { padding: 1px 14px 1px 0; text-align: left; vertical-align: top; }
table.numbers th { font-weight: normal; color: #5a6375; white-space: nowrap; }
h4 { font-size: 13px; margin: 10px 0 2px; color: #5a6375; text-transform: uppercase; letter-spacing: .04em; }
ul { margin: 2px 0 6px; padding-left: 20px; }
figure { margin: 8px 0 4px; overflow-x: auto; }
figcaption { color: #5a6375; font-size: 12px; }
.errors { background: #fdecea; border: 1px solid #f5c2bd; padding: 8px 12px; border-radius: 4px; }
svg.warp-map { background: #fff; }
svg .caption { font: 600 13px system-ui, "DejaVu Sans", sans-serif; fill: #1d2330; }
svg .axis { font: 12px system-ui, "DejaVu Sans", sans-serif; fill: #5a6375; }
svg .legend { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: #5a6375; }
svg .num { font: 10px "DejaVu Sans Mono", monospace; text-anchor: middle; fill: #1d2330; }
svg .num.small { font-size: 9px; }
svg .gap { font: 14px sans-serif; fill: #5a6375; text-anchor: middle; }
svg rect.lane { stroke: #1d2330; stroke-width: .6; fill-opacity: .85; }
svg rect.lane.off { fill: #fff; stroke: #b0b7c3; stroke-dasharray: 2 2; }
svg rect.sector { fill: #fff; stroke-width: 2; }
svg rect.bank { stroke: #5a6375; stroke-width: .6; }
svg path.link { fill: none; stroke-width: 1.2; stroke-opacity: .75; }
svg path.link.conflict { stroke: #c62828; }
svg path.link.clean { stroke: #1f77b4; }
)css";

std::string esc(const std::string &S) { return escapeXml(S); }

std::string verdictClass(const AccessRecord &R) { return verdictName(R.verdict()); }

std::string snippet(const SourcePos &P) {
  if (P.LineText.empty())
    return "";
  const std::string &T = P.LineText;
  size_t B = P.Column ? std::min<size_t>(P.Column - 1, T.size()) : 0;
  size_t E = P.EndColumn > P.Column ? std::min<size_t>(P.EndColumn - 1, T.size()) : B;
  std::ostringstream OS;
  OS << "<pre class=\"src\"><span class=\"loc\">" << P.Line << " | </span>" << esc(T.substr(0, B));
  if (E > B)
    OS << "<mark>" << esc(T.substr(B, E - B)) << "</mark>";
  OS << esc(T.substr(E)) << "</pre>\n";
  return OS.str();
}

void row(std::ostringstream &OS, const std::string &Name, const std::string &Value) {
  OS << "<tr><th>" << esc(Name) << "</th><td>" << esc(Value) << "</td></tr>\n";
}

std::string numbersTable(const AccessRecord &R) {
  std::ostringstream OS;
  OS << "<table class=\"numbers\">\n";
  const Answer &A = R.Ans;
  const SpaceModel &Space = spaceModel(R.Space);
  const bool Known = A.known();
  if (!Known) {
    row(OS, costPerRequest(R.Space), "unknown");
  } else {
    row(OS, costPerRequest(R.Space), formatNumber(A.cost()));
    row(OS, "ideal", formatNumber(A.ideal()));
    if (Space.ReportsConflictWays)
      row(OS, "bank conflict", formatNumber(A.ratio()) + "-way");
    if (std::optional<CostSpan> Range = A.rangeToShow())
      row(OS, "range (alignment unknown)", formatNumber(Range->Min) + " to " + formatNumber(Range->Max));
    if (std::optional<CostSpan> Sizes = A.sizeSpan(); Sizes && Sizes->wide())
      row(OS, "range (large sizes)", formatNumber(Sizes->Min) + " to " + formatNumber(Sizes->Max));
    if (Space.ReportsLines)
      row(OS, "128-byte lines per request", formatNumber(A.lines()));
    if (R.PaddedCost)
      row(OS, "after padding" + (R.PadDeclaration.empty() ? "" : " (" + R.PadDeclaration + ")"),
          formatNumber(*R.PaddedCost));
  }
  if (A.requestsDiffer())
    row(OS, "single requests", formatNumber(A.requests().Min) + " to " + formatNumber(A.requests().Max));
  row(OS, "requests per warp",
      R.RequestsKnown ? formatNumber(R.RequestsPerWarp) : "unknown");
  row(OS, "element", R.ElementType + ", " + std::to_string(R.BytesPerLane) + " bytes per lane" +
                         (R.InstructionsPerAccess > 1
                              ? ", " + std::to_string(R.InstructionsPerAccess) + " instructions"
                              : ""));
  std::string Block = R.Launch.BlockKnown ? R.Launch.Block.str() : "unknown";
  if (R.Launch.Grid)
    Block += ", grid " + R.Launch.Grid->str();
  row(OS, "block", Block);
  OS << "</table>\n";
  return OS.str();
}

void list(std::ostringstream &OS, const char *Title, const std::vector<std::string> &Items) {
  if (Items.empty())
    return;
  OS << "<h4>" << Title << "</h4>\n<ul>\n";
  for (const std::string &I : Items)
    OS << "<li>" << esc(I) << "</li>\n";
  OS << "</ul>\n";
}

std::string accessHtml(const AccessRecord &R, const Finding *F, const std::string &Silenced,
                       unsigned Id) {
  std::ostringstream OS;
  std::string Cls = verdictClass(R);
  const bool Open = F && !F->Message.empty();
  OS << "<details class=\"access " << Cls << (Silenced.empty() ? "" : " silenced") << "\" id=\"a"
     << Id << "\"" << (Open ? " open" : "") << ">\n<summary><span class=\"loc\">" << R.Pos.Line
     << ":" << R.Pos.Column << "</span> " << esc(accessPhrase(R)) << " <code>"
     << esc(R.Expression) << "</code> <span class=\"badge " << Cls << "\">" << esc(Cls)
     << "</span>";
  if (!Silenced.empty())
    OS << " <span class=\"badge silenced\">" << esc(Silenced) << "</span>";
  if (!R.Context.empty())
    OS << " <span class=\"loc\">" << esc(R.Context) << "</span>";
  OS << "</summary>\n";
  OS << snippet(R.Pos);
  if (F)
    OS << "<p class=\"message" << (F->Level == Severity::Remark ? " remark" : "") << "\">"
       << esc(F->Message) << " <span class=\"loc\">[" << esc(F->checkName()) << "]</span></p>\n";
  else if (!R.Ans.known())
    OS << "<p class=\"message remark\">" << esc(unknownPhrase(R).substr(1)) << "</p>\n";
  OS << numbersTable(R);

  std::vector<std::string> Evidence;
  if (F) {
    const std::string Assumed = assumptionNote(R); // listed under Assumptions
    for (const FindingNote &N : F->Notes)
      if (N.Message != Assumed)
        Evidence.push_back((N.Pos ? N.Pos->str() + ": " : std::string()) + N.Message);
  } else {
    if (!R.Ans.why().Text.empty())
      Evidence.push_back(R.Ans.why().Text);
    std::string E = laneEvidence(R);
    if (!E.empty())
      Evidence.push_back(E);
  }
  list(OS, F ? "Evidence" : "Why", Evidence);
  std::vector<std::string> Assumptions;
  if (!R.Context.empty())
    Assumptions.push_back(R.Context);
  Assumptions.push_back(R.Launch.describe());
  for (const Assumption &A : R.Assumptions)
    Assumptions.push_back(A.Text);
  if (!R.RequestsKnown)
    Assumptions.push_back(requestsUnknownText(R));
  list(OS, "Assumptions", Assumptions);
  list(OS, "Suggestions", R.Suggestions);
  std::string Svg = renderWarpMapSvg(R);
  if (!Svg.empty())
    OS << "<figure>\n" << Svg << "<figcaption>warp map of one request: lanes (top) to "
       << warpMapTargets(R) << " (bottom)</figcaption>\n</figure>\n";
  OS << "</details>\n";
  return OS.str();
}

} // namespace

std::string renderHtmlReport(const HtmlReportInput &In) {
  static const std::vector<TUReport> NoReports;
  static const std::vector<Finding> NoFindings;
  const std::vector<TUReport> &Reports = In.Reports ? *In.Reports : NoReports;
  const std::vector<Finding> &Findings = In.Findings ? *In.Findings : NoFindings;
  std::map<const AccessRecord *, const Finding *> ByRecord;
  for (const Finding &F : Findings) {
    if (F.Record)
      ByRecord[F.Record] = &F;
    for (const AccessRecord *R : F.Also) // the same finding, for other instantiations
      ByRecord[R] = &F;
  }
  const std::string Root = In.SourceRoot.empty() ? "." : In.SourceRoot;

  unsigned Warnings = 0, Remarks = 0;
  for (const Finding &F : Findings)
    (F.Level == Severity::Warning ? Warnings : Remarks)++;

  std::ostringstream OS;
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<title>coalesce-lint report</title>\n<style>" << Style << "</style>\n</head>\n<body>\n";
  OS << "<header class=\"top\">\n<h1>coalesce-lint report</h1>\n<p>" << esc(summaryLine(Reports))
     << "</p>\n<p>";
  if (!In.Summary.empty()) {
    OS << esc(In.Summary);
  } else {
    OS << Warnings << " finding" << (Warnings == 1 ? "" : "s") << ", " << Remarks << " remark"
       << (Remarks == 1 ? "" : "s");
    if (!In.Silenced.empty())
      OS << ", " << In.Silenced.size() << " silenced (inline comment, baseline or header filter)";
  }
  OS << " &middot; coalesce-lint " << COALESCE_VERSION << "</p>\n</header>\n<main>\n";
  if (!In.Errors.empty()) {
    OS << "<div class=\"errors\"><strong>Errors</strong><ul>\n";
    for (const std::string &E : In.Errors)
      OS << "<li>" << esc(E) << "</li>\n";
    OS << "</ul></div>\n";
  }

  // Table of contents, then the files.
  struct KernelBlock {
    std::string Name, Where, Anchor;
    std::vector<const AccessRecord *> Accesses;
    unsigned Findings = 0;
  };
  std::vector<std::pair<std::string, std::vector<KernelBlock>>> Files;
  unsigned KernelNo = 0;
  for (const TUReport &T : Reports) {
    std::vector<KernelBlock> Blocks;
    std::set<const AccessRecord *> Placed;
    for (const KernelSummary &K : T.Kernels) {
      KernelBlock B{K.Name, displayPath(K.Pos.File.empty() ? T.File : K.Pos.File, Root) + ":" +
                                std::to_string(K.Pos.Line),
                    "k" + std::to_string(++KernelNo), {}, 0};
      for (const AccessRecord &R : T.Accesses)
        if (R.Kernel == K.Name && !Placed.count(&R)) {
          B.Accesses.push_back(&R);
          Placed.insert(&R);
        }
      Blocks.push_back(std::move(B));
    }
    KernelBlock Rest{"(other accesses)", displayPath(T.File, Root), "k" + std::to_string(++KernelNo),
                     {}, 0};
    for (const AccessRecord &R : T.Accesses)
      if (!Placed.count(&R))
        Rest.Accesses.push_back(&R);
    if (!Rest.Accesses.empty())
      Blocks.push_back(std::move(Rest));
    for (KernelBlock &B : Blocks) {
      std::stable_sort(B.Accesses.begin(), B.Accesses.end(),
                       [](const AccessRecord *A, const AccessRecord *C) { return A->Pos < C->Pos; });
      for (const AccessRecord *R : B.Accesses)
        B.Findings += ByRecord.count(R) && ByRecord[R]->Level == Severity::Warning;
    }
    Files.push_back({displayPath(T.File, Root), std::move(Blocks)});
  }

  OS << "<nav>\n<h2>Kernels</h2>\n<table>\n<tr><th>kernel</th><th>file</th><th>accesses</th>"
     << "<th>findings</th></tr>\n";
  for (auto &[File, Blocks] : Files)
    for (const KernelBlock &B : Blocks)
      OS << "<tr><td><a href=\"#" << B.Anchor << "\"><code>" << esc(B.Name) << "</code></a></td><td>"
         << esc(B.Where) << "</td><td>" << B.Accesses.size() << "</td><td>" << B.Findings
         << "</td></tr>\n";
  OS << "</table>\n</nav>\n";

  unsigned AccessNo = 0;
  size_t FileIdx = 0;
  for (auto &[File, Blocks] : Files) {
    const TUReport &T = Reports[FileIdx++];
    OS << "<section class=\"file\">\n<h2 class=\"mono\">" << esc(File) << "</h2>\n";
    for (const std::string &N : T.Notes)
      OS << "<p class=\"loc\">note: " << esc(N) << "</p>\n";
    if (Blocks.empty())
      OS << "<p class=\"loc\">no kernels</p>\n";
    for (const KernelBlock &B : Blocks) {
      OS << "<section class=\"kernel\" id=\"" << B.Anchor << "\">\n<h3><code>" << esc(B.Name)
         << "</code></h3>\n<p class=\"kernel-meta\">" << esc(B.Where) << " &middot; "
         << B.Accesses.size() << " access" << (B.Accesses.size() == 1 ? "" : "es") << " &middot; "
         << B.Findings << " finding" << (B.Findings == 1 ? "" : "s") << "</p>\n";
      for (const AccessRecord *R : B.Accesses) {
        auto FIt = ByRecord.find(R);
        auto SIt = In.Silenced.find(R);
        OS << accessHtml(*R, FIt == ByRecord.end() ? nullptr : FIt->second,
                         SIt == In.Silenced.end() ? "" : SIt->second, ++AccessNo);
      }
      OS << "</section>\n";
    }
    OS << "</section>\n";
  }
  OS << "</main>\n</body>\n</html>\n";
  return OS.str();
}

} // namespace coalesce
