//===- Html.cpp - A self-contained HTML report with warp maps -------------===//

#include "Html.h"

#include "Selection.h"
#include "SourceKey.h"
#include "WarpMap.h"
#include "Waste.h"

#include "report/Numbers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Compression.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace coalesce {

namespace {

const char *Style = R"css(
:root { color-scheme: light; }
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       margin: 0; color: #1d2330; background: #f5f6f8; }
header.top { background: #1d2330; color: #fff; padding: 14px 28px; }
header.top h1 { margin: 0 0 4px; font-size: 22px; }
header.top p { margin: 2px 0; color: #c9d1e0; }
main { padding: 12px 28px 40px; }
main > section.file, main > nav, .errors { max-width: 1100px; }
footer { color: #5a6375; padding: 0 28px 20px; font-size: 12px; }
h2 { font-size: 18px; margin: 24px 0 8px; border-bottom: 2px solid #d0d5de; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 18px 0 6px; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
nav table, table.numbers, table.findings { border-collapse: collapse; }
nav td, nav th { padding: 2px 10px 2px 0; text-align: left; }
nav th { color: #5a6375; font-weight: 600; }
.controls { margin: 4px 0 8px; display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; }
.controls label { color: #5a6375; }
.controls output { color: #5a6375; }
table.findings { background: #fff; border: 1px solid #d0d5de; width: 100%; }
table.findings th, table.findings td { padding: 4px 8px; text-align: left; vertical-align: top;
                                       border-bottom: 1px solid #e3e6eb; }
table.findings th { background: #e9ecf1; white-space: nowrap; position: sticky; top: 0; }
table.findings th[data-sort] { cursor: pointer; user-select: none; }
table.findings th[aria-sort=ascending]::after { content: " \25B2"; font-size: 10px; }
table.findings th[aria-sort=descending]::after { content: " \25BC"; font-size: 10px; }
table.findings td.n { text-align: right; white-space: nowrap; }
table.findings td.rule { white-space: nowrap; }
table.findings td.where { overflow-wrap: anywhere; min-width: 10em; }
table.findings td.waste { min-width: 11em; }
table.findings td.message { min-width: 16em; }
table.findings tr.remark td { color: #5a6375; }
table.findings tr.warning td:first-child { border-left: 4px solid #c62828; }
table.findings tr.remark td:first-child { border-left: 4px solid #1565c0; }
td.waste b { font-weight: 600; }
.sub { color: #5a6375; font-size: 12px; }
.kernel-meta { color: #5a6375; margin: 0 0 8px; }
.kernel-meta ul { margin: 0; }
details.access { background: #fff; border: 1px solid #d0d5de; border-left: 5px solid #8a94a6;
                 border-radius: 4px; margin: 10px 0; padding: 6px 12px; }
details.access.ok { margin: 3px 0; padding: 2px 12px; }
details.access.uncoalesced, details.access.bank-conflict, details.access.serialised { border-left-color: #c62828; }
details.access.unknown { border-left-color: #1565c0; }
details.access.ok { border-left-color: #2e7d32; }
details.access.silenced { border-left-color: #8a94a6; }
details.access:target { box-shadow: 0 0 0 2px #ffb300; }
summary { cursor: pointer; padding: 2px 0; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; font-weight: 600;
         color: #fff; background: #8a94a6; vertical-align: 1px; }
.badge.uncoalesced, .badge.bank-conflict, .badge.serialised { background: #c62828; }
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

// The page's one script: sorts and filters the findings table (its state in
// the URL's fragment: #sort=[-]rank|waste|loc|kernel|rule|cost|message,
// rule=ID, level=warning|remark, q=TEXT), opens an access a link points at,
// and draws the warp maps of open accesses from the deflated store.
const char *Script = R"js(
(function () {
  'use strict';
  var T = document.getElementById('findings-table');
  if (T) {
    var body = T.tBodies[0], rows = [].slice.call(body.rows);
    var heads = [].slice.call(T.tHead.rows[0].cells);
    var C = document.getElementById('controls'), out = C.querySelector('output');
    var fRule = C.querySelector('[name=rule]'), fLevel = C.querySelector('[name=level]');
    var fText = C.querySelector('[name=q]');
    var coll = new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'});
    var cell = function (i) { return function (r) { return r.cells[i].textContent; }; };
    var rank = function (r) { return +r.dataset.rank; };
    // Each key in its natural order: the worst first for waste and cost.
    var KEYS = {rank: rank, waste: rank, loc: function (r) { return r.dataset.loc; },
                kernel: cell(3), rule: function (r) { return r.dataset.rule; },
                cost: function (r) { return r.dataset.ratio ? -r.dataset.ratio : Infinity; },
                message: cell(6)};
    var DOWN = {waste: 1, cost: 1};
    var S;
    var reset = function () { S = {sort: 'rank', desc: false, rule: '', level: '', q: ''}; };
    reset();
    C.hidden = false;
    var apply = function () {
      var key = KEYS[S.sort] ? S.sort : 'rank', f = KEYS[key], d = S.desc ? -1 : 1;
      rows.sort(function (a, b) {
        var x = f(a), y = f(b);
        var c = typeof x === 'number' ? (x < y ? -1 : x > y ? 1 : 0) : coll.compare(x, y);
        return d * c || rank(a) - rank(b);
      });
      var q = S.q.toLowerCase(), n = 0;
      rows.forEach(function (r) {
        var show = (!S.rule || r.dataset.rule === S.rule) && (!S.level || r.dataset.level === S.level) &&
                   (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
        r.hidden = !show;
        n += show;
        body.appendChild(r);
      });
      heads.forEach(function (h) {
        var k = h.dataset.sort;
        if (k) h.setAttribute('aria-sort', k !== key ? 'none' :
                              (!S.desc) !== !DOWN[k] ? 'descending' : 'ascending');
      });
      fRule.value = S.rule; fLevel.value = S.level;
      if (fText.value !== S.q) fText.value = S.q;
      out.textContent = n === rows.length ? rows.length + ' shown' : n + ' of ' + rows.length + ' shown';
      T.dataset.state = 'sort=' + (S.desc ? '-' : '') + key + '&rule=' + S.rule +
                        '&level=' + S.level + '&q=' + S.q;
    };
    var fromHash = function () {
      var h = location.hash.slice(1);
      if (h.indexOf('=') < 0) return false;
      reset();
      h.split('&').forEach(function (p) {
        var i = p.indexOf('=');
        if (i < 0) return;
        var k, v;
        try {
          k = decodeURIComponent(p.slice(0, i));
          v = decodeURIComponent(p.slice(i + 1).replace(/\+/g, ' '));
        } catch (e) { return; }
        if (k === 'sort') {
          S.desc = v.charAt(0) === '-';
          v = v.replace(/^-/, '');
          S.sort = v === 'line' || v === 'file' ? 'loc' : v;
        }
        else if (k === 'rule') S.rule = v.replace(/^coalesce-/, '');
        else if (k === 'level') S.level = v.replace(/s$/, '');
        else if (k === 'q' || k === 'filter') S.q = v;
      });
      return true;
    };
    var toHash = function () {
      var p = [];
      if (S.sort !== 'rank' || S.desc) p.push('sort=' + (S.desc ? '-' : '') + S.sort);
      if (S.rule) p.push('rule=' + encodeURIComponent(S.rule));
      if (S.level) p.push('level=' + S.level);
      if (S.q) p.push('q=' + encodeURIComponent(S.q));
      try {
        history.replaceState(null, '', p.length ? '#' + p.join('&') : location.pathname + location.search);
      } catch (e) {}
    };
    heads.forEach(function (h) {
      if (!h.dataset.sort) return;
      h.title = 'sort by this column (again: reverse)';
      h.tabIndex = 0;
      h.addEventListener('click', function () {
        if (S.sort === h.dataset.sort) S.desc = !S.desc; else { S.sort = h.dataset.sort; S.desc = false; }
        apply(); toHash();
      });
      h.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); h.click(); }
      });
    });
    fRule.addEventListener('change', function () { S.rule = fRule.value; apply(); toHash(); });
    fLevel.addEventListener('change', function () { S.level = fLevel.value; apply(); toHash(); });
    fText.addEventListener('input', function () { S.q = fText.value; apply(); toHash(); });
    fromHash();
    apply();
    window.addEventListener('hashchange', function () { if (fromHash()) apply(); });
  }

  // Warp maps: [[svg, caption], ...], deflated and base64-encoded (or JSON).
  var store = document.getElementById('warp-maps'), maps = null;
  var load = function () {
    if (maps) return maps;
    var enc = store.dataset.encoding, text = store.textContent.trim();
    if (enc === 'json') return (maps = Promise.resolve(JSON.parse(text)));
    if (!window.DecompressionStream)
      return (maps = Promise.reject(new Error('no DecompressionStream in this browser')));
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return (maps = new Response(stream).text().then(JSON.parse));
  };
  var draw = function (root) {
    var figs = [].slice.call(root.querySelectorAll('figure[data-map]:not([data-drawn])'));
    if (!store || !figs.length) return;
    figs.forEach(function (f) { f.dataset.drawn = ''; });
    load().then(function (all) {
      figs.forEach(function (f) {
        var m = all[+f.dataset.map];
        f.insertAdjacentHTML('beforeend', m[0] + '<figcaption>' + m[1] + '</figcaption>');
      });
    }, function (e) {
      figs.forEach(function (f) { f.textContent = 'warp map not drawn: ' + e.message; });
    });
  };
  [].forEach.call(document.querySelectorAll('details.access[open]'), draw);
  document.addEventListener('toggle', function (e) { if (e.target.open) draw(e.target); }, true);
  window.addEventListener('beforeprint', function () { draw(document); });
  var reveal = function () {
    var t = location.hash.length > 1 && document.getElementById(location.hash.slice(1));
    if (t && t.tagName === 'DETAILS') { t.open = true; draw(t); }
  };
  window.addEventListener('hashchange', reveal);
  reveal();
  document.body.dataset.ready = '';
})();
)js";

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

std::string elementText(const AccessRecord &R) {
  return R.ElementType + ", " + quantity(R.BytesPerLane, "byte") + " per lane" +
         (R.InstructionsPerAccess > 1 ? ", " + std::to_string(R.InstructionsPerAccess) + " instructions"
                                      : "");
}

std::string blockText(const AccessRecord &R) {
  std::string Block = R.Launch.BlockKnown ? R.Launch.Block.str() : "unknown";
  if (R.Launch.Grid)
    Block += ", grid " + R.Launch.Grid->str();
  return Block;
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
    if (R.Fix)
      row(OS, "after " + R.Fix->What, formatNumber(R.Fix->After));
  }
  if (A.requestsDiffer())
    row(OS, "single requests", formatNumber(A.requests().Min) + " to " + formatNumber(A.requests().Max));
  row(OS, "requests per warp", R.RequestsKnown ? formatNumber(R.RequestsPerWarp) : "unknown");
  row(OS, "element", elementText(R));
  row(OS, "block", blockText(R));
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

/// What an access assumes, in the order the page lists it.
std::vector<std::string> assumptionsOf(const AccessRecord &R) {
  std::vector<std::string> Out;
  if (!R.Context.empty())
    Out.push_back(R.Context);
  Out.push_back(R.Launch.describe());
  for (const Assumption &A : R.Assumptions)
    Out.push_back(A.Text);
  if (!R.RequestsKnown)
    Out.push_back(requestsUnknownText(R));
  return Out;
}

/// The warp maps of the page, one per distinct picture, drawn by the script.
class MapStore {
public:
  /// The index of R's map in the store, -1 without one.
  int add(const AccessRecord &R) {
    std::string Svg = renderWarpMapSvg(R);
    if (Svg.empty())
      return -1;
    std::string Caption = "warp map of one request: lanes (top) to " + esc(warpMapTargets(R)) +
                          " (bottom)";
    std::string Key = Svg + '\0' + Caption;
    auto [It, New] = Index.try_emplace(std::move(Key), Maps.size());
    if (New)
      Maps.push_back({std::move(Svg), std::move(Caption)});
    return static_cast<int>(It->second);
  }

  /// The data block: the maps as a JSON array of [svg, caption], deflated
  /// and in base64 where zlib is available, else as JSON.
  std::string element() const {
    nlohmann::json J = nlohmann::json::array();
    for (const auto &[Svg, Caption] : Maps)
      J.push_back({Svg, Caption});
    const std::string Text = J.dump();
    std::string Encoding, Data;
    if (llvm::compression::zlib::isAvailable()) {
      llvm::SmallVector<uint8_t, 0> Deflated;
      llvm::compression::zlib::compress(
          llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Text.data()), Text.size()),
          Deflated, llvm::compression::zlib::BestSizeCompression);
      Encoding = "deflate-base64";
      Data = llvm::encodeBase64(Deflated);
    } else {
      Encoding = "json";
      Data.reserve(Text.size());
      for (char C : Text) // "<" only occurs in strings: no "</script" in the block
        Data += C == '<' ? std::string("\\u003c") : std::string(1, C);
    }
    return "<script type=\"application/x-coalesce-warp-maps\" id=\"warp-maps\" data-encoding=\"" +
           Encoding + "\" data-count=\"" + std::to_string(Maps.size()) + "\">" + Data +
           "</script>\n";
  }

  bool empty() const { return Maps.empty(); }

private:
  std::map<std::string, size_t> Index;
  std::vector<std::pair<std::string, std::string>> Maps;
};

/// A map's place: filled by the script when its access is opened.
std::string mapFigure(MapStore &Maps, const AccessRecord &R) {
  int I = Maps.add(R);
  return I < 0 ? "" : "<figure class=\"map\" data-map=\"" + std::to_string(I) + "\"></figure>\n";
}

/// An access with nothing to say: one folded row.
std::string fineAccessHtml(const AccessRecord &R, unsigned Id, const std::set<std::string> &Shared,
                           MapStore &Maps) {
  std::ostringstream OS;
  OS << "<details class=\"access ok\" id=\"a" << Id << "\"><summary><span class=\"loc\">"
     << R.Pos.Line << ":" << R.Pos.Column << "</span> " << esc(accessPhrase(R)) << " <code>"
     << esc(R.Expression) << "</code> <span class=\"badge ok\">ok</span> <span class=\"loc\">"
     << esc(warpMapCaption(R)) << "</span></summary>\n";
  std::vector<std::string> Facts;
  if (!R.Ans.why().Text.empty())
    Facts.push_back(R.Ans.why().Text);
  if (std::string E = laneEvidence(R); !E.empty())
    Facts.push_back(E);
  Facts.push_back("requests per warp: " +
                  (R.RequestsKnown ? formatNumber(R.RequestsPerWarp) : std::string("unknown")) +
                  "; element: " + elementText(R) + "; block: " + blockText(R));
  for (const std::string &A : assumptionsOf(R))
    if (!Shared.count(A))
      Facts.push_back(A);
  OS << "<ul>\n";
  for (const std::string &F : Facts)
    OS << "<li>" << esc(F) << "</li>\n";
  OS << "</ul>\n" << mapFigure(Maps, R) << "</details>\n";
  return OS.str();
}

std::string accessHtml(const AccessRecord &R, const Finding *F, const std::string &Silenced,
                       unsigned Id, const std::set<std::string> &Shared, MapStore &Maps) {
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
  for (std::string &A : assumptionsOf(R))
    if (!Shared.count(A))
      Assumptions.push_back(std::move(A));
  list(OS, Shared.empty() ? "Assumptions" : "Other assumptions", Assumptions);
  list(OS, "Suggestions", R.Suggestions);
  OS << mapFigure(Maps, R);
  OS << "</details>\n";
  return OS.str();
}

/// The cost column of the findings table: "32 sectors, ideal 4 (8x)".
std::string costCell(const AccessRecord *R, double &Ratio) {
  Ratio = 0;
  if (!R)
    return "";
  const Answer &A = R->Ans;
  if (!A.known())
    return "unknown";
  std::string S = formatNumber(A.cost()) + " " + costUnits(R->Space) + ", ideal " +
                  formatNumber(A.ideal());
  if (A.ideal() > 0) {
    Ratio = A.cost() / A.ideal();
    S += " (" + formatNumber(std::round(Ratio * 100) / 100) + "x)";
  }
  return S;
}

const char *scopeKey(Waste::Scope S) {
  switch (S) {
  case Waste::Scope::Launch:
    return "launch";
  case Waste::Scope::Warp:
    return "warp";
  case Waste::Scope::WarpIteration:
    return "iteration";
  }
  return "";
}

/// The summary line when the caller gives none: the CLI's, of what the page shows.
std::string fallbackSummary(const HtmlReportInput &In, const std::vector<TUReport> &Reports,
                            const std::vector<Finding> &Findings) {
  Selection S;
  S.Shown = Findings;
  std::string Line = runSummary(Reports, S, false);
  if (!In.Silenced.empty())
    Line += "; not shown: " + std::to_string(In.Silenced.size()) +
            " silenced (inline comment, baseline or header filter)";
  return Line;
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

  // The files and kernels, each access numbered in page order (its anchor).
  struct KernelBlock {
    std::string Name, Where, Anchor;
    std::vector<const AccessRecord *> Accesses;
    unsigned Findings = 0;
  };
  std::vector<std::pair<std::string, std::vector<KernelBlock>>> Files;
  std::map<const AccessRecord *, unsigned> AccessId;
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
      for (const AccessRecord *R : B.Accesses) {
        B.Findings += ByRecord.count(R) && ByRecord[R]->Level == Severity::Warning;
        AccessId.emplace(R, AccessId.size() + 1);
      }
    }
    Files.push_back({displayPath(T.File, Root), std::move(Blocks)});
  }

  std::ostringstream OS;
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<title>coalesce-lint report</title>\n<style>" << Style << "</style>\n</head>\n<body>\n";
  OS << "<header class=\"top\">\n<h1>coalesce-lint report</h1>\n<p class=\"summary\" id=\"summary\">"
     << esc(In.Summary.empty() ? fallbackSummary(In, Reports, Findings) : In.Summary)
     << "</p>\n</header>\n<main>\n";
  if (!In.Errors.empty()) {
    OS << "<div class=\"errors\"><strong>Errors</strong><ul>\n";
    for (const std::string &E : In.Errors)
      OS << "<li>" << esc(E) << "</li>\n";
    OS << "</ul></div>\n";
  }

  // The findings, worst first: those with a waste by it (Waste.h), then the
  // warnings without one, then the remarks, each in the order given.
  std::vector<size_t> Order = rankByWaste(Findings);
  {
    std::vector<bool> Ranked(Findings.size());
    for (size_t I : Order)
      Ranked[I] = true;
    for (Severity L : {Severity::Warning, Severity::Remark})
      for (size_t I = 0; I < Findings.size(); ++I)
        if (!Ranked[I] && Findings[I].Level == L)
          Order.push_back(I);
  }
  OS << "<section id=\"findings\">\n<h2>Findings, worst first</h2>\n";
  if (Findings.empty()) {
    OS << "<p>No findings.</p>\n";
  } else {
    std::set<std::string> Rules;
    for (const Finding &F : Findings)
      Rules.insert(F.RuleId);
    OS << "<p class=\"sub\">Wasted traffic: what the access costs beyond its ideal, in extra "
          "sectors (with their bytes), wavefronts or constant-cache requests, per launch where "
          "the grid is known, else per warp; ranked with every extra unit weighed as a sector "
          "(docs/ranking.md). Click a column's heading to sort by it.</p>\n"
       << "<div class=\"controls\" id=\"controls\" hidden>\n<label>rule <select name=\"rule\">"
          "<option value=\"\">all</option>";
    for (const std::string &R : Rules)
      OS << "<option value=\"" << esc(R) << "\">" << esc(R) << "</option>";
    OS << "</select></label>\n<label>show <select name=\"level\"><option value=\"\">warnings and "
          "remarks</option><option value=\"warning\">warnings</option><option "
          "value=\"remark\">remarks</option></select></label>\n<label>text <input type=\"search\" "
          "name=\"q\" placeholder=\"file, kernel, message\"></label>\n<output></output>\n</div>\n"
       << "<table class=\"findings\" id=\"findings-table\">\n<thead><tr>"
       << "<th data-sort=\"rank\">#</th><th data-sort=\"waste\">wasted traffic</th>"
       << "<th data-sort=\"loc\">where</th><th data-sort=\"kernel\">kernel</th>"
       << "<th data-sort=\"rule\">rule</th><th data-sort=\"cost\">cost vs ideal</th>"
       << "<th data-sort=\"message\">message</th></tr></thead>\n<tbody>\n";
    unsigned Rank = 0;
    for (size_t I : Order) {
      const Finding &F = Findings[I];
      const AccessRecord *R = F.Record;
      const std::optional<Waste> W = findingWaste(F);
      const SourcePos &P = F.Pos.File.empty() && R ? R->Pos : F.Pos;
      const std::string File = displayPath(P.File, Root);
      const char *Level = F.Level == Severity::Remark ? "remark" : "warning";
      double Ratio = 0;
      const std::string Cost = costCell(R, Ratio);
      OS << "<tr class=\"" << Level << "\" data-rank=\"" << ++Rank << "\" data-level=\"" << Level
         << "\" data-rule=\"" << esc(F.RuleId) << "\" data-loc=\"" << esc(File) << ":" << P.Line
         << ":" << P.Column << "\"";
      if (Ratio > 0)
        OS << " data-ratio=\"" << formatNumber(std::round(Ratio * 1000) / 1000) << "\"";
      if (W)
        OS << " data-scope=\"" << scopeKey(W->In) << "\" data-weight=\"" << formatNumber(W->Weight)
           << "\"";
      OS << "><td class=\"n\">" << Rank << "</td><td class=\"waste\">";
      if (W) {
        // The bytes (sectors) or the extra units (wavefronts, constant-cache
        // requests) in bold, then the rest of the waste's text ("65,536
        // extra sectors per launch of grid (512, 1, 1)").
        std::string Text = W->text(), Head;
        if (W->Bytes) {
          Head = formatBytes(*W->Bytes);
          if (size_t At = Text.find(" (" + Head + ")"); At != std::string::npos)
            Text.erase(At, Head.size() + 3);
        } else {
          Head = formatCount(W->Units) + " " + spaceModel(R->Space).Unit + "s";
        }
        OS << "<b>" << esc(Head) << "</b><br><span class=\"sub\">" << esc(Text) << "</span>";
      }
      else
        OS << "<span class=\"sub\">" << (R && !R->Ans.known() ? "unknown cost" : "none known")
           << "</span>";
      OS << "</td><td class=\"where\">";
      auto Id = R ? AccessId.find(R) : AccessId.end();
      if (Id != AccessId.end())
        OS << "<a href=\"#a" << Id->second << "\">" << esc(File) << ":" << P.Line << "</a>";
      else
        OS << esc(File) << ":" << P.Line;
      OS << "</td><td>";
      std::vector<std::string> Kernels;
      auto AddKernel = [&](const AccessRecord *K) {
        if (K && std::find(Kernels.begin(), Kernels.end(), K->Kernel) == Kernels.end())
          Kernels.push_back(K->Kernel);
      };
      AddKernel(R);
      for (const AccessRecord *A : F.Also)
        AddKernel(A);
      for (size_t K = 0; K < Kernels.size(); ++K)
        OS << (K ? ", " : "") << "<code>" << esc(Kernels[K]) << "</code>";
      OS << "</td><td class=\"rule\">" << esc(F.RuleId) << "</td><td>" << esc(Cost)
         << "</td><td class=\"message\">" << esc(F.Message) << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  OS << "</section>\n";

  OS << "<nav>\n<h2>Kernels</h2>\n<table>\n<tr><th>kernel</th><th>file</th><th>accesses</th>"
     << "<th>findings</th></tr>\n";
  for (auto &[File, Blocks] : Files)
    for (const KernelBlock &B : Blocks)
      OS << "<tr><td><a href=\"#" << B.Anchor << "\"><code>" << esc(B.Name) << "</code></a></td><td>"
         << esc(B.Where) << "</td><td>" << B.Accesses.size() << "</td><td>" << B.Findings
         << "</td></tr>\n";
  OS << "</table>\n</nav>\n";
  OS << "<noscript><p class=\"sub\">The warp maps and the table's sorting and filters need the "
        "page's inline script; <code>coalesce-lint --explain</code> prints the maps as text.</p>"
        "</noscript>\n";

  MapStore Maps;
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
      // What every access of the kernel assumes is said once, here.
      std::set<std::string> Shared;
      std::vector<std::string> SharedInOrder;
      if (B.Accesses.size() > 1) {
        SharedInOrder = assumptionsOf(*B.Accesses.front());
        for (const AccessRecord *R : B.Accesses) {
          std::vector<std::string> Mine = assumptionsOf(*R);
          std::set<std::string> MineSet(Mine.begin(), Mine.end());
          SharedInOrder.erase(std::remove_if(SharedInOrder.begin(), SharedInOrder.end(),
                                             [&](const std::string &A) { return !MineSet.count(A); }),
                              SharedInOrder.end());
        }
        Shared.insert(SharedInOrder.begin(), SharedInOrder.end());
        SharedInOrder.erase(std::unique(SharedInOrder.begin(), SharedInOrder.end()),
                            SharedInOrder.end());
      }
      if (!SharedInOrder.empty()) {
        OS << "<div class=\"kernel-meta\">Every access below assumes:<ul>\n";
        for (const std::string &A : SharedInOrder)
          OS << "<li>" << esc(A) << "</li>\n";
        OS << "</ul></div>\n";
      }
      for (const AccessRecord *R : B.Accesses) {
        auto FIt = ByRecord.find(R);
        auto SIt = In.Silenced.find(R);
        const unsigned Id = AccessId[R];
        if (FIt == ByRecord.end() && SIt == In.Silenced.end() && R->Ans.known() &&
            R->verdict() == Verdict::Ok)
          OS << fineAccessHtml(*R, Id, Shared, Maps);
        else
          OS << accessHtml(*R, FIt == ByRecord.end() ? nullptr : FIt->second,
                           SIt == In.Silenced.end() ? "" : SIt->second, Id, Shared, Maps);
      }
      OS << "</section>\n";
    }
    OS << "</section>\n";
  }
  OS << "</main>\n<footer>coalesce-lint " << COALESCE_VERSION << "</footer>\n";
  if (!Maps.empty())
    OS << Maps.element();
  OS << "<script>" << Script << "</script>\n</body>\n</html>\n";
  return OS.str();
}

} // namespace coalesce
