//===- StatedFacts.cpp - Facts about kernel parameters the user states ----===//

#include "launch/StatedFacts.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cctype>

namespace coalesce {

namespace {

bool identStart(char C) { return std::isalpha(static_cast<unsigned char>(C)) || C == '_'; }
bool identChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// A small scanner over one fact: names (with dotted fields), integers and
/// the operators = == % >= >.
struct Scanner {
  llvm::StringRef S;
  size_t I = 0;
  void skip() {
    while (I < S.size() && std::isspace(static_cast<unsigned char>(S[I])))
      ++I;
  }
  bool done() {
    skip();
    return I == S.size();
  }
  std::optional<std::string> name() {
    skip();
    size_t B = I;
    while (I < S.size() && identStart(S[I])) {
      while (I < S.size() && identChar(S[I]))
        ++I;
      if (I + 1 < S.size() && S[I] == '.' && identStart(S[I + 1]))
        ++I;
      else
        break;
    }
    if (I == B)
      return std::nullopt;
    return S.substr(B, I - B).str();
  }
  std::optional<int64_t> integer() {
    skip();
    size_t B = I;
    if (I < S.size() && (S[I] == '-' || S[I] == '+'))
      ++I;
    while (I < S.size() && std::isdigit(static_cast<unsigned char>(S[I])))
      ++I;
    int64_t V;
    if (S.substr(B, I - B).getAsInteger(10, V)) {
      I = B;
      return std::nullopt;
    }
    return V;
  }
  bool op(llvm::StringRef O) {
    skip();
    if (!S.substr(I).starts_with(O))
      return false;
    // "=" must not be the start of "==", ">" not of ">=".
    if ((O == "=" || O == ">") && S.substr(I + O.size()).starts_with("="))
      return false;
    I += O.size();
    return true;
  }
};

const char *Forms = "NAME=VALUE, 'NAME % M == R' or 'NAME >= BOUND'";

std::optional<StatedFact> parseOne(llvm::StringRef Text, std::string &Why) {
  Scanner Sc{Text};
  StatedFact F;
  auto Bad = [&](const std::string &What) {
    Why = "'" + Text.trim().str() + "': " + What + " (expected " + Forms + ")";
    return std::nullopt;
  };
  std::optional<std::string> N = Sc.name();
  if (!N)
    return Bad("no parameter name");
  F.Name = *N;
  if (Sc.op("=")) {
    std::optional<int64_t> V = Sc.integer();
    if (!V)
      return Bad("the value is not an integer");
    F.K = StatedFact::Equals;
    F.Value = *V;
  } else if (Sc.op("%")) {
    std::optional<int64_t> M = Sc.integer();
    if (!M || *M <= 0)
      return Bad("the modulus is not a positive integer");
    if (!Sc.op("=="))
      return Bad("'== R' is missing after the modulus");
    std::optional<int64_t> R = Sc.integer();
    if (!R || *R < 0 || *R >= *M)
      return Bad("the remainder must be an integer from 0 to " + std::to_string(*M - 1));
    F.K = StatedFact::Residue;
    F.Modulus = *M;
    F.Value = *R;
  } else if (bool Ge = Sc.op(">="); Ge || Sc.op(">")) {
    std::optional<int64_t> V = Sc.integer();
    if (!V)
      return Bad("the bound is not an integer");
    F.K = StatedFact::AtLeast;
    F.Value = Ge ? *V : *V + 1;
  } else {
    return Bad("no '=', '%' or '>=' after the name");
  }
  if (!Sc.done())
    return Bad("unexpected '" + Text.substr(Sc.I).trim().str() + "'");
  return F;
}

} // namespace

std::string StatedFact::str() const {
  switch (K) {
  case Equals:
    return Name + " = " + std::to_string(Value);
  case Residue:
    return Name + " % " + std::to_string(Modulus) + " == " + std::to_string(Value);
  case AtLeast:
    return Name + " >= " + std::to_string(Value);
  }
  return Name;
}

std::optional<std::vector<StatedFact>> parseFacts(llvm::StringRef S, std::string &Why) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  S.split(Parts, ',');
  std::vector<StatedFact> Out;
  for (llvm::StringRef P : Parts) {
    std::optional<StatedFact> F = parseOne(P, Why);
    if (!F)
      return std::nullopt;
    Out.push_back(std::move(*F));
  }
  return Out;
}

KnownOf factsAbout(const std::vector<StatedFact> &Facts, llvm::StringRef Param,
                   llvm::StringRef Field, Reason &Why) {
  KnownOf K;
  const std::string Full = (Param + Field).str();
  const llvm::StringRef Last =
      Field.empty() ? Param : Field.substr(Field.rfind('.') + 1);
  for (const StatedFact &F : Facts) {
    if (F.Name != Full && F.Name != Last)
      continue;
    K.Given.push_back(F.Spelling.empty() ? F.str() : F.Spelling);
    switch (F.K) {
    case StatedFact::Equals:
      if (K.Value && *K.Value != F.Value)
        Why = makeReason(ReasonKind::StatedFactConflict,
                         {Full, std::to_string(*K.Value), std::to_string(F.Value)});
      K.Value = F.Value;
      break;
    case StatedFact::Residue: {
      // Two residues combine when their moduli are compatible (CRT); the
      // common case is one residue, or one modulus dividing the other.
      const int64_t G = gcd64(K.Modulus, F.Modulus);
      if (floorMod(K.Residue, G) != floorMod(F.Value, G)) {
        Why = makeReason(ReasonKind::StatedRemaindersConflict, {Full});
        break;
      }
      const int64_t L = K.Modulus / G * F.Modulus;
      int64_t R = K.Residue;
      while (floorMod(R, F.Modulus) != F.Value)
        R += K.Modulus;
      K.Modulus = L;
      K.Residue = floorMod(R, L);
      break;
    }
    case StatedFact::AtLeast:
      K.Min = K.Min ? std::max(*K.Min, F.Value) : F.Value;
      break;
    }
  }
  if (K.Value) {
    if (floorMod(*K.Value - K.Residue, K.Modulus) != 0 || (K.Min && *K.Value < *K.Min))
      Why = makeReason(ReasonKind::StatedValueContradicts, {Full, std::to_string(*K.Value)});
  }
  return K;
}

std::vector<StatedFact> factsInComments(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
                                        std::vector<AnnotationProblem> &Problems) {
  std::vector<StatedFact> Out;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const clang::FunctionDecl *Def = Kernel->getTemplateInstantiationPattern();
  if (!Def)
    Def = Kernel;
  if (!Def->hasBody())
    return Out;
  clang::SourceLocation Begin = Def->getBeginLoc();
  if (const clang::FunctionTemplateDecl *T = Def->getDescribedFunctionTemplate())
    Begin = T->getBeginLoc();
  Begin = SM.getExpansionLoc(Begin);
  clang::SourceLocation End = SM.getExpansionLoc(Def->getBody()->getEndLoc());
  const clang::FileID FID = SM.getFileID(Begin);
  if (FID != SM.getFileID(End))
    return Out;
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return Out;
  const unsigned First = SM.getSpellingLineNumber(Begin), Last = SM.getSpellingLineNumber(End);
  auto LineAt = [&](unsigned L, size_t &Off) {
    clang::SourceLocation Loc = SM.translateLineCol(FID, L, 1);
    Off = SM.getFileOffset(Loc);
    size_t E = Buf.find('\n', Off);
    return Buf.substr(Off, E == llvm::StringRef::npos ? llvm::StringRef::npos : E - Off);
  };
  auto Scan = [&](unsigned L) {
    size_t Off;
    llvm::StringRef Line = LineAt(L, Off);
    const size_t Slash = Line.find("//");
    if (Slash == llvm::StringRef::npos)
      return;
    llvm::StringRef C = Line.substr(Slash + 2).ltrim();
    if (!C.consume_front("coalesce-lint:"))
      return;
    C = C.ltrim();
    if (!C.consume_front("assume") || (!C.empty() && identChar(C.front())))
      return;
    std::string Why;
    std::optional<std::vector<StatedFact>> Fs = parseFacts(C, Why);
    if (!Fs) {
      AnnotationProblem P{
          sourcePos(Ctx, SM.getComposedLoc(FID, static_cast<unsigned>(Off + Slash))),
          "'coalesce-lint: assume': " + Why};
      // Each instantiation of a template kernel reads the same comment.
      if (std::none_of(Problems.begin(), Problems.end(), [&](const AnnotationProblem &Q) {
            return Q.Pos.str() == P.Pos.str() && Q.Message == P.Message;
          }))
        Problems.push_back(std::move(P));
      return;
    }
    for (StatedFact &F : *Fs) {
      F.Spelling = "'" + F.str() + "' from the comment at line " + std::to_string(L);
      Out.push_back(std::move(F));
    }
  };
  // The comment lines right above the kernel (or its template header).
  unsigned Above = First;
  while (Above > 1) {
    size_t Off;
    llvm::StringRef Line = LineAt(Above - 1, Off).trim();
    if (!Line.starts_with("//"))
      break;
    --Above;
  }
  for (unsigned L = Above; L <= Last; ++L)
    Scan(L);
  return Out;
}

} // namespace coalesce
