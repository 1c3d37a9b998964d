//===- Grouping.cpp - One finding for identical findings of several kernels ===//

#include "Grouping.h"

#include "Waste.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace coalesce {

namespace {

/// "ns::copy" of "ns::copy<char>"; "" for a name without template arguments.
std::string templateName(const std::string &Name) {
  size_t Lt = Name.find('<');
  return Lt == std::string::npos || Name.back() != '>' ? "" : Name.substr(0, Lt);
}

bool sameNote(const FindingNote &A, const FindingNote &B) {
  if (A.Message != B.Message || A.Pos.has_value() != B.Pos.has_value())
    return false;
  return !A.Pos || (A.Pos->File == B.Pos->File && A.Pos->Line == B.Pos->Line &&
                    A.Pos->Column == B.Pos->Column);
}

bool sameFix(const FixIt &A, const FixIt &B) {
  return A.Pos.File == B.Pos.File && A.Pos.Line == B.Pos.Line && A.Pos.Column == B.Pos.Column &&
         A.RemoveLength == B.RemoveLength && A.Insert == B.Insert;
}

/// What tells the members of a merged finding apart, field by field:
/// "blockDim (64, 1, 1)", "grid (8, 1, 1)", "C=768", the call context.
std::vector<std::string> configFields(const AccessRecord &R) {
  const LaunchConfig &L = R.Launch;
  std::vector<std::string> F;
  F.push_back(L.BlockKnown ? "blockDim " + L.Block.str() : "blockDim unknown");
  F.push_back(L.Grid ? "grid " + L.Grid->str() : "");
  std::string Args;
  for (const auto &[Name, Value] : L.Args)
    Args += (Args.empty() ? "" : ", ") + Name + "=" + std::to_string(Value);
  F.push_back(Args);
  F.push_back(L.Branches); // "when `big` at f.cu:30 is true"
  F.push_back(R.Context);
  return F;
}

/// The members' labels: the fields that differ between them, or, where none
/// does, the whole launch description.
std::vector<std::string> configLabels(const std::vector<const AccessRecord *> &Rs) {
  std::vector<std::vector<std::string>> Fields;
  for (const AccessRecord *R : Rs)
    Fields.push_back(configFields(*R));
  std::vector<std::string> Labels(Rs.size());
  for (size_t Field = 0; Field < Fields.front().size(); ++Field) {
    const bool Varies = std::any_of(Fields.begin(), Fields.end(), [&](const auto &F) {
      return F[Field] != Fields.front()[Field];
    });
    if (!Varies)
      continue;
    for (size_t I = 0; I < Rs.size(); ++I)
      if (!Fields[I][Field].empty())
        Labels[I] += (Labels[I].empty() ? ""
                      : Fields[I][Field].rfind("when ", 0) == 0 ? " "
                                                                : " with ") +
                     Fields[I][Field];
  }
  for (size_t I = 0; I < Rs.size(); ++I)
    if (Labels[I].empty())
      Labels[I] = Rs[I]->Launch.describe();
  return Labels;
}

std::string costOf(const Finding &F) {
  const AccessRecord &R = *F.Record;
  if (R.Ans.known())
    return costStatement(R);
  return R.Ans.noInstruction() ? "no instruction of its own" : "not predicted";
}

/// True when A is the finding to show for a line and kernel rather than B:
/// a warning before a remark, then the dearer by waste, then by ratio.
bool dearer(const Finding &A, const Finding &B) {
  if (A.Level != B.Level)
    return A.Level == Severity::Warning;
  const std::optional<Waste> WA = findingWaste(A), WB = findingWaste(B);
  if (ranksBefore(WA, WB) || ranksBefore(WB, WA))
    return ranksBefore(WA, WB);
  return A.Record->Ans.ratio() > B.Record->Ans.ratio();
}

} // namespace

std::vector<Finding> mergeConfigurations(std::vector<Finding> Findings) {
  // The rule, the position, the kernel and the access (a load and a store
  // of one expression share a position).
  using Key = std::tuple<std::string, std::string, unsigned, unsigned, std::string, int,
                         std::string, std::string>;
  std::map<Key, std::vector<size_t>> Members;
  std::vector<Key> Keys(Findings.size());
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    if (!F.Record)
      continue;
    const AccessRecord &R = *F.Record;
    Keys[I] = {F.RuleId, F.Pos.File,   F.Pos.Line, F.Pos.Column, R.Kernel, static_cast<int>(R.Op),
               R.Array,  R.Expression};
    Members[Keys[I]].push_back(I);
  }
  std::vector<Finding> Out;
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (!Findings[I].Record) {
      Out.push_back(std::move(Findings[I]));
      continue;
    }
    const std::vector<size_t> &Ms = Members[Keys[I]];
    if (Ms.front() != I)
      continue; // merged into the group's first member's place
    const bool Differ = std::any_of(Ms.begin(), Ms.end(), [&](size_t J) {
      return Findings[J].Message != Findings[I].Message || Findings[J].Level != Findings[I].Level;
    });
    if (!Differ) {
      // The same words: the grouping of identical findings joins them.
      for (size_t J : Ms)
        Out.push_back(std::move(Findings[J]));
      continue;
    }
    size_t Best = Ms.front();
    for (size_t J : Ms)
      if (dearer(Findings[J], Findings[Best]))
        Best = J;
    std::vector<const AccessRecord *> Rs;
    for (size_t J : Ms)
      Rs.push_back(Findings[J].Record);
    const std::vector<std::string> Labels = configLabels(Rs);
    // Configurations of the same cost are listed together.
    std::vector<std::pair<std::string, std::vector<std::string>>> Costs;
    for (size_t K = 0; K < Ms.size(); ++K) {
      const std::string C = costOf(Findings[Ms[K]]);
      const std::string &L = Labels[K];
      auto It = std::find_if(Costs.begin(), Costs.end(), [&](const auto &P) { return P.first == C; });
      if (It == Costs.end())
        Costs.push_back({C, {L}});
      else if (std::find(It->second.begin(), It->second.end(), L) == It->second.end())
        It->second.push_back(L);
    }
    std::string Note = "one finding for the " + std::to_string(Ms.size()) +
                       " launch configurations or calls of this kernel that reach it; their costs:";
    for (const auto &[C, Ls] : Costs) {
      Note += " " + C + " for ";
      for (size_t K = 0; K < Ls.size(); ++K)
        Note += (K ? (K + 1 == Ls.size() ? " and " : ", ") : "") + Ls[K];
      Note += ";";
    }
    Note.back() = '.';
    Finding G = std::move(Findings[Best]);
    for (size_t J : Ms)
      if (J != Best) {
        G.Also.push_back(Findings[J].Record);
        G.Also.insert(G.Also.end(), Findings[J].Also.begin(), Findings[J].Also.end());
      }
    G.Notes.push_back({std::nullopt, Note});
    Out.push_back(std::move(G));
  }
  return Out;
}

std::vector<Finding> mergeReadModifyWrite(std::vector<Finding> Findings) {
  std::vector<bool> Gone(Findings.size(), false);
  for (size_t I = 0; I < Findings.size(); ++I) {
    Finding &L = Findings[I];
    if (Gone[I] || !L.Record || L.Record->Op != AccessOp::Load)
      continue;
    const std::string LoadPhrase = accessPhrase(*L.Record);
    if (L.Message.rfind(LoadPhrase, 0) != 0)
      continue;
    for (size_t J = 0; J < Findings.size(); ++J) {
      Finding &S = Findings[J];
      if (J == I || Gone[J] || !S.Record || S.Record->Op != AccessOp::Store ||
          S.RuleId != L.RuleId || S.Level != L.Level || S.Pos.File != L.Pos.File ||
          S.Pos.Line != L.Pos.Line || S.Pos.Column != L.Pos.Column ||
          S.Record->Kernel != L.Record->Kernel || S.Record->Array != L.Record->Array ||
          S.Record->Expression != L.Record->Expression)
        continue;
      const std::string StorePhrase = accessPhrase(*S.Record);
      if (S.Message.rfind(StorePhrase, 0) != 0 ||
          S.Message.substr(StorePhrase.size()) != L.Message.substr(LoadPhrase.size()))
        continue;
      // "global load and store of 'out' each use 32 sectors per request ..."
      std::string Rest = L.Message.substr(LoadPhrase.size());
      for (const auto &[Verb, Plural] : {std::pair<const char *, const char *>{" uses ", " each use "},
                                         {" has ", " each have "}})
        if (Rest.rfind(Verb, 0) == 0) {
          Rest = Plural + Rest.substr(std::string(Verb).size());
          break;
        }
      L.Message = std::string(spaceName(L.Record->Space)) + " load and store of '" +
                  L.Record->Array + "'" + Rest;
      L.Also.push_back(S.Record);
      L.Also.insert(L.Also.end(), S.Also.begin(), S.Also.end());
      for (FindingNote &N : S.Notes)
        if (std::none_of(L.Notes.begin(), L.Notes.end(),
                         [&](const FindingNote &M) { return sameNote(M, N); }))
          L.Notes.push_back(std::move(N));
      Gone[J] = true;
      break;
    }
  }
  std::vector<Finding> Out;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Gone[I])
      Out.push_back(std::move(Findings[I]));
  return Out;
}

std::vector<std::string> kernelsOf(const Finding &F) {
  std::vector<std::string> Names;
  auto Add = [&](const AccessRecord *R) {
    if (R && !R->Kernel.empty() && std::find(Names.begin(), Names.end(), R->Kernel) == Names.end())
      Names.push_back(R->Kernel);
  };
  Add(F.Record);
  for (const AccessRecord *R : F.Also)
    Add(R);
  return Names;
}

std::string kernelList(const std::vector<std::string> &Names) {
  std::string Out, Prev;
  for (const std::string &N : Names) {
    const std::string T = templateName(N);
    if (!Out.empty())
      Out += ", ";
    Out += !T.empty() && T == Prev ? N.substr(T.size()) : N;
    Prev = T;
  }
  return Out;
}

std::vector<Finding> groupFindings(std::vector<Finding> Findings) {
  Findings = mergeReadModifyWrite(mergeConfigurations(std::move(Findings)));
  using Key = std::tuple<std::string, int, std::string, unsigned, unsigned, std::string>;
  std::map<Key, size_t> Index;
  std::vector<Finding> Out;
  // The notes of each group by their place in their finding (evidence,
  // assumptions, suggestion, ...), so that the assumption notes of several
  // launches end up together; with the kernel of the member each came from.
  using Slot = std::vector<std::pair<FindingNote, std::string>>;
  std::vector<std::vector<Slot>> Notes;
  auto KernelOf = [](const Finding &F) { return F.Record ? F.Record->Kernel : std::string(); };
  for (Finding &F : Findings) {
    Key K{F.RuleId, static_cast<int>(F.Level), F.Pos.File, F.Pos.Line, F.Pos.Column, F.Message};
    auto [It, New] = Index.try_emplace(K, Out.size());
    if (New) {
      Notes.emplace_back();
      for (FindingNote &N : F.Notes)
        Notes.back().push_back({{std::move(N), KernelOf(F)}});
      F.Notes.clear();
      Out.push_back(std::move(F));
      continue;
    }
    Finding &G = Out[It->second];
    std::vector<Slot> &Slots = Notes[It->second];
    if (F.Record)
      G.Also.push_back(F.Record);
    G.Also.insert(G.Also.end(), F.Also.begin(), F.Also.end());
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      FindingNote &N = F.Notes[I];
      if (I >= Slots.size())
        Slots.resize(I + 1);
      bool Known = false;
      for (const Slot &S : Slots)
        for (const auto &M : S)
          Known |= sameNote(M.first, N);
      if (!Known)
        Slots[I].push_back({std::move(N), KernelOf(F)});
    }
    // Another member's fix-it, unless one is already at its place (a
    // different edit there would conflict).
    for (FixIt &X : F.Fixes)
      if (std::none_of(G.Fixes.begin(), G.Fixes.end(), [&](const FixIt &Y) {
            return sameFix(X, Y) || (X.Pos.File == Y.Pos.File && X.Pos.Line == Y.Pos.Line &&
                                     X.Pos.Column == Y.Pos.Column);
          }))
        G.Fixes.push_back(std::move(X));
  }
  for (size_t I = 0; I < Out.size(); ++I) {
    // A note that differs between the kernels of a group says whose it is.
    const bool SeveralKernels = kernelsOf(Out[I]).size() > 1;
    for (Slot &S : Notes[I])
      for (auto &[N, Kernel] : S) {
        if (SeveralKernels && S.size() > 1 && !Kernel.empty())
          N.Message = "in " + Kernel + ": " + N.Message;
        Out[I].Notes.push_back(std::move(N));
      }
  }
  for (Finding &F : Out) {
    std::vector<std::string> Names = kernelsOf(F);
    if (std::any_of(Names.begin(), Names.end(),
                    [](const std::string &N) { return !templateName(N).empty(); }))
      F.Message = kernelList(Names) + ": " + F.Message;
  }
  return Out;
}

} // namespace coalesce
