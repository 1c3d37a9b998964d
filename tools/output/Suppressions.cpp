//===- Suppressions.cpp - Inline comments that silence a finding ----------===//

#include "Suppressions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace coalesce {

namespace {

bool globMatch(llvm::StringRef Glob, llvm::StringRef S) {
  // '*' matches any run of characters; everything else matches itself.
  size_t Star = Glob.find('*');
  if (Star == llvm::StringRef::npos)
    return Glob == S;
  if (!S.starts_with(Glob.substr(0, Star)))
    return false;
  llvm::StringRef Rest = Glob.substr(Star + 1);
  S = S.substr(Star);
  for (size_t I = 0; I <= S.size(); ++I)
    if (globMatch(Rest, S.substr(I)))
      return true;
  return false;
}

std::vector<std::string> splitList(llvm::StringRef List, bool AddPrefix) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  List.split(Parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      continue;
    bool Neg = P.consume_front("-");
    P = P.trim();
    std::string G = P.str();
    if (AddPrefix && !P.starts_with("coalesce-") && P != "*")
      G = "coalesce-" + G;
    Out.push_back((Neg ? "-" : "") + G);
  }
  return Out;
}

/// "(a, b)" right after Pos: the list and true; no '(' : empty and true;
/// an unclosed '(' : false.
bool parenList(llvm::StringRef Line, size_t Pos, char Open, char Close,
               std::string &Out, size_t &End) {
  End = Pos;
  if (Pos >= Line.size() || Line[Pos] != Open) {
    Out.clear();
    return true;
  }
  size_t C = Line.find(Close, Pos + 1);
  if (C == llvm::StringRef::npos)
    return false;
  Out = Line.substr(Pos + 1, C - Pos - 1).str();
  End = C + 1;
  return true;
}

/// Each name of an ignore[...] list (List, starting at byte Start of Line)
/// that is neither a rule nor a glob becomes a Problem.
void checkRuleNames(llvm::StringRef List, size_t Start, unsigned LineNo, size_t CommentAt,
                    llvm::StringRef Line, std::vector<FileSuppressions::Problem> &Problems) {
  size_t Pos = 0;
  while (Pos <= List.size()) {
    size_t Comma = List.find(',', Pos);
    if (Comma == llvm::StringRef::npos)
      Comma = List.size();
    llvm::StringRef Item = List.slice(Pos, Comma);
    size_t Lead = Item.size() - Item.ltrim().size();
    llvm::StringRef Name = Item.trim();
    if (Name.consume_front("-"))
      Lead += 1 + (Name.size() - Name.ltrim().size());
    Name = Name.trim();
    llvm::StringRef Id = Name;
    Id.consume_front("coalesce-");
    if (!Name.empty() && !Name.contains('*') && !findRule(Id.str())) {
      std::string Known, Nearest;
      unsigned Best = 4; // a typo: at most 3 edits away, and closer than the others
      for (const auto &R : allRules()) {
        Known += (Known.empty() ? "" : ", ") + std::string(R->id());
        const unsigned D = Id.edit_distance(R->id(), /*AllowReplacements=*/true, Best);
        if (D < Best) {
          Best = D;
          Nearest = R->id();
        }
      }
      Problems.push_back({LineNo, static_cast<unsigned>(Start + Pos + Lead + 1),
                          "unknown rule '" + Name.str() + "' in '" +
                              Line.substr(CommentAt, Start + List.size() + 1 - CommentAt).str() +
                              "' (" + (Nearest.empty() ? "" : "did you mean '" + Nearest + "'? ") +
                              "rules: " + Known + ")",
                          Nearest});
    }
    Pos = Comma + 1;
  }
}

} // namespace

bool matchesGlobList(const std::vector<std::string> &Globs, llvm::StringRef CheckName) {
  bool On = false;
  for (const std::string &G : Globs) {
    llvm::StringRef R(G);
    bool Neg = R.consume_front("-");
    if (globMatch(R, CheckName))
      On = !Neg;
  }
  return On;
}

FileSuppressions FileSuppressions::fromText(llvm::StringRef Text, bool Nolint) {
  llvm::SmallVector<llvm::StringRef, 0> Split;
  Text.split(Split, '\n');
  std::vector<std::string> Lines;
  for (llvm::StringRef S : Split)
    Lines.push_back(S.str());
  return FileSuppressions(Lines, Nolint);
}

FileSuppressions::FileSuppressions(const std::vector<std::string> &Lines, bool Nolint) {
  struct Open {
    unsigned Line;
    std::string Key; // the list as written, to pair BEGIN with END
    std::vector<std::string> Globs;
  };
  std::vector<Open> Regions;
  for (size_t I = 0; I < Lines.size(); ++I) {
    const unsigned LineNo = I + 1;
    llvm::StringRef L(Lines[I]);

    // coalesce-lint: ignore[...]
    for (size_t P = L.find("coalesce-lint:"); P != llvm::StringRef::npos;
         P = L.find("coalesce-lint:", P + 1)) {
      size_t Q = P + strlen("coalesce-lint:");
      while (Q < L.size() && (L[Q] == ' ' || L[Q] == '\t'))
        ++Q;
      if (!L.substr(Q).starts_with("ignore"))
        continue;
      Q += strlen("ignore");
      std::string List;
      size_t End;
      if (!parenList(L, Q, '[', ']', List, End))
        continue;
      // "ignore" must end there ("ignored" is not a suppression).
      if (End == Q && Q < L.size() && (llvm::isAlnum(L[Q]) || L[Q] == '-' || L[Q] == '_'))
        continue;
      checkRuleNames(List, Q + 1, LineNo, P, L, Problems);
      Entries.push_back({LineNo, LineNo, splitList(List, /*AddPrefix=*/true),
                         "// coalesce-lint: ignore" + (End > Q ? "[" + List + "]" : std::string())});
    }

    // NOLINT, NOLINTNEXTLINE, NOLINTBEGIN, NOLINTEND (clang-tidy's comments).
    for (size_t P = Nolint ? L.find("NOLINT") : llvm::StringRef::npos;
         P != llvm::StringRef::npos; P = L.find("NOLINT", P + 1)) {
      size_t Q = P + strlen("NOLINT");
      std::string Kind = "NOLINT";
      for (const char *Suffix : {"NEXTLINE", "BEGIN", "END"})
        if (L.substr(Q).starts_with(Suffix)) {
          Kind += Suffix;
          Q += strlen(Suffix);
          break;
        }
      std::string List;
      size_t End;
      if (!parenList(L, Q, '(', ')', List, End))
        continue;
      if (End == Q && Q < L.size() && (llvm::isAlnum(L[Q]) || L[Q] == '_'))
        continue; // NOLINTFOO
      std::vector<std::string> Globs = splitList(List, /*AddPrefix=*/false);
      std::string Written = Kind + (End > Q ? "(" + List + ")" : std::string());
      if (Kind == "NOLINT")
        Entries.push_back({LineNo, LineNo, Globs, Written});
      else if (Kind == "NOLINTNEXTLINE")
        Entries.push_back({LineNo + 1, LineNo + 1, Globs, Written});
      else if (Kind == "NOLINTBEGIN")
        Regions.push_back({LineNo, llvm::StringRef(List).trim().str(), Globs});
      else {
        // Close the innermost BEGIN with the same list; an unmatched END (or
        // BEGIN) suppresses nothing, as in clang-tidy.
        std::string Key = llvm::StringRef(List).trim().str();
        for (size_t R = Regions.size(); R-- > 0;)
          if (Regions[R].Key == Key) {
            Entries.push_back({Regions[R].Line, LineNo, Regions[R].Globs,
                               "NOLINTBEGIN" + (Key.empty() ? std::string() : "(" + Key + ")")});
            Regions.erase(Regions.begin() + R);
            break;
          }
      }
    }
  }
}

std::string FileSuppressions::suppressedBy(unsigned Line, llvm::StringRef CheckName) const {
  for (const Entry &E : Entries)
    if (Line >= E.First && Line <= E.Last &&
        (E.Globs.empty() || matchesGlobList(E.Globs, CheckName)))
      return E.Kind;
  return "";
}

const FileSuppressions *SuppressionIndex::load(const std::string &File) {
  auto It = Files.find(File);
  if (It == Files.end()) {
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
    if (!Buf)
      return nullptr;
    It = Files.emplace(File, FileSuppressions::fromText((*Buf)->getBuffer())).first;
  }
  return &It->second;
}

void SuppressionIndex::scan(const std::string &File) { load(File); }

std::vector<std::string> SuppressionIndex::problems() const {
  std::vector<std::string> Out;
  for (const auto &[File, S] : Files)
    for (const FileSuppressions::Problem &P : S.problems())
      Out.push_back(File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column) + ": " +
                    P.Message);
  return Out;
}

std::string SuppressionIndex::suppressedBy(const Finding &F) {
  const FileSuppressions *S = load(F.Pos.File);
  if (!S) {
    // Not readable (any more): the finding's own line is all we know.
    std::vector<std::string> Lines(F.Pos.Line);
    if (F.Pos.Line > 0)
      Lines[F.Pos.Line - 1] = F.Pos.LineText;
    return FileSuppressions(Lines).suppressedBy(F.Pos.Line, F.checkName());
  }
  return S->suppressedBy(F.Pos.Line, F.checkName());
}

} // namespace coalesce
