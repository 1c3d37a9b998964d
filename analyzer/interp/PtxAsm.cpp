//===- PtxAsm.cpp - The statements of an inline PTX assembly string -------===//

#include "interp/PtxAsm.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace coalesce {

namespace {

std::string trim(const std::string &S) {
  size_t B = 0, E = S.size();
  while (B < E && std::isspace(static_cast<unsigned char>(S[B])))
    ++B;
  while (E > B && std::isspace(static_cast<unsigned char>(S[E - 1])))
    --E;
  return S.substr(B, E - B);
}

std::string withoutComments(const std::string &T) {
  std::string Out;
  for (size_t I = 0; I < T.size(); ++I) {
    if (T[I] == '/' && I + 1 < T.size() && T[I + 1] == '/') {
      while (I < T.size() && T[I] != '\n')
        ++I;
      Out += '\n';
      continue;
    }
    if (T[I] == '/' && I + 1 < T.size() && T[I + 1] == '*') {
      size_t End = T.find("*/", I + 2);
      I = End == std::string::npos ? T.size() : End + 1;
      Out += ' ';
      continue;
    }
    Out += T[I];
  }
  return Out;
}

/// Splits at top-level commas (not inside {} or []).
std::vector<std::string> splitOperands(const std::string &S) {
  std::vector<std::string> Out;
  int Depth = 0;
  std::string Cur;
  for (char C : S) {
    if (C == '{' || C == '[')
      ++Depth;
    else if (C == '}' || C == ']')
      --Depth;
    if (C == ',' && Depth == 0) {
      Out.push_back(trim(Cur));
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!trim(Cur).empty())
    Out.push_back(trim(Cur));
  return Out;
}

std::optional<PtxStatement> parseStatement(std::string S, bool &Labelled) {
  S = trim(S);
  // Scope braces and labels before the instruction.
  for (;;) {
    if (!S.empty() && (S[0] == '{' || S[0] == '}')) {
      S = trim(S.substr(1));
      continue;
    }
    size_t Colon = S.find(':');
    if (Colon != std::string::npos && Colon > 0) {
      bool Label = true;
      for (size_t I = 0; I < Colon; ++I)
        if (!(std::isalnum(static_cast<unsigned char>(S[I])) || S[I] == '_' || S[I] == '$'))
          Label = false;
      if (Label && (Colon + 1 >= S.size() || S[Colon + 1] != ':')) {
        S = trim(S.substr(Colon + 1));
        Labelled = true;
        continue;
      }
    }
    break;
  }
  if (S.empty() || S[0] == '.')
    return std::nullopt;
  PtxStatement St;
  St.Labelled = Labelled;
  Labelled = false;
  if (S[0] == '@') {
    size_t E = 1;
    while (E < S.size() && !std::isspace(static_cast<unsigned char>(S[E])))
      ++E;
    St.Guard = S.substr(0, E);
    S = trim(S.substr(E));
  }
  size_t E = 0;
  while (E < S.size() && !std::isspace(static_cast<unsigned char>(S[E])))
    ++E;
  const std::string Op = S.substr(0, E);
  if (Op.empty())
    return std::nullopt;
  // Parts split at '.', keeping "::" qualifiers ("shared::cta", "L2::128B").
  std::string Part;
  for (char C : Op) {
    if (C == '.') {
      if (!Part.empty())
        St.Opcode.push_back(Part);
      Part.clear();
      continue;
    }
    Part += C;
  }
  if (!Part.empty())
    St.Opcode.push_back(Part);
  St.Operands = splitOperands(S.substr(E));
  return St;
}

} // namespace

bool PtxStatement::has(const std::string &P) const {
  for (const std::string &O : Opcode)
    if (O == P || (O.size() > P.size() && O.compare(0, P.size(), P) == 0 &&
                   O.compare(P.size(), 2, "::") == 0))
      return true;
  return false;
}

std::string PtxStatement::opcodeText() const {
  std::string T;
  for (const std::string &O : Opcode)
    T += (T.empty() ? "" : ".") + O;
  return T;
}

std::vector<PtxStatement> parsePtx(const std::string &Text) {
  std::vector<PtxStatement> Out;
  std::string T = withoutComments(Text);
  // `%=` (a number unique to the asm statement, for labels) as the operand
  // resolution leaves it.
  for (size_t P; (P = T.find("${:uid}")) != std::string::npos;)
    T.replace(P, 7, "0");
  bool Labelled = false;
  std::string Cur;
  int Depth = 0; // inside an operand's {} or []: not a statement's end
  for (size_t I = 0; I < T.size(); ++I) {
    const char C = T[I];
    if (C == '[')
      ++Depth;
    else if (C == ']')
      --Depth;
    // A '{' opens a vector operand when an opcode came before it on this
    // statement; otherwise it is a scope.
    if (C == '{' || C == '}') {
      const std::string Before = trim(Cur);
      const bool Scope =
          C == '{' ? (Before.empty() || Before.back() == '{' || Before.back() == '}' ||
                      Before.back() == ':')
                   : Depth == 0;
      if (Scope && C == '{' && !Before.empty() && Before.back() == ':')
        Labelled = true; // `L: { ... }`
      if (Scope && C == '}') {
        if (auto St = parseStatement(Cur, Labelled))
          Out.push_back(*St);
        Cur.clear();
        continue;
      }
      if (Scope) {
        Cur.clear();
        continue;
      }
      Depth += C == '{' ? 1 : -1;
      Cur += C;
      continue;
    }
    if (C == ';' && Depth == 0) {
      if (auto St = parseStatement(Cur, Labelled))
        Out.push_back(*St);
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (auto St = parseStatement(Cur, Labelled))
    Out.push_back(*St);
  return Out;
}

std::optional<PtxAddress> parsePtxAddress(const std::string &Operand) {
  const std::string S = trim(Operand);
  if (S.size() < 3 || S.front() != '[' || S.back() != ']')
    return std::nullopt;
  const std::string In = trim(S.substr(1, S.size() - 2));
  PtxAddress A;
  size_t Sign = In.find_first_of("+-", 1);
  A.Base = trim(In.substr(0, Sign));
  if (A.Base.empty())
    return std::nullopt;
  if (Sign != std::string::npos) {
    std::optional<int64_t> Off = parsePtxInteger(trim(In.substr(Sign + 1)));
    if (!Off)
      return std::nullopt;
    A.Offset = In[Sign] == '-' ? -*Off : *Off;
  }
  return A;
}

std::optional<PtxTensorOperand> parsePtxTensorOperand(const std::string &Operand) {
  const std::string S = trim(Operand);
  if (S.size() < 5 || S.front() != '[' || S.back() != ']')
    return std::nullopt;
  std::vector<std::string> Parts = splitOperands(S.substr(1, S.size() - 2));
  if (Parts.size() != 2 || Parts[0].empty())
    return std::nullopt;
  const std::string C = trim(Parts[1]);
  if (C.size() < 2 || C.front() != '{' || C.back() != '}')
    return std::nullopt;
  PtxTensorOperand T;
  T.Map = trim(Parts[0]);
  T.Coords = parsePtxList(C);
  return T;
}

std::vector<std::string> parsePtxList(const std::string &Operand) {
  const std::string S = trim(Operand);
  if (S.size() >= 2 && S.front() == '{' && S.back() == '}')
    return splitOperands(S.substr(1, S.size() - 2));
  return {S};
}

std::optional<int64_t> parsePtxInteger(const std::string &Operand) {
  std::string S = trim(Operand);
  if (!S.empty() && (S.back() == 'U' || S.back() == 'u'))
    S.pop_back();
  if (S.empty())
    return std::nullopt;
  bool Neg = S[0] == '-';
  if (Neg)
    S = S.substr(1);
  if (S.empty() || !std::isdigit(static_cast<unsigned char>(S[0])))
    return std::nullopt;
  char *End = nullptr;
  errno = 0;
  const unsigned long long V = std::strtoull(S.c_str(), &End, 0);
  if (!End || *End || errno == ERANGE)
    return std::nullopt;
  // PTX integers are 64-bit: wrap as the hardware does.
  const int64_t W = static_cast<int64_t>(V);
  return Neg ? -W : W;
}

std::optional<unsigned> ptxOperandIndex(const std::string &Operand) {
  const std::string S = trim(Operand);
  if (S.size() < 2 || S[0] != '$')
    return std::nullopt;
  for (size_t I = 1; I < S.size(); ++I)
    if (!std::isdigit(static_cast<unsigned char>(S[I])))
      return std::nullopt;
  return static_cast<unsigned>(std::stoul(S.substr(1)));
}

} // namespace coalesce
