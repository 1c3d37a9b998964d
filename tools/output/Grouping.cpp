//===- Grouping.cpp - One finding for identical findings of several kernels ===//

#include "Grouping.h"

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

} // namespace

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
