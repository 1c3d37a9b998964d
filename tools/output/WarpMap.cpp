//===- WarpMap.cpp - Pictures of one request: lanes -> sectors or banks ----===//

#include "WarpMap.h"

#include "Rule.h"
#include "model/BankModel.h"
#include "model/ConstantModel.h"
#include "model/SectorModel.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace coalesce {

std::string escapeXml(const std::string &S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  }
  return Out;
}

std::vector<int64_t> WarpMap::units() const {
  std::set<int64_t> S;
  for (const WarpMapLane &L : Lanes)
    if (L.Active)
      for (int64_t X = L.First; X <= L.Last; ++X)
        S.insert(X);
  return {S.begin(), S.end()};
}

int64_t WarpMap::bankOf(int64_t Word) { return bankOfWord(Word); }

std::array<unsigned, 32> WarpMap::wordsPerBank(unsigned P) const {
  std::array<std::set<int64_t>, 32> Words;
  for (unsigned L = P * LanesPerPhase; L < (P + 1) * LanesPerPhase; ++L)
    if (Lanes[L].Active)
      for (int64_t W = Lanes[L].First; W <= Lanes[L].Last; ++W)
        Words[bankOf(W)].insert(W);
  std::array<unsigned, 32> N{};
  for (unsigned B = 0; B < 32; ++B)
    N[B] = Words[B].size();
  return N;
}

std::optional<WarpMap> buildWarpMap(const AccessRecord &R) {
  // Local memory interleaves the lanes' own offsets word by word: a map of
  // its sectors is not drawn (yet).
  if (!R.Pattern || !R.Ans.known())
    return std::nullopt;
  const LanePattern &P = *R.Pattern;
  const unsigned First = firstLane(P.Active);
  if (First >= WarpSize)
    return std::nullopt;
  WarpMap M;
  switch (spaceModel(R.Space).Picture) {
  case SpacePicture::Sectors: M.Kind = WarpMapKind::Sectors; break;
  case SpacePicture::Banks: M.Kind = WarpMapKind::Banks; break;
  case SpacePicture::Addresses: M.Kind = WarpMapKind::Addresses; break;
  case SpacePicture::None: return std::nullopt;
  }
  M.BytesPerLane = std::max(1u, P.BytesPerLane ? P.BytesPerLane : R.BytesPerLane);
  M.FirstLane = First;
  M.StartInSector = floorMod(P.BaseResidue, SectorBytes);
  M.LanesPerPhase = M.Kind == WarpMapKind::Banks ? lanesPerPhase(M.BytesPerLane) : WarpSize;
  if (M.LanesPerPhase == 0 || WarpSize % M.LanesPerPhase)
    M.LanesPerPhase = WarpSize;
  // The units the models count (model/SectorModel.h, model/BankModel.h,
  // model/ConstantModel.h).
  const std::vector<int64_t> Addresses = constantAddresses(P.Offset, P.Active);
  for (unsigned L = 0; L < WarpSize; ++L) {
    WarpMapLane &C = M.Lanes[L];
    C.Active = laneActive(P.Active, L);
    if (!C.Active)
      continue;
    C.Offset = P.Offset[L];
    UnitSpan Span{0, 0};
    switch (M.Kind) {
    case WarpMapKind::Sectors:
      Span = sectorsTouched(M.StartInSector + C.Offset, M.BytesPerLane);
      break;
    case WarpMapKind::Banks:
      Span = wordsTouched(P.BaseResidue + C.Offset, M.BytesPerLane);
      break;
    case WarpMapKind::Addresses:
      Span.First = Span.Last =
          std::lower_bound(Addresses.begin(), Addresses.end(), C.Offset) - Addresses.begin();
      break;
    }
    C.First = Span.First;
    C.Last = Span.Last;
  }
  return M;
}

std::string warpMapCaption(const AccessRecord &R) {
  const Answer &A = R.Ans;
  std::string S = costPhrase(A.cost(), R.Space) + " (ideal " + formatNumber(A.ideal()) + ")";
  if (std::optional<CostSpan> Range = A.rangeToShow())
    S += ", " + formatNumber(Range->Min) + " to " + formatNumber(Range->Max) +
         " depending on the alignment";
  if (spaceModel(R.Space).ReportsConflictWays && A.excessOver(1))
    S += ": " + formatNumber(A.ratio()) + "-way bank conflict";
  if (A.requestsDiffer())
    S += "; single requests cost " + formatNumber(A.requests().Min) + " to " +
         formatNumber(A.requests().Max) + ", the map shows one of them";
  return S;
}

std::string warpMapTargets(const AccessRecord &R) {
  return spaceModel(R.Space).PictureTargets;
}

namespace {

std::string laneRange(unsigned A, unsigned B) {
  std::ostringstream OS;
  OS << "lanes " << (A < 10 ? " " : "") << A << "-" << B << (B < 10 ? " " : "");
  return OS.str();
}

std::string pad(const std::string &S, size_t W) {
  return S.size() >= W ? S : std::string(W - S.size(), ' ') + S;
}

std::string globalText(const WarpMap &M, const AccessRecord &R, const std::string &In) {
  std::ostringstream OS;
  std::array<std::string, 32> Cell;
  size_t W = 1;
  for (unsigned L = 0; L < WarpSize; ++L) {
    const WarpMapLane &C = M.Lanes[L];
    Cell[L] = !C.Active ? "." : std::to_string(C.First) + (C.Last > C.First ? "+" : "");
    W = std::max(W, Cell[L].size());
  }
  OS << In << "warp map: lane -> 32-byte sector, numbered from lane " << M.FirstLane
     << "'s sector ('.' inactive";
  bool Straddle = false;
  for (const WarpMapLane &C : M.Lanes)
    Straddle |= C.Active && C.Last > C.First;
  if (Straddle)
    OS << ", '+' the lane's " << M.BytesPerLane << " bytes run into the next sector";
  OS << ")\n";
  for (unsigned Row = 0; Row < 4; ++Row) {
    OS << In << "  " << laneRange(Row * 8, Row * 8 + 7) << " |";
    for (unsigned L = Row * 8; L < Row * 8 + 8; ++L)
      OS << " " << pad(Cell[L], W);
    OS << "\n";
  }
  OS << In << "  " << M.BytesPerLane << " byte" << (M.BytesPerLane == 1 ? "" : "s")
     << " per lane; lane " << M.FirstLane << " starts " << M.StartInSector
     << " bytes into its sector" << (R.Ans.alignmentKnown() ? "" : " (assumed alignment)") << "; "
     << warpMapCaption(R) << "\n";
  return OS.str();
}

std::string sharedText(const WarpMap &M, const AccessRecord &R, const std::string &In) {
  std::ostringstream OS;
  OS << In << "warp map: lane -> bank of its first 4-byte word (bank = byte address / 4 mod 32";
  if (M.BytesPerLane > 4)
    OS << (M.BytesPerLane == 8 ? "; an " : "; a ") << M.BytesPerLane << "-byte access covers " << M.BytesPerLane / 4
       << " consecutive banks";
  OS << "; '.' inactive)\n";
  for (unsigned Row = 0; Row < 4; ++Row) {
    OS << In << "  " << laneRange(Row * 8, Row * 8 + 7) << " |";
    for (unsigned L = Row * 8; L < Row * 8 + 8; ++L) {
      const WarpMapLane &C = M.Lanes[L];
      OS << " " << pad(C.Active ? std::to_string(WarpMap::bankOf(C.First)) : ".", 2);
    }
    OS << "\n";
  }
  OS << In << "distinct words each bank must deliver, per phase of " << M.LanesPerPhase
     << " lanes ('.' none):\n";
  for (unsigned Half = 0; Half < 2; ++Half) {
    OS << In << "  " << std::string(laneRange(0, 31).size() - 4, ' ') << "bank |";
    for (unsigned B = Half * 16; B < Half * 16 + 16; ++B)
      OS << " " << pad(std::to_string(B), 2);
    OS << "\n";
    for (unsigned P = 0; P < M.phases(); ++P) {
      bool Any = false;
      for (unsigned L = P * M.LanesPerPhase; L < (P + 1) * M.LanesPerPhase; ++L)
        Any |= M.Lanes[L].Active;
      if (!Any)
        continue;
      std::array<unsigned, 32> N = M.wordsPerBank(P);
      OS << In << "  " << laneRange(P * M.LanesPerPhase, (P + 1) * M.LanesPerPhase - 1) << " |";
      for (unsigned B = Half * 16; B < Half * 16 + 16; ++B)
        OS << " " << pad(N[B] ? std::to_string(N[B]) : ".", 2);
      OS << "\n";
    }
  }
  OS << In << "  " << warpMapCaption(R) << "\n";
  return OS.str();
}

std::string constantText(const WarpMap &M, const AccessRecord &R, const std::string &In) {
  std::ostringstream OS;
  std::array<std::string, 32> Cell;
  size_t W = 1;
  for (unsigned L = 0; L < WarpSize; ++L) {
    const WarpMapLane &C = M.Lanes[L];
    Cell[L] = C.Active ? std::to_string(C.First) : ".";
    W = std::max(W, Cell[L].size());
  }
  OS << In << "warp map: lane -> the address it reads, numbered in address order "
     << "(one constant-cache request per distinct address; '.' inactive)\n";
  for (unsigned Row = 0; Row < 4; ++Row) {
    OS << In << "  " << laneRange(Row * 8, Row * 8 + 7) << " |";
    for (unsigned L = Row * 8; L < Row * 8 + 8; ++L)
      OS << " " << pad(Cell[L], W);
    OS << "\n";
  }
  const size_t N = M.units().size();
  OS << In << "  " << M.BytesPerLane << " byte" << (M.BytesPerLane == 1 ? "" : "s")
     << " per lane; " << N << " distinct address" << (N == 1 ? "" : "es") << "; "
     << warpMapCaption(R) << "\n";
  return OS.str();
}

// SVG geometry.
constexpr int Left = 78, Pitch = 28, Box = 24, Right = 16;
constexpr int Width = Left + 32 * Pitch + Right;

/// One straight segment of a link path: "M x1 y1 L x2 y2".
std::string segment(double X1, double Y1, double X2, double Y2) {
  std::ostringstream OS;
  OS << "M" << X1 << " " << Y1 << "L" << X2 << " " << Y2;
  return OS.str();
}

const char *Palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

void laneBoxes(std::ostringstream &OS, const WarpMap &M, unsigned From, unsigned To, int Y,
               double LanePitch, const std::vector<std::string> &Fill,
               const std::vector<std::string> &Tip) {
  OS << "<text x=\"8\" y=\"" << Y + 16 << "\" class=\"axis\">lanes</text>\n";
  for (unsigned L = From; L < To; ++L) {
    double X = Left + (L - From) * LanePitch + (LanePitch - Box) / 2;
    const bool On = M.Lanes[L].Active;
    OS << "<g><title>" << escapeXml(Tip[L]) << "</title><rect x=\"" << X << "\" y=\"" << Y
       << "\" width=\"" << Box << "\" height=\"" << 20 << "\" rx=\"3\" class=\""
       << (On ? "lane" : "lane off") << "\"" << (On ? " style=\"fill:" + Fill[L] + "\"" : "")
       << "/><text x=\"" << X + Box / 2.0 << "\" y=\"" << Y + 14
       << "\" class=\"num\">" << L << "</text></g>\n";
  }
}

/// Lanes linked to the units they touch, drawn in a row: the 32-byte
/// sectors of a global access, or the distinct addresses of a constant one.
std::string unitsSvg(const WarpMap &M, const AccessRecord &R) {
  const bool Sectors = M.Kind == WarpMapKind::Sectors;
  std::vector<int64_t> S = M.units();
  const size_t N = S.size();
  const double SPitch = std::min<double>(Pitch, 32.0 * Pitch / std::max<size_t>(N, 1));
  const double SBox = std::max(4.0, SPitch - 4);
  const double X0 = Left + (32 * Pitch - N * SPitch) / 2;
  bool LongLabels = false;
  for (int64_t V : S)
    LongLabels |= std::to_string(V).size() * 6.5 > SPitch;
  const int LaneY = 34, SecY = 150;
  const int Height = SecY + 28 + (LongLabels ? 46 : 16) + 20;
  auto SecX = [&](int64_t Sec) {
    size_t I = std::lower_bound(S.begin(), S.end(), Sec) - S.begin();
    return X0 + I * SPitch + SPitch / 2;
  };
  auto Color = [&](int64_t Sec) {
    size_t I = std::lower_bound(S.begin(), S.end(), Sec) - S.begin();
    return std::string(Palette[I % 10]);
  };
  std::ostringstream OS;
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"warp-map\" role=\"img\" width=\""
     << Width << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << " " << Height
     << "\">\n<title>"
     << escapeXml(std::string(Sectors ? "lanes to 32-byte sectors: "
                                      : "lanes to the addresses they read: ") +
                  warpMapCaption(R))
     << "</title>\n";
  OS << "<text x=\"8\" y=\"18\" class=\"caption\">" << escapeXml(warpMapCaption(R))
     << "</text>\n";
  const std::string Noun = Sectors ? "sector " : "address ";
  std::vector<std::string> Fill(32), Tip(32);
  std::map<int64_t, int64_t> OffsetOf; // an address's byte offset from the first lane's
  for (unsigned L = 0; L < 32; ++L) {
    const WarpMapLane &C = M.Lanes[L];
    Fill[L] = C.Active ? Color(C.First) : "";
    Tip[L] = "lane " + std::to_string(L) +
             (C.Active ? ": byte " + std::string(C.Offset < 0 ? "" : "+") +
                             std::to_string(C.Offset) + ", " + Noun + std::to_string(C.First) +
                             (C.Last > C.First ? " to " + std::to_string(C.Last) : "")
                       : ": inactive");
    if (C.Active)
      OffsetOf.emplace(C.First, C.Offset);
  }
  // Links first, so the boxes cover their ends: one path per colour.
  std::map<std::string, std::string> Paths;
  for (unsigned L = 0; L < 32; ++L) {
    const WarpMapLane &C = M.Lanes[L];
    if (!C.Active)
      continue;
    for (int64_t Sec = C.First; Sec <= C.Last; ++Sec)
      Paths[Color(C.First)] += segment(Left + L * Pitch + Pitch / 2.0, LaneY + 20, SecX(Sec), SecY);
  }
  for (const auto &[Stroke, D] : Paths)
    OS << "<path d=\"" << D << "\" fill=\"none\" stroke=\"" << Stroke << "\" class=\"link\"/>\n";
  laneBoxes(OS, M, 0, 32, LaneY, Pitch, Fill, Tip);
  OS << "<text x=\"8\" y=\"" << SecY + 16 << "\" class=\"axis\">"
     << (Sectors ? "sectors" : "addresses") << "</text>\n";
  for (size_t I = 0; I < N; ++I) {
    double X = X0 + I * SPitch + (SPitch - SBox) / 2;
    std::string Label = std::to_string(S[I]);
    if (Sectors)
      OS << "<g><title>sector " << Label << " (bytes " << S[I] * 32 << " to " << S[I] * 32 + 31
         << " from the start of lane " << M.FirstLane << "'s sector)</title>";
    else
      OS << "<g><title>address " << Label << " (byte " << (OffsetOf[S[I]] < 0 ? "" : "+")
         << OffsetOf[S[I]] << " from lane " << M.FirstLane
         << "'s): one constant-cache request</title>";
    OS << "<rect x=\"" << X
       << "\" y=\"" << SecY << "\" width=\"" << SBox << "\" height=\"20\" rx=\"2\" class=\"sector\""
       << " style=\"stroke:" << Color(S[I]) << "\"/></g>\n";
    double TX = X + SBox / 2;
    if (LongLabels)
      OS << "<text x=\"" << TX << "\" y=\"" << SecY + 32 << "\" class=\"num small\" "
         << "text-anchor=\"start\" transform=\"rotate(50 " << TX << " " << SecY + 32 << ")\">"
         << Label << "</text>\n";
    else
      OS << "<text x=\"" << TX << "\" y=\"" << SecY + 14 << "\" class=\"num\">" << Label
         << "</text>\n";
    if (I + 1 < N && S[I + 1] != S[I] + 1) // a gap: sectors nobody touches
      OS << "<text x=\"" << X0 + (I + 1) * SPitch << "\" y=\"" << SecY - 4
         << "\" class=\"gap\">&#8942;</text>\n";
  }
  const std::string Legend =
      Sectors ? "sectors are numbered from lane " + std::to_string(M.FirstLane) + "'s; lane " +
                    std::to_string(M.FirstLane) + " starts " + std::to_string(M.StartInSector) +
                    " bytes into it; " + quantity(M.BytesPerLane, "byte") + " per lane" +
                    (N && S.back() - S.front() + 1 > static_cast<int64_t>(N)
                         ? "; \u22ee marks sectors between that no lane touches"
                         : "")
              : "the distinct addresses, in address order; the constant cache serves one "
                "per request, one after another; " +
                    quantity(M.BytesPerLane, "byte") + " per lane";
  OS << "<text x=\"8\" y=\"" << Height - 6 << "\" class=\"legend\">" << escapeXml(Legend)
     << "</text>\n</svg>\n";
  return OS.str();
}

std::string bankFill(unsigned Words) {
  if (Words == 0)
    return "#ffffff";
  if (Words == 1)
    return "#d9f0d3";
  // 2 .. 32 distinct words: orange to deep red.
  int T = std::min(31u, Words - 2) * 255 / 30;
  std::ostringstream OS;
  OS << "rgb(" << 253 - T / 4 << "," << 174 - T * 140 / 255 << "," << 97 - T * 80 / 255 << ")";
  return OS.str();
}

std::string sharedSvg(const WarpMap &M, const AccessRecord &R) {
  const unsigned Phases = M.phases();
  std::vector<unsigned> Shown;
  for (unsigned P = 0; P < Phases; ++P)
    for (unsigned L = P * M.LanesPerPhase; L < (P + 1) * M.LanesPerPhase; ++L)
      if (M.Lanes[L].Active) {
        Shown.push_back(P);
        break;
      }
  const int PanelH = 150, Top = 28;
  const int Height = Top + Shown.size() * PanelH + 22;
  std::ostringstream OS;
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"warp-map\" role=\"img\" width=\""
     << Width << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << " " << Height
     << "\">\n<title>" << escapeXml("lanes to shared-memory banks: " + warpMapCaption(R))
     << "</title>\n";
  OS << "<text x=\"8\" y=\"18\" class=\"caption\">" << escapeXml(warpMapCaption(R))
     << "</text>\n";
  std::vector<std::string> Fill(32, "#9ecae1"), Tip(32);
  for (unsigned L = 0; L < 32; ++L) {
    const WarpMapLane &C = M.Lanes[L];
    Tip[L] = "lane " + std::to_string(L);
    if (!C.Active) {
      Tip[L] += ": inactive";
      continue;
    }
    Tip[L] += ": byte " + std::string(C.Offset < 0 ? "" : "+") + std::to_string(C.Offset) +
              ", bank " + std::to_string(WarpMap::bankOf(C.First));
    if (C.Last > C.First)
      Tip[L] += " to " + std::to_string(WarpMap::bankOf(C.Last));
  }
  for (size_t I = 0; I < Shown.size(); ++I) {
    const unsigned P = Shown[I];
    const int Y = Top + I * PanelH + 8, BankY = Y + 92;
    const unsigned From = P * M.LanesPerPhase, To = From + M.LanesPerPhase;
    const double LP = 32.0 * Pitch / M.LanesPerPhase;
    std::array<unsigned, 32> Words = M.wordsPerBank(P);
    if (Phases > 1)
      OS << "<text x=\"8\" y=\"" << Y + 34 << "\" class=\"legend\">phase " << P + 1 << "/"
         << Phases << "</text>\n";
    std::string Clean, Conflict;
    for (unsigned L = From; L < To; ++L) {
      const WarpMapLane &C = M.Lanes[L];
      if (!C.Active)
        continue;
      for (int64_t W = C.First; W <= C.Last; ++W) {
        int64_t B = WarpMap::bankOf(W);
        (Words[B] > 1 ? Conflict : Clean) +=
            segment(Left + (L - From) * LP + LP / 2, Y + 20, Left + B * Pitch + Pitch / 2.0, BankY);
      }
    }
    if (!Clean.empty())
      OS << "<path d=\"" << Clean << "\" fill=\"none\" class=\"link clean\"/>\n";
    if (!Conflict.empty())
      OS << "<path d=\"" << Conflict << "\" fill=\"none\" class=\"link conflict\"/>\n";
    laneBoxes(OS, M, From, To, Y, LP, Fill, Tip);
    OS << "<text x=\"8\" y=\"" << BankY + 16 << "\" class=\"axis\">banks</text>\n";
    for (unsigned B = 0; B < 32; ++B) {
      double X = Left + B * Pitch + (Pitch - Box) / 2.0;
      OS << "<g><title>bank " << B << ": " << Words[B] << " distinct word"
         << (Words[B] == 1 ? "" : "s") << "</title><rect x=\"" << X << "\" y=\"" << BankY
         << "\" width=\"" << Box << "\" height=\"20\" rx=\"2\" class=\"bank\" style=\"fill:"
         << bankFill(Words[B]) << "\"/><text x=\"" << X + Box / 2.0 << "\" y=\"" << BankY + 14
         << "\" class=\"num\"" << (Words[B] > 8 ? " style=\"fill:#fff\"" : "") << ">" << B
         << "</text>";
      if (Words[B])
        OS << "<text x=\"" << X + Box / 2.0 << "\" y=\"" << BankY + 34
           << "\" class=\"num small\">" << Words[B] << "</text>";
      OS << "</g>\n";
    }
  }
  OS << "<text x=\"8\" y=\"" << Height - 6 << "\" class=\"legend\">"
     << escapeXml("under each bank: the distinct 4-byte words it must deliver (lanes "
                  "reading the same word share it); red lines and banks: more than one")
     << "</text>\n</svg>\n";
  return OS.str();
}

} // namespace

namespace {

/// The cost of a parametric record value by value (runs of equal cost
/// joined), then how it continues.
std::string parametricText(const ParametricCost &P, MemorySpace Space, const std::string &Indent) {
  std::ostringstream OS;
  OS << Indent << "cost by '" << P.Name << "' (" << costPerRequest(Space) << "):\n";
  for (const ParamCase &C : P.Cases)
    OS << Indent << "  " << formatNumber(C.Cost.Cost) << " (ideal " << formatNumber(C.Cost.Ideal)
       << ") " << C.Text << (C.Cost.Exact ? "" : ", assuming the alignment") << "\n";
  OS << Indent << "value by value:\n";
  const int64_t Step = P.Table.size() > 1 ? P.Table[1].first - P.Table[0].first : 1;
  for (size_t I = 0; I < P.Table.size();) {
    size_t J = I;
    while (J + 1 < P.Table.size() && P.Table[J + 1].second == P.Table[I].second &&
           P.Table[J + 1].first == P.Table[J].first + Step)
      ++J;
    std::string Range = P.Name + " = " + std::to_string(P.Table[I].first);
    if (J > I)
      Range += " to " + std::to_string(P.Table[J].first);
    OS << Indent << "  " << Range << std::string(Range.size() < 24 ? 24 - Range.size() : 1, ' ')
       << formatNumber(P.Table[I].second.Cost) << " (ideal " << formatNumber(P.Table[I].second.Ideal)
       << ")\n";
    I = J + 1;
  }
  if (P.Period <= Step)
    OS << Indent << "  and the same for every larger " << P.Name << "\n";
  else
    OS << Indent << "  from " << P.Name << " = " << P.PeriodicFrom
       << " on, the cost depends only on " << P.Name << " % " << P.Period
       << " (the rows from there repeat)\n";
  return OS.str();
}

} // namespace

/// The instructions nvcc emitted on the record's line (the compiler
/// witness, docs/witness.md), under the map.
static std::string emittedText(const AccessRecord &R, const std::string &Indent) {
  if (R.EmittedInstructions.empty())
    return "";
  std::string Out = Indent + "emitted on this line (" + witnessedName(R.Witness) + "):\n";
  for (const std::string &I : R.EmittedInstructions)
    Out += Indent + "  " + I + "\n";
  return Out;
}

std::string renderWarpMapText(const AccessRecord &R, const std::string &Indent) {
  std::string Out;
  if (const ParametricCost *P = R.Ans.parametric())
    Out = parametricText(*P, R.Space, Indent);
  auto M = buildWarpMap(R);
  if (!M)
    return Out + emittedText(R, Indent);
  switch (M->Kind) {
  case WarpMapKind::Sectors: return Out + globalText(*M, R, Indent) + emittedText(R, Indent);
  case WarpMapKind::Banks: return Out + sharedText(*M, R, Indent) + emittedText(R, Indent);
  case WarpMapKind::Addresses: return Out + constantText(*M, R, Indent) + emittedText(R, Indent);
  }
  return Out;
}

std::string renderWarpMapSvg(const AccessRecord &R) {
  auto M = buildWarpMap(R);
  if (!M)
    return "";
  return M->Kind == WarpMapKind::Banks ? sharedSvg(*M, R) : unitsSvg(*M, R);
}

} // namespace coalesce
