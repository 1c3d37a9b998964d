//===- BlockChoice.cpp - Block shapes the user gives (--block) -------------===//

#include "launch/BlockChoice.h"

#include "llvm/ADT/SmallVector.h"

#include <cctype>

namespace coalesce {

namespace {

/// Spaces dropped, and integer suffixes: "reduce6<float, 256U>" ->
/// "reduce6<float,256>".
std::string normalise(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (std::isspace(static_cast<unsigned char>(C)))
      continue;
    if ((C == 'u' || C == 'U' || C == 'l' || C == 'L') && !Out.empty() &&
        std::isdigit(static_cast<unsigned char>(Out.back()))) {
      size_t J = Out.size();
      while (J > 0 && std::isdigit(static_cast<unsigned char>(Out[J - 1])))
        --J;
      if (J == 0 || !(std::isalnum(static_cast<unsigned char>(Out[J - 1])) || Out[J - 1] == '_'))
        continue; // a suffix of a number
    }
    Out += C;
  }
  return Out;
}

/// The name without the namespaces in front of it: "img::blur<2>" -> "blur<2>".
std::string unqualified(const std::string &S) {
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I + 1 < S.size(); ++I) {
    if (S[I] == '<')
      ++Depth;
    else if (S[I] == '>')
      --Depth;
    else if (Depth == 0 && S[I] == ':' && S[I + 1] == ':')
      Start = I + 2;
  }
  return S.substr(Start);
}

std::string withoutTemplateArgs(const std::string &S) { return S.substr(0, S.find('<')); }

} // namespace

std::optional<Dim3> parseBlockShape(llvm::StringRef S, std::string &Why) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  S.split(Parts, ',');
  Dim3 D;
  int64_t *F[3] = {&D.X, &D.Y, &D.Z};
  if (S.trim().empty() || Parts.size() > 3) {
    Why = "expects X[,Y[,Z]] with positive integers, got '" + S.str() + "'";
    return std::nullopt;
  }
  for (size_t I = 0; I < Parts.size(); ++I) {
    llvm::StringRef P = Parts[I].trim();
    if (P.empty() || P.size() > 9 || P.find_first_not_of("0123456789") != llvm::StringRef::npos) {
      Why = "expects X[,Y[,Z]] with positive integers, got '" + S.str() + "'";
      return std::nullopt;
    }
    P.getAsInteger(10, *F[I]);
  }
  Why = validateBlockShape(D);
  if (!Why.empty())
    return std::nullopt;
  return D;
}

std::optional<BlockChoice> parseBlockChoice(llvm::StringRef S, std::string &Why) {
  BlockChoice C;
  llvm::StringRef Shape = S;
  const size_t Eq = S.find('=');
  if (Eq != llvm::StringRef::npos) {
    C.Kernel = S.substr(0, Eq).trim().str();
    Shape = S.substr(Eq + 1);
    if (C.Kernel.empty()) {
      Why = "expects KERNEL=X[,Y[,Z]] with a kernel name, got '" + S.str() + "'";
      return std::nullopt;
    }
  }
  std::optional<Dim3> D = parseBlockShape(Shape, Why);
  if (!D) {
    if (!C.Kernel.empty() && llvm::StringRef(Why).starts_with("expects"))
      Why = "expects KERNEL=X[,Y[,Z]] with positive integers, got '" + S.str() + "'";
    return std::nullopt;
  }
  C.Block = *D;
  return C;
}

int namesKernel(llvm::StringRef Choice, llvm::StringRef KernelName) {
  const std::string C = normalise(Choice), K = normalise(KernelName);
  const std::string KU = unqualified(K);
  if (C.find('<') != std::string::npos)
    return C == K || C == KU ? 2 : 0;
  return C == withoutTemplateArgs(K) || C == withoutTemplateArgs(KU) ? 1 : 0;
}

const BlockChoice *chooseBlock(const std::vector<BlockChoice> &Choices,
                               llvm::StringRef KernelName) {
  const BlockChoice *Best = nullptr;
  int BestRank = -1;
  for (const BlockChoice &C : Choices) {
    const int Rank = C.Kernel.empty() ? 0 : namesKernel(C.Kernel, KernelName);
    if (!C.Kernel.empty() && Rank == 0)
      continue;
    if (Rank >= BestRank) {
      Best = &C;
      BestRank = Rank;
    }
  }
  return Best;
}

} // namespace coalesce
