//===- KernelReuse.cpp - Results of kernels kept from one analysis to the next ===//

#include "KernelReuse.h"
#include "launch/Launches.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclBase.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <optional>

using namespace clang;

namespace coalesce {

std::shared_ptr<const KernelReuse::Entry> KernelReuse::take(const std::string &Key) {
  std::lock_guard<std::mutex> L(M);
  auto It = Kept.find(Key);
  if (It == Kept.end()) {
    It = Used.find(Key);
    if (It == Used.end())
      return nullptr;
    ++Reused;
    return It->second;
  }
  std::shared_ptr<const Entry> E = It->second;
  Used[Key] = E;
  ++Reused;
  return E;
}

void KernelReuse::keep(const std::string &Key, std::shared_ptr<const Entry> E) {
  std::lock_guard<std::mutex> L(M);
  Used[Key] = std::move(E);
}

void KernelReuse::finishAnalysis() {
  std::lock_guard<std::mutex> L(M);
  Kept = std::move(Used);
  Used.clear();
}

unsigned KernelReuse::reused() const {
  std::lock_guard<std::mutex> L(M);
  return Reused;
}

namespace {

struct BodyRange {
  unsigned Begin = 0, End = 0; // offsets in the main file, End past the '}'
  bool Maskable = false;       // no '#' inside
};

/// No preprocessor directive in Body but `#pragma unroll`, which says how
/// to compile the loop after it and nothing else: no other `#` line, no
/// directive spelled `%:`, no `_Pragma`.
bool noDirectives(llvm::StringRef Body) {
  if (Body.contains("%:") || Body.contains("_Pragma"))
    return false;
  while (!Body.empty()) {
    auto [Line, Rest] = Body.split('\n');
    Body = Rest;
    if (!Line.contains('#'))
      continue;
    llvm::StringRef L = Line.ltrim();
    if (!L.consume_front("#"))
      return false; // a '#' elsewhere: a string, a comment, a stringizing macro
    L = L.ltrim();
    if (!L.consume_front("pragma"))
      return false;
    L = L.ltrim();
    if (!L.consume_front("unroll") || L.contains('#'))
      return false;
  }
  return true;
}

std::string hashOf(llvm::StringRef S) {
  const llvm::XXH128_hash_t H =
      llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(S.data()),
                                                  S.size()));
  char Buf[40];
  snprintf(Buf, sizeof Buf, "%016llx%016llx", static_cast<unsigned long long>(H.high64),
           static_cast<unsigned long long>(H.low64));
  return Buf;
}

} // namespace

std::vector<std::string> kernelReuseKeys(ASTContext &Ctx, const std::vector<KernelDef> &Kernels,
                                         const std::string &Salt) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FileID Main = SM.getMainFileID();
  bool Invalid = false;
  const llvm::StringRef Text = SM.getBufferData(Main, &Invalid);
  if (Invalid)
    return std::vector<std::string>(Kernels.size());

  // What other kernels' results may read in a body: a launch inside it
  // (dynamic parallelism: the launched kernel's block shape and arguments),
  // and the file-scope `__shared__` arrays, whose layout fixes weigh their
  // uses in every function. A body that may hold either (its text names
  // them) is kept whole.
  std::vector<std::string> SharedNames;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasAttr<CUDASharedAttr>())
      SharedNames.push_back(V->getName().str());
  auto Isolated = [&](llvm::StringRef Body) {
    if (!noDirectives(Body) || Body.contains("<<<") || Body.contains_insensitive("launch"))
      return false;
    for (const std::string &N : SharedNames)
      if (!N.empty() && Body.contains(N))
        return false;
    return true;
  };

  // Where each kernel's body lies in the main file (an instantiation's is
  // its template's).
  std::vector<std::optional<BodyRange>> Bodies;
  for (const KernelDef &K : Kernels) {
    const FunctionDecl *Pattern = K.FD->getTemplateInstantiationPattern();
    const Stmt *B = (Pattern ? Pattern : K.FD)->getBody();
    std::optional<BodyRange> R;
    if (B && B->getBeginLoc().isFileID() && B->getEndLoc().isFileID()) {
      auto [FB, OB] = SM.getDecomposedLoc(B->getBeginLoc());
      auto [FE, OE] = SM.getDecomposedLoc(B->getEndLoc());
      if (FB == Main && FE == Main && OB < OE && OE < Text.size() && Text[OE] == '}') {
        R = BodyRange{OB, OE + 1, false};
        R->Maskable = Isolated(Text.substr(OB, OE + 1 - OB));
      }
    }
    Bodies.push_back(R);
  }

  // The files read besides the main file.
  llvm::SmallVector<OptionalFileEntryRef> Seen;
  SM.getFileManager().GetUniqueIDMapping(Seen);
  OptionalFileEntryRef MainFile = SM.getFileEntryRefForID(Main);
  std::vector<std::string> Stamps;
  for (const OptionalFileEntryRef &F : Seen) {
    if (!F || (MainFile && &F->getFileEntry() == &MainFile->getFileEntry()))
      continue;
    std::string Stamp = F->getName().str() + '\0' + std::to_string(F->getSize());
    // The precompiled preamble's own time changes with every use (the
    // cache's record of use); the headers it was made from are listed
    // with theirs, and a rebuilt one reads them again.
    if (!F->getName().ends_with(".pch"))
      Stamp += '\0' + std::to_string(static_cast<long long>(F->getModificationTime()));
    Stamps.push_back(std::move(Stamp));
  }
  std::sort(Stamps.begin(), Stamps.end());
  std::string Common = Salt;
  Common += '\1';
  for (const std::string &S : Stamps)
    Common += S + '\1';

  std::vector<std::string> Keys;
  for (size_t I = 0; I < Kernels.size(); ++I) {
    // The other kernels' bodies, masked: outside this kernel's body, not
    // overlapping each other.
    std::vector<BodyRange> Masked;
    for (size_t J = 0; J < Kernels.size(); ++J) {
      if (J == I || !Bodies[J] || !Bodies[J]->Maskable)
        continue;
      const BodyRange &B = *Bodies[J];
      if (Bodies[I] && B.Begin < Bodies[I]->End && Bodies[I]->Begin < B.End)
        continue; // this kernel's own body (an instantiation of the same template)
      Masked.push_back(B);
    }
    std::sort(Masked.begin(), Masked.end(),
              [](const BodyRange &A, const BodyRange &B) { return A.Begin < B.Begin; });
    std::string Key = Common;
    // Its name, and where it is declared (two overloads share a name): by
    // line and column, which typing in another kernel does not move.
    const SourceLocation Loc = SM.getExpansionLoc(Kernels[I].FD->getLocation());
    Key += '\2' + Kernels[I].Name + '\2' + SM.getFilename(Loc).str() + ':' +
           std::to_string(SM.getExpansionLineNumber(Loc)) + ':' +
           std::to_string(SM.getExpansionColumnNumber(Loc)) + '\2';
    unsigned At = 0;
    for (const BodyRange &B : Masked) {
      if (B.Begin < At)
        continue; // the same body twice (two instantiations), or nested
      Key.append(Text.data() + At, B.Begin - At);
      const llvm::StringRef Body = Text.substr(B.Begin, B.End - B.Begin);
      // Its lines, and the column its closing brace ends at: what places
      // the text after it.
      const size_t LastLine = Body.rfind('\n');
      const size_t Tail = LastLine == llvm::StringRef::npos ? Body.size() : Body.size() - LastLine;
      Key += "\3" + std::to_string(Body.count('\n')) + ":" + std::to_string(Tail) + "\3";
      At = B.End;
    }
    Key.append(Text.data() + At, Text.size() - At);
    Keys.push_back(hashOf(Key));
  }
  return Keys;
}

} // namespace coalesce
