//===- Sass.cpp - The memory instructions nvcc emitted, read from nvdisasm -===//

#include "witness/Sass.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace coalesce {
namespace witness {

namespace {

std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

bool startsWith(std::string_view S, std::string_view P) { return S.substr(0, P.size()) == P; }

std::vector<std::string_view> split(std::string_view S, char Sep) {
  std::vector<std::string_view> Out;
  size_t Start = 0;
  for (size_t I = 0; I <= S.size(); ++I)
    if (I == S.size() || S[I] == Sep) {
      Out.push_back(S.substr(Start, I - Start));
      Start = I + 1;
    }
  return Out;
}

/// `File "/tmp/k.cu", line 12` at the start of S: the place, and the rest.
std::optional<SourceLine> readPlace(std::string_view &S) {
  S = trim(S);
  if (!startsWith(S, "File \""))
    return std::nullopt;
  S.remove_prefix(6);
  size_t Q = S.find('"');
  if (Q == std::string_view::npos)
    return std::nullopt;
  SourceLine L;
  L.File = std::string(S.substr(0, Q));
  S.remove_prefix(Q + 1);
  size_t At = S.find("line ");
  if (At == std::string_view::npos)
    return std::nullopt;
  S.remove_prefix(At + 5);
  unsigned N = 0;
  size_t I = 0;
  while (I < S.size() && std::isdigit(static_cast<unsigned char>(S[I])))
    N = N * 10 + (S[I++] - '0');
  if (I == 0)
    return std::nullopt;
  S.remove_prefix(I);
  L.Line = N;
  return L;
}

unsigned widthOf(const std::vector<std::string_view> &Mods, unsigned Default) {
  for (std::string_view M : Mods) {
    // Vector and packed atomics: F32x4 (16 bytes), F32x2, F16x2, BF16x4.
    if (const size_t X = M.find('x'); X != std::string_view::npos && X > 0 && X + 1 < M.size()) {
      size_t D = X;
      while (D > 0 && std::isdigit(static_cast<unsigned char>(M[D - 1])))
        --D;
      const std::string_view Bits = M.substr(D, X - D), Count = M.substr(X + 1);
      if (!Bits.empty() && Bits.size() <= 3 && D > 0 && !Count.empty() && Count.size() <= 2 &&
          Count.find_first_not_of("0123456789") == std::string_view::npos) {
        const unsigned B = static_cast<unsigned>(std::stoul(std::string(Bits)));
        const unsigned C = static_cast<unsigned>(std::stoul(std::string(Count)));
        if (B && C && B % 8 == 0 && B * C / 8 <= 16)
          return B * C / 8;
      }
    }
    if (M == "U8" || M == "S8")
      return 1;
    if (M == "U16" || M == "S16")
      return 2;
    if (M == "32")
      return 4;
    if (M == "64")
      return 8;
    if (M == "128")
      return 16;
  }
  return Default;
}

} // namespace

bool classifyOpcode(std::string_view Opcode, std::string_view Operands, SassInstruction &I) {
  std::vector<std::string_view> Parts = split(Opcode, '.');
  std::string_view Base = Parts.front();
  std::vector<std::string_view> Mods(Parts.begin() + 1, Parts.end());
  I.Opcode = std::string(Opcode);
  I.Width = widthOf(Mods, 4);
  auto In = [&](MemorySpace S) { I.Space.Space = S; };
  // The plain accesses: opcode, kind, space (none: generic, the address
  // decides at run time).
  struct Plain {
    std::string_view Base;
    SassOp Op;
    std::optional<MemorySpace> Space;
  };
  static const Plain Plains[] = {
      {"LDG", SassOp::Load, MemorySpace::Global},    {"STG", SassOp::Store, MemorySpace::Global},
      {"LDS", SassOp::Load, MemorySpace::Shared},    {"STS", SassOp::Store, MemorySpace::Shared},
      {"LDL", SassOp::Load, MemorySpace::Local},     {"STL", SassOp::Store, MemorySpace::Local},
      {"LD", SassOp::Load, std::nullopt},            {"ST", SassOp::Store, std::nullopt},
      {"ATOMG", SassOp::Atomic, MemorySpace::Global}, {"REDG", SassOp::Atomic, MemorySpace::Global},
      {"ATOMS", SassOp::Atomic, MemorySpace::Shared}, {"ATOM", SassOp::Atomic, std::nullopt},
      {"RED", SassOp::Atomic, std::nullopt}};
  const Plain *P = std::find_if(std::begin(Plains), std::end(Plains),
                                [&](const Plain &X) { return X.Base == Base; });
  if (P != std::end(Plains)) {
    I.Op = P->Op;
    I.Space.Space = P->Space;
  } else if (Base == "LDGSTS") {
    I.Op = SassOp::AsyncCopy;
    In(MemorySpace::Global);
  } else if (Base == "LDSM" || Base == "STSM") {
    I.Op = Base == "LDSM" ? SassOp::MatrixLoad : SassOp::MatrixStore;
    In(MemorySpace::Shared);
    for (std::string_view M : Mods) {
      if (M == "1" || M == "2" || M == "4")
        I.Matrices = static_cast<unsigned>(M[0] - '0');
      if (M == "MT88")
        I.Transposed = true;
    }
    if (!I.Matrices)
      I.Matrices = 1;
    I.Width = 4 * I.Matrices;
  } else if (startsWith(Base, "UTMA") || Base == "UBLKCP" || Base == "UBLKRED") {
    I.Op = SassOp::Bulk;
    In(MemorySpace::Global);
  } else if (Base == "LDC") {
    // A constant read at a register index (c[0x3][R2]): an access to a
    // __constant__ array. Parameters and fixed offsets (c[0x0][0x210]) are
    // how every kernel reads its arguments: not an access of the source.
    size_t C = Operands.find("c[");
    if (C == std::string_view::npos)
      return false;
    std::string_view Rest = Operands.substr(C);
    size_t Close = Rest.find("][");
    if (Close == std::string_view::npos)
      return false;
    std::string_view Index = Rest.substr(Close + 2);
    if (Index.empty() || Index[0] != 'R' || startsWith(Index, "RZ"))
      return false;
    I.Op = SassOp::Load;
    In(MemorySpace::Constant);
  } else {
    return false;
  }
  return true;
}

std::optional<SassModule> parseDisassembly(std::string_view Text, std::string &Error) {
  SassModule M;
  SassFunction *Cur = nullptr;
  std::vector<SourceLine> Chain;   // the place of the instructions that follow
  std::vector<SourceLine> Pending; // a chain being read: entries "inlined at" continue it
  bool PendingOpen = false;        // the last entry read was "inlined at" another line
  bool SawCode = false;
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Line = trim(Text.substr(Pos, End - Pos));
    Pos = End + 1;
    if (Line.empty())
      continue;
    if (startsWith(Line, ".target")) {
      M.Arch = std::string(trim(Line.substr(7)));
      continue;
    }
    if (startsWith(Line, ".section")) {
      // .section	.text._Z2k4PKfPfi,"ax",@progbits
      std::string_view S = trim(Line.substr(8));
      if (startsWith(S, ".text.")) {
        S.remove_prefix(6);
        size_t Comma = S.find(',');
        M.Functions.push_back({});
        Cur = &M.Functions.back();
        Cur->Name = std::string(S.substr(0, Comma));
        Chain.clear();
        Pending.clear();
        PendingOpen = false;
      } else {
        Cur = nullptr;
      }
      continue;
    }
    if (Cur && startsWith(Line, ".other") && Line.find("STO_CUDA_ENTRY") != std::string_view::npos) {
      Cur->Entry = true;
      continue;
    }
    if (startsWith(Line, "//##")) {
      std::string_view S = Line.substr(4);
      std::optional<SourceLine> Here = readPlace(S);
      if (!Here)
        continue;
      if (!PendingOpen)
        Pending.clear();
      Pending.push_back(*Here);
      PendingOpen = S.find("inlined at") != std::string_view::npos;
      if (!PendingOpen)
        Chain = Pending;
      continue;
    }
    // /*0070*/                   LDG.E.CONSTANT R6, desc[UR6][R6.64] ;
    if (!startsWith(Line, "/*"))
      continue;
    size_t Close = Line.find("*/");
    if (Close == std::string_view::npos)
      continue;
    std::string_view AddrText = Line.substr(2, Close - 2);
    bool Hex = !AddrText.empty();
    uint32_t Addr = 0;
    for (char C : AddrText) {
      if (!std::isxdigit(static_cast<unsigned char>(C))) {
        Hex = false;
        break;
      }
      Addr = Addr * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(C))
                                                   ? C - '0'
                                                   : std::tolower(C) - 'a' + 10);
    }
    if (!Hex || !Cur)
      continue;
    SawCode = true;
    std::string_view Ins = trim(Line.substr(Close + 2));
    if (!Ins.empty() && Ins.back() == ';')
      Ins = trim(Ins.substr(0, Ins.size() - 1));
    // cuobjdump adds the encoding as a second comment: /* 0x000fe2... */
    if (size_t C = Ins.find("/*"); C != std::string_view::npos)
      Ins = trim(Ins.substr(0, C));
    if (!Ins.empty() && Ins.back() == ';')
      Ins = trim(Ins.substr(0, Ins.size() - 1));
    bool Predicated = false;
    if (startsWith(Ins, "@")) {
      size_t Sp = Ins.find(' ');
      std::string_view Pred = Ins.substr(1, Sp - 1);
      if (Pred == "!PT")
        continue; // never runs (padding ptxas adds before LDGSTS)
      Predicated = Pred != "PT";
      Ins = trim(Ins.substr(Sp));
    }
    size_t Sp = Ins.find(' ');
    std::string_view Opcode = Ins.substr(0, Sp);
    std::string_view Operands = Sp == std::string_view::npos ? "" : Ins.substr(Sp + 1);
    SassInstruction I;
    if (!classifyOpcode(Opcode, Operands, I))
      continue;
    I.Address = Addr;
    I.Text = std::string(Ins);
    I.Predicated = Predicated;
    I.Chain = Chain;
    Cur->Memory.push_back(std::move(I));
  }
  // A file with no kernels has a cubin with no functions: an empty module,
  // as long as the text is nvdisasm's.
  if (M.Functions.empty() && !SawCode && M.Arch.empty()) {
    Error = "no SASS functions in the disassembly";
    return std::nullopt;
  }
  return M;
}

const SassFunction *SassModule::function(std::string_view Mangled) const {
  for (const SassFunction &F : Functions)
    if (F.Name == Mangled)
      return &F;
  return nullptr;
}

LineInventory::LineInventory(const SassFunction &F, IsSystemFile System, void *Ctx) {
  for (const SassInstruction &I : F.Memory) {
    if (I.Chain.empty())
      continue;
    std::set<std::pair<std::string, unsigned>> Keys;
    Keys.insert({I.Chain.front().File, I.Chain.front().Line});
    if (System && System(I.Chain.front().File, Ctx))
      for (const SourceLine &L : I.Chain)
        if (!System(L.File, Ctx)) {
          Keys.insert({L.File, L.Line});
          break;
        }
    for (const auto &K : Keys)
      ByLine[K].push_back(&I);
  }
}

std::string LineInventory::match(const std::string &File) const {
  auto Memo = Matched.find(File);
  if (Memo != Matched.end())
    return Memo->second;
  auto Lower = ByLine.lower_bound({File, 0});
  if (Lower != ByLine.end() && Lower->first.first == File)
    return Matched[File] = File;
  // The same file named another way (relative, through a link): the
  // longest common tail of path components, if one file has it.
  auto Components = [](const std::string &P) {
    std::vector<std::string> C;
    for (std::string_view S : split(P, '/'))
      if (!S.empty() && S != ".")
        C.emplace_back(S);
    return C;
  };
  const std::vector<std::string> Want = Components(File);
  std::string Best;
  size_t BestLen = 0;
  bool Tie = false;
  std::string Last;
  for (const auto &KV : ByLine) {
    if (KV.first.first == Last)
      continue;
    Last = KV.first.first;
    const std::vector<std::string> Have = Components(Last);
    size_t N = 0;
    while (N < Want.size() && N < Have.size() &&
           Want[Want.size() - 1 - N] == Have[Have.size() - 1 - N])
      ++N;
    if (N > BestLen) {
      Best = Last;
      BestLen = N;
      Tie = false;
    } else if (N == BestLen && N > 0) {
      Tie = true;
    }
  }
  return Matched[File] = BestLen > 0 && !Tie ? Best : std::string();
}

std::vector<const SassInstruction *> LineInventory::at(const std::string &File,
                                                       unsigned Line) const {
  const std::string F = match(File);
  if (F.empty())
    return {};
  auto It = ByLine.find({F, Line});
  return It == ByLine.end() ? std::vector<const SassInstruction *>() : It->second;
}

std::vector<unsigned> LineInventory::linesOf(const std::string &File) const {
  std::vector<unsigned> Out;
  const std::string F = match(File);
  if (F.empty())
    return Out;
  for (auto It = ByLine.lower_bound({F, 0}); It != ByLine.end() && It->first.first == F; ++It)
    Out.push_back(It->first.second);
  return Out;
}

std::string describe(const SassInstruction &I) {
  return I.Predicated ? I.Opcode + " (predicated)" : I.Opcode;
}

std::string summarize(const std::vector<const SassInstruction *> &Is) {
  std::map<std::string, unsigned> Count;
  std::vector<std::string> Order;
  for (const SassInstruction *I : Is) {
    std::string K = describe(*I);
    if (!Count[K]++)
      Order.push_back(K);
  }
  std::string Out;
  for (size_t K = 0; K < Order.size(); ++K) {
    if (K)
      Out += K + 1 == Order.size() ? " and " : ", ";
    Out += Order[K];
    if (Count[Order[K]] > 1)
      Out += " x" + std::to_string(Count[Order[K]]);
  }
  return Out;
}

bool serves(const SassInstruction &I, MemorySpace S, AccessOp Op) {
  const bool OpMatches = (Op == AccessOp::Load && I.Op == SassOp::Load) ||
                         (Op == AccessOp::Store && I.Op == SassOp::Store) ||
                         (Op == AccessOp::Atomic && I.Op == SassOp::Atomic);
  return OpMatches && (I.Space.generic() || *I.Space.Space == S);
}

SassFunction kernelCode(const SassModule &M, const SassFunction &Kernel) {
  SassFunction Out = Kernel;
  for (const SassFunction &F : M.Functions)
    if (!F.Entry)
      Out.Memory.insert(Out.Memory.end(), F.Memory.begin(), F.Memory.end());
  return Out;
}

} // namespace witness
} // namespace coalesce
