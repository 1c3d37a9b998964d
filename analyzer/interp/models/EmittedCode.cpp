//===- EmittedCode.cpp - The instructions nvcc emitted, joined with the walk -===//
//
// The compiler as a second witness (docs/witness.md). The other models say
// what nvcc and ptxas are likely to do; when the instructions they emitted
// for the kernel are known (KernelRun::Emitted, read from the disassembly of
// the file's device code by driver/Witness.h), this model joins them with
// the warp's events, once its walk is complete (warpRan(): the walker holds
// every event back until then), and decides with them:
//
//   - Widths. Accesses of one array that nvcc emitted as wider instructions
//     (the rows ptxas merges into LDS.128, struct fields written one after
//     the other as one STS.128, the iterations of an outer loop it unrolls
//     and merges) are grouped into the aligned blocks the wider instructions
//     read: one event per instruction, at its width and address, on the
//     line the instruction is attributed to; the accesses it serves besides
//     are no instruction of their own ('merged-into'). A grouping is used
//     only when it gives, line by line, the widths nvcc emitted; otherwise
//     the accesses are unknown, with what was emitted ('emitted-unmatched').
//     This settles what SharedMerges and BranchTwins leave open ('may be
//     merged'), and corrects a width they did not see.
//   - Lines. An access with no instruction of its kind on its own line whose
//     instruction lies on another line of the same statement is reported on
//     that line, where Nsight Compute shows it.
//   - Instructions that do not exist. An access with no instruction of its
//     kind on any line of its statement is no instruction of its own
//     ('not-emitted'): the compiler kept the value in a register or removed
//     the access; it yields no finding.
//
// Every event it looks at says which witness decided it (Witnessed).
// Constant-memory reads (often an operand of another instruction, not an
// instruction) and asynchronous copies are left to the source analysis.
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"
#include "model/Alignment.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <cstdint>
#include <map>
#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

using witness::SassInstruction;
using witness::SassOp;
using witness::serves;
using witness::summarize;

bool decidable(const AccessEvent &E) {
  // An instruction of inline assembly is what it says (an asynchronous
  // copy, a matrix load): the witness does not change its width or line.
  if (E.SecondSide || !E.Site || E.Instr != InstrKind::Plain)
    return false;
  if (E.Space != MemorySpace::Global && E.Space != MemorySpace::Shared &&
      E.Space != MemorySpace::Local)
    return false;
  return E.Op == AccessOp::Load || E.Op == AccessOp::Store || E.Op == AccessOp::Atomic;
}

/// "shared loads", "global stores".
std::string kindText(MemorySpace S, AccessOp Op) {
  return std::string(spaceName(S)) + " " +
         (Op == AccessOp::Load ? "loads" : Op == AccessOp::Store ? "stores" : "atomics");
}
/// "shared load", for a single instruction.
std::string kindOne(MemorySpace S, AccessOp Op) {
  std::string K = kindText(S, Op);
  return K.substr(0, K.size() - 1);
}

/// The SASS opcode of a plain access of this space, op and width.
std::string opcodeFor(MemorySpace S, AccessOp Op, unsigned Width) {
  std::string Base = S == MemorySpace::Shared ? (Op == AccessOp::Load ? "LDS" : "STS")
                     : S == MemorySpace::Local ? (Op == AccessOp::Load ? "LDL" : "STL")
                                               : (Op == AccessOp::Load ? "LDG" : "STG");
  if (Width >= 8)
    Base += "." + std::to_string(Width * 8);
  return Base;
}

class EmittedCode : public CompilerModel {
public:
  using CompilerModel::CompilerModel;
  void warpRan() override;

private:
  struct Home {
    std::string File;
    unsigned Line = 0;
    bool Known = false; // the inventory holds lines of this file
  };
  const Home &homeOf(const AccessEvent &E);
  llvm::DenseMap<const Expr *, Home> Homes;
  /// The lines of the statement an access belongs to (first, last).
  std::pair<unsigned, unsigned> statementLines(const AccessEvent &E);
  llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> StmtLines;
  /// The instructions of this space and kind at File:Line (memoized).
  const std::vector<const SassInstruction *> &emitted(const std::string &File, unsigned Line,
                                                      MemorySpace S, AccessOp Op);
  std::map<std::tuple<std::string, unsigned, int, int>, std::vector<const SassInstruction *>>
      EmittedCache;

  /// The decidable events of the warp by home line and kind (warpRan()).
  std::map<std::tuple<std::string, unsigned, int, int>, std::vector<size_t>> OnLine;
  /// One instruction the grouping makes of a block of an array's bytes.
  struct Made {
    unsigned Width = 0;
    int64_t Start = 0;            // from the block's start
    std::vector<size_t> Members;  // the events it serves (Buffered indices)
    size_t Rep = 0;               // the one that stands for it
    int64_t RepOff = 0;           // its offset in the block
    unsigned Line = 0;            // where nvcc put it
  };
  /// Groups the events of one array and operation into the instructions
  /// nvcc emitted; false (nothing changed) when the widths per line do not
  /// come out as emitted.
  bool group(const std::vector<size_t> &Class, std::vector<bool> &Drop,
             std::vector<bool> &Decided);
  void forgetMergeable(const Expr *Site, AccessOp Op) {
    R.Mergeable.erase({Site, Op});
    R.Mergeable.erase({Site->IgnoreParenImpCasts(), Op});
  }
  /// Accesses written alike on both sides of a branch both lanes run
  /// (KernelRun::BranchTwins) with no instruction on either side's line:
  /// one instruction that the lanes of both sides run, on the line nvcc
  /// put it (a line nearby whose instruction no access claims).
  void joinTwins(std::vector<bool> &Drop, std::vector<bool> &Decided);
  /// The lines of a function (first, last).
  std::pair<unsigned, unsigned> functionLines(const FunctionDecl *FD);
  /// Whether If is part of a chain of `else if`s of FD.
  bool inChain(const IfStmt *If, const FunctionDecl *FD);
  llvm::DenseSet<const FunctionDecl *> ChainScanned;
  llvm::DenseSet<const IfStmt *> Chained;
  /// Lines with an instruction of a kind no access left on them claims.
  std::map<std::tuple<std::string, unsigned, int, int>, std::set<unsigned>> LeftWidths;
  void countLeft(const std::vector<bool> &Drop);
  bool claimed(const std::string &File, unsigned Line, const AccessEvent &E) {
    return LeftWidths.count({File, Line, int(E.Space), int(E.Op)}) != 0;
  }
  /// An access written alike on another side of a branch that both sides'
  /// lanes run (KernelRun::BranchTwins) with no instruction of its kind on
  /// its own line, or null.
  const Expr *partnerWithoutInstruction(const AccessEvent &E);
  bool mergeable(const Expr *Site, AccessOp Op) const {
    return R.Mergeable.count({Site, Op}) || R.Mergeable.count({Site->IgnoreParenImpCasts(), Op});
  }
  /// Whether Site lies in a loop of FD (memoized).
  bool inLoop(const Expr *Site, const FunctionDecl *FD);
  bool findLoopAbove(const Expr *Site, const FunctionDecl *FD);
  llvm::DenseMap<const Expr *, bool> InLoop;
  /// For an access that is a call of a function of a system header and has
  /// no instruction on its own lines: the nearest earlier line holding
  /// more instructions of its kind and width, inlined from that function,
  /// than calls of it reported there (nvcc's line table gives the second
  /// of two calls the first one's location); 0 if none.
  unsigned headerCallLine(size_t I);
  /// Lines of an `else if` chain, and of the code after it, holding
  /// instructions of a kind that no access there can claim, while accesses
  /// of the chain's sides have no instruction of their own: nvcc merged
  /// them, with an address each side selects, into those instructions
  /// (Rodinia srad). Each such line gets a record of its own, unknown,
  /// where Nsight Compute shows the instruction (MergedFromBranches).
  void noteMergedOrphans(std::vector<bool> &Drop);
  /// The chains of `else if`s of FD: the lines of each, from its first if
  /// to the end of its last side.
  struct Chain {
    const IfStmt *Head;
    unsigned Lo, Hi;
  };
  const std::vector<Chain> &chainsOf(const FunctionDecl *FD);
  llvm::DenseMap<const FunctionDecl *, std::vector<Chain>> Chains;
  /// The first expression of S, in source order, that may access memory of
  /// this space (the site a chain's merged instructions are recorded at,
  /// the same whichever warp finds them).
  const Expr *firstAccessIn(const Stmt *S, MemorySpace Space);
  /// The lines of FD that hold an expression that may access memory of
  /// this space (a subscript, a dereference, a call that may be inlined).
  const std::set<unsigned> &mayAccessLines(const FunctionDecl *FD, MemorySpace S);
  std::map<std::pair<const FunctionDecl *, int>, std::set<unsigned>> MayAccess;
  /// Global accesses of one thread that read (write) the adjacent pieces
  /// of a block aligned at run time, each emitted at its own width where one
  /// instruction of the block's width would do: the first carries the
  /// chance (AccessEvent::Chance).
  void noteVectorChances(const std::vector<bool> &Drop);
};

/// The pointer variable an lvalue indexes (`p` of `p[4 * i + 1]`, of
/// `p[i].x`, of `p->x`), or null.
const VarDecl *pointerOf(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
    } else if (auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
    } else if (auto *UO = dyn_cast<UnaryOperator>(E);
               UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)) {
      E = UO->getSubExpr();
    } else if (auto *BO = dyn_cast<BinaryOperator>(E);
               BO && BO->getType()->isPointerType() && BO->isAdditiveOp()) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    } else if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      return VD && VD->getType()->isPointerType() ? VD : nullptr;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The variable an access expression's subscripts and fields start from.
const ValueDecl *baseDecl(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else if (auto *DR = dyn_cast<DeclRefExpr>(E))
      return DR->getDecl();
    else
      return nullptr;
  }
  return nullptr;
}

/// Calls Visit(E), in source order, on each expression under S that may
/// access memory of Space: a subscript, a dereference or an arrow whose
/// base may lie there (a __shared__ or __constant__ variable, its own
/// space; a kernel's pointer parameter, global memory; anything else, a
/// local pointer or a device function's parameter, any), and each call of
/// a function that is not a builtin (its code may be inlined there). Stops
/// when Visit returns false.
void forEachMayAccess(Stmt *S, MemorySpace Space,
                      const std::function<bool(const Expr *)> &Visit) {
  struct Finder : RecursiveASTVisitor<Finder> {
    MemorySpace Space;
    const std::function<bool(const Expr *)> &Visit;
    Finder(MemorySpace Space, const std::function<bool(const Expr *)> &Visit)
        : Space(Space), Visit(Visit) {}
    bool mayBe(const Expr *Base) {
      const auto *VD = dyn_cast_or_null<VarDecl>(baseDecl(Base));
      if (!VD)
        return true;
      if (VD->hasAttr<CUDASharedAttr>())
        return Space == MemorySpace::Shared;
      if (VD->hasAttr<CUDAConstantAttr>())
        return Space == MemorySpace::Constant;
      if (const auto *P = dyn_cast<ParmVarDecl>(VD))
        if (const auto *Fn = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
            Fn && Fn->hasAttr<CUDAGlobalAttr>() && P->getType()->isPointerType())
          return Space == MemorySpace::Global;
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      return !mayBe(E->getBase()) || Visit(E);
    }
    bool VisitUnaryOperator(UnaryOperator *E) {
      return E->getOpcode() != UO_Deref || !mayBe(E->getSubExpr()) || Visit(E);
    }
    bool VisitMemberExpr(MemberExpr *E) {
      return !E->isArrow() || !mayBe(E->getBase()) || Visit(E);
    }
    bool VisitCallExpr(CallExpr *E) {
      // threadIdx.x and the like are calls of __fetch_builtin_x(): no memory.
      const FunctionDecl *Callee = E->getDirectCallee();
      if (Callee && (Callee->getBuiltinID() ||
                     (Callee->getIdentifier() &&
                      Callee->getName().starts_with("__fetch_builtin_"))))
        return true;
      return Visit(E);
    }
  } F(Space, Visit);
  F.TraverseStmt(S);
}

const EmittedCode::Home &EmittedCode::homeOf(const AccessEvent &E) {
  const Expr *At = E.ReportAt ? E.ReportAt : E.Site;
  auto It = Homes.find(At);
  if (It != Homes.end())
    return It->second;
  Home H;
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(At->getBeginLoc()));
  if (P.isValid()) {
    H.File = P.getFilename();
    H.Line = P.getLine();
    H.Known = !R.Emitted->linesOf(H.File).empty();
  }
  return Homes[At] = H;
}

std::pair<unsigned, unsigned> EmittedCode::statementLines(const AccessEvent &E) {
  const Expr *At = E.ReportAt ? E.ReportAt : E.Site;
  // An expression or declaration statement, else (a loop's condition or
  // increment, an if's condition) the access's own expression.
  const Stmt *S = E.Statement && (isa<Expr>(E.Statement) || isa<DeclStmt>(E.Statement)) &&
                          !E.ReportAt
                      ? E.Statement
                      : At;
  auto It = StmtLines.find(S);
  if (It != StmtLines.end())
    return It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned First = SM.getPresumedLineNumber(SM.getExpansionLoc(S->getBeginLoc()));
  unsigned Last = SM.getPresumedLineNumber(SM.getExpansionLoc(S->getEndLoc()));
  if (Last < First)
    Last = First;
  return StmtLines[S] = {First, Last};
}

const std::vector<const SassInstruction *> &
EmittedCode::emitted(const std::string &File, unsigned Line, MemorySpace S, AccessOp Op) {
  auto Key = std::make_tuple(File, Line, int(S), int(Op));
  auto It = EmittedCache.find(Key);
  if (It != EmittedCache.end())
    return It->second;
  std::vector<const SassInstruction *> Out;
  for (const SassInstruction *I : R.Emitted->at(File, Line))
    if (serves(*I, S, Op))
      Out.push_back(I);
  return EmittedCache[Key] = std::move(Out);
}

bool EmittedCode::group(const std::vector<size_t> &Class, std::vector<bool> &Drop,
                        std::vector<bool> &Decided) {
  const AccessEvent &First = Buffered[Class.front()];
  const MemorySpace Space = First.Space;
  const AccessOp Op = First.Op;
  // The widest instruction nvcc emitted on the lines of these accesses.
  std::set<unsigned> Lines;
  unsigned Wide = 0;
  std::map<unsigned, std::multiset<unsigned>> EmittedWidths; // by line
  for (size_t I : Class)
    Lines.insert(homeOf(Buffered[I]).Line);
  for (unsigned L : Lines)
    for (const SassInstruction *S : emitted(homeOf(First).File, L, Space, Op)) {
      Wide = std::max(Wide, S->Width);
      EmittedWidths[L].insert(S->Width);
    }
  if (!Wide || (Wide & (Wide - 1)))
    return false;

  // Blocks of Wide bytes, aligned (the array's start is: nvcc places shared
  // arrays, and a wide instruction on global memory is emitted only where
  // the base's alignment is known), filled in program order by accesses of
  // the same lanes and weight. A store of the other kind ends them: ptxas
  // does not move a load past a store of the array, nor a store past a load.
  struct Block {
    Poly Start;
    Poly Symbolic; // Start's symbolic part (lane L0): a member's is the same
    LaneMask Active;
    double Weight;
    std::vector<std::pair<size_t, int64_t>> Members; // event, offset in the block
  };
  std::vector<Block> Open, Done;
  auto CloseAll = [&] {
    Done.insert(Done.end(), Open.begin(), Open.end());
    Open.clear();
  };
  std::vector<char> InClass(Buffered.size(), 0);
  for (size_t I : Class)
    InClass[I] = 1;
  const size_t From = Class.front(), To = Class.back();
  for (size_t I = From; I <= To; ++I) {
    const AccessEvent &E = Buffered[I];
    if (!InClass[I]) {
      if (E.Region == First.Region && E.Op != Op)
        CloseAll();
      continue;
    }
    LaneMask A = E.Active;
    unsigned L0 = 0;
    while (L0 < WarpSize && !(A & (LaneMask(1) << L0)))
      ++L0;
    if (L0 == WarpSize)
      return false;
    bool Placed = false;
    const Poly Symbolic = E.Offset.symbolicPart(L0);
    for (Block &B : Open) {
      if (B.Active != A || B.Weight != E.Weight || !(B.Symbolic == Symbolic))
        continue;
      const Poly D = E.Offset - B.Start;
      if (!D.isConcrete(A) || !D.isUniform(A))
        continue;
      const int64_t Off = D.laneConstants()[L0];
      if (Off < 0 || Off + E.Width > Wide)
        continue;
      B.Members.push_back({I, Off});
      Placed = true;
      break;
    }
    if (Placed)
      continue;
    // A new block: where the aligned block holding this access starts.
    std::optional<int64_t> Residue;
    for (int64_t Rr = 0; Rr < Wide; Rr += E.Width)
      if (provenAlignment(E.Offset - Poly::constant(Rr), A, Wide) >= Wide) {
        Residue = Rr;
        break;
      }
    if (!Residue)
      return false;
    Open.push_back(
        {E.Offset - Poly::constant(*Residue), Symbolic, A, E.Weight, {{I, *Residue}}});
    if (Open.size() > 64) {
      Done.push_back(Open.front());
      Open.erase(Open.begin());
    }
  }
  CloseAll();

  // The instructions of each block: a load reads the smallest aligned
  // piece holding what its accesses read; a store writes the bytes written,
  // in aligned pieces (it cannot write more).
  std::vector<Made> Out;
  for (const Block &B : Done) {
    std::vector<bool> Byte(Wide, false);
    for (auto [I, Off] : B.Members)
      for (unsigned K = 0; K < Buffered[I].Width; ++K)
        Byte[Off + K] = true;
    std::vector<std::pair<int64_t, unsigned>> Pieces; // start, width
    if (Op == AccessOp::Load) {
      int64_t Lo = 0, Hi = Wide;
      while (!Byte[Lo])
        ++Lo;
      while (!Byte[Hi - 1])
        --Hi;
      unsigned W = Buffered[B.Members.front().first].Width;
      while ((Lo / W) * W + W < Hi)
        W *= 2;
      Pieces.push_back({(Lo / W) * W, W});
    } else {
      for (int64_t P = 0; P < Wide;) {
        if (!Byte[P]) {
          ++P;
          continue;
        }
        unsigned W = Wide;
        auto Whole = [&](int64_t S, unsigned N) {
          for (unsigned K = 0; K < N; ++K)
            if (!Byte[S + K])
              return false;
          return true;
        };
        while (W > 1 && (P % W != 0 || !Whole(P, W)))
          W /= 2;
        Pieces.push_back({P, W});
        P += W;
      }
    }
    for (auto [Start, W] : Pieces) {
      Made M;
      M.Width = W;
      M.Start = Start;
      std::vector<int64_t> Offs;
      for (auto [I, Off] : B.Members)
        if (Off >= Start && Off < Start + static_cast<int64_t>(W)) {
          M.Members.push_back(I);
          Offs.push_back(Off);
        }
      if (M.Members.empty())
        continue;
      // On the line of one of its accesses where nvcc emitted that width
      // (the last in program order: the merged store of fields written one
      // after the other lands on the last field's line).
      M.Rep = M.Members.front();
      M.RepOff = Offs.front();
      bool Found = false;
      for (size_t K = 0; K < M.Members.size(); ++K) {
        const size_t I = M.Members[K];
        const unsigned L = homeOf(Buffered[I]).Line;
        auto It = EmittedWidths.find(L);
        if (It != EmittedWidths.end() && It->second.count(W) && (!Found || L != M.Line)) {
          M.Rep = I;
          M.RepOff = Offs[K];
          M.Line = L;
          Found = true;
        }
      }
      if (!Found)
        return false;
      Out.push_back(std::move(M));
    }
  }
  // Line by line, the widths made must be the widths emitted (besides
  // those of the line's other accesses of this kind).
  std::map<unsigned, std::set<unsigned>> MadeWidths, OtherWidths;
  for (const Made &M : Out)
    MadeWidths[M.Line].insert(M.Width);
  for (unsigned L : Lines) {
    auto It = OnLine.find({homeOf(First).File, L, int(Space), int(Op)});
    if (It != OnLine.end())
      for (size_t I : It->second)
        if (!InClass[I])
          OtherWidths[L].insert(Buffered[I].Width);
  }
  for (const auto &[L, Ws] : EmittedWidths) {
    for (unsigned W : MadeWidths[L])
      if (!Ws.count(W))
        return false;
    for (unsigned W : Ws)
      if (!MadeWidths[L].count(W) && !OtherWidths[L].count(W))
        return false;
  }
  for (const auto &[L, Ws] : MadeWidths)
    if (!Ws.empty() && !EmittedWidths.count(L))
      return false;

  // Apply: each instruction's event at its width and address, on its line;
  // the accesses it serves besides have no instruction of their own.
  std::set<const Expr *> RepSites;
  for (const Made &M : Out)
    RepSites.insert(Buffered[M.Rep].Site);
  for (const Made &M : Out) {
    AccessEvent &Rep = Buffered[M.Rep];
    const Home H = homeOf(Rep);
    // The representative's offset in its block, from the block's members.
    const int64_t RepOff = M.RepOff;
    const unsigned OldWidth = Rep.Width;
    std::vector<std::string> Served;
    unsigned LoLine = H.Line, HiLine = H.Line;
    for (size_t I : M.Members) {
      Served.push_back("`" + text(Buffered[I].Site) + "`");
      LoLine = std::min(LoLine, homeOf(Buffered[I]).Line);
      HiLine = std::max(HiLine, homeOf(Buffered[I]).Line);
    }
    Served.erase(std::unique(Served.begin(), Served.end()), Served.end());
    Rep.Offset = Rep.Offset + Poly::constant(M.Start - RepOff);
    Rep.Width = M.Width;
    const bool Changed = M.Width != OldWidth || M.Members.size() > 1;
    Rep.Witness = Changed ? Witnessed::Corrected : Witnessed::Confirmed;
    if (M.Line != H.Line)
      Rep.ReportLine = M.Line;
    if (Changed) {
      std::string What = "one " + opcodeFor(Space, Op, M.Width);
      if (Served.size() > 1) {
        What += " for ";
        for (size_t K = 0; K < Served.size(); ++K)
          What += (K ? (K + 1 == Served.size() ? " and " : ", ") : "") + Served[K];
      } else if (M.Members.size() > 1) {
        What += " for " + std::to_string(M.Members.size()) + " of its accesses";
      }
      if (LoLine != HiLine)
        What += " (lines " + std::to_string(LoLine) + " to " + std::to_string(HiLine) + ")";
      Rep.Assumptions.push_back(makeAssumption(AssumptionKind::EmittedAs, {What}));
    }
    Decided[M.Rep] = true;
    for (size_t I : M.Members) {
      if (I == M.Rep)
        continue;
      AccessEvent &E = Buffered[I];
      Decided[I] = true;
      if (E.Site == Rep.Site || RepSites.count(E.Site)) {
        Drop[I] = true; // its requests are the instruction's
        continue;
      }
      E.Witness = Witnessed::Corrected;
      E.UnknownWhy = makeReason(ReasonKind::MergedInto,
                                {opcodeFor(Space, Op, M.Width), text(Rep.Site),
                                 std::to_string(M.Line)});
    }
  }
  return true;
}

void EmittedCode::countLeft(const std::vector<bool> &Drop) {
  LeftWidths.clear();
  for (size_t I = 0; I < Buffered.size(); ++I) {
    const AccessEvent &E = Buffered[I];
    if (!Drop[I] && decidable(E) && homeOf(E).Known)
      LeftWidths[{homeOf(E).File, homeOf(E).Line, int(E.Space), int(E.Op)}].insert(E.Width);
  }
}

std::pair<unsigned, unsigned> EmittedCode::functionLines(const FunctionDecl *FD) {
  if (!FD)
    return {0, 0};
  const SourceManager &SM = Ctx.getSourceManager();
  return {SM.getPresumedLineNumber(SM.getExpansionLoc(FD->getBeginLoc())),
          SM.getPresumedLineNumber(SM.getExpansionLoc(FD->getEndLoc()))};
}

bool EmittedCode::inChain(const IfStmt *If, const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return true;
  if (ChainScanned.insert(FD).second) {
    // The `else if`s of the function: each an if that is another's else.
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::DenseSet<const IfStmt *> &Out;
      explicit Finder(llvm::DenseSet<const IfStmt *> &Out) : Out(Out) {}
      bool VisitIfStmt(IfStmt *S) {
        if (const auto *Else = dyn_cast_or_null<IfStmt>(S->getElse())) {
          Out.insert(S);
          Out.insert(Else);
        }
        return true;
      }
    } F(Chained);
    F.TraverseStmt(FD->getBody());
  }
  return Chained.contains(If);
}

const Expr *EmittedCode::partnerWithoutInstruction(const AccessEvent &E) {
  const Expr *Self = E.Site->IgnoreParenImpCasts();
  const Home &H = homeOf(E);
  const SourceManager &SM = Ctx.getSourceManager();
  // The first in the source (BranchTwins is keyed by pointer: its order is
  // not the same from one run to the next).
  const Expr *First = nullptr;
  for (const auto &[If, Twins] : R.BranchTwins)
    for (const auto &[A, Op, B] : Twins) {
      if (A != Self || Op != E.Op)
        continue;
      const unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(B->getBeginLoc()));
      bool Has = false;
      for (const SassInstruction *S : emitted(H.File, Line, E.Space, E.Op))
        Has |= S->Width == E.Width;
      if (!Has && (!First || SM.isBeforeInTranslationUnit(B->getBeginLoc(), First->getBeginLoc())))
        First = B;
    }
  return First;
}

void EmittedCode::joinTwins(std::vector<bool> &Drop, std::vector<bool> &Decided) {
  // In source order: a join claims its line, which the next one sees
  // (BranchTwins is keyed by pointer, whose order varies between runs).
  std::vector<const IfStmt *> Ifs;
  for (const auto &Entry : R.BranchTwins)
    Ifs.push_back(Entry.first);
  const SourceManager &SM = Ctx.getSourceManager();
  std::sort(Ifs.begin(), Ifs.end(), [&](const IfStmt *A, const IfStmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  for (const IfStmt *If : Ifs) {
    const auto &Twins = R.BranchTwins.find(If)->second;
    // A diamond only: in a chain of `else if`s nvcc merges the accesses of
    // several sides, with addresses it selects between, into instructions
    // the join cannot tell apart (Rodinia srad's nine sides).
    if (!If->getElse())
      continue;
    for (const auto &[A, Op, B] : Twins) {
      if (A->getBeginLoc() > B->getBeginLoc())
        continue; // each pair once: the side written first leads
      std::vector<size_t> As, Bs;
      for (size_t I = 0; I < Buffered.size(); ++I) {
        if (Drop[I] || Decided[I] || Buffered[I].Op != Op || !decidable(Buffered[I]))
          continue;
        const Expr *S = Buffered[I].Site->IgnoreParenImpCasts();
        if (S == A)
          As.push_back(I);
        else if (S == B)
          Bs.push_back(I);
      }
      if (As.empty() || As.size() != Bs.size())
        continue;
      for (size_t K = 0; K < As.size(); ++K) {
        AccessEvent &X = Buffered[As[K]];
        AccessEvent &Y = Buffered[Bs[K]];
        const Home HX = homeOf(X), HY = homeOf(Y);
        if (inChain(If, X.Function) || !HX.Known || !HY.Known || X.Region != Y.Region || X.Width != Y.Width ||
            X.Weight != Y.Weight || (X.Active & Y.Active) || X.Chunks != 1 || Y.Chunks != 1 ||
            !emitted(HX.File, HX.Line, X.Space, Op).empty() ||
            !emitted(HY.File, HY.Line, Y.Space, Op).empty())
          continue;
        // The one line of the function with an instruction of this kind and
        // width that no access left there claims; with several, which one
        // serves the twins is not known.
        auto [Lo, Hi] = functionLines(X.Function);
        unsigned Best = 0, Candidates = 0;
        for (unsigned L : R.Emitted->linesOf(HX.File)) {
          if (L < Lo || L > Hi || claimed(HX.File, L, X))
            continue;
          bool Has = false;
          for (const SassInstruction *S : emitted(HX.File, L, X.Space, Op))
            Has |= S->Width == X.Width;
          if (Has) {
            Best = L;
            ++Candidates;
          }
        }
        if (Candidates != 1)
          continue;
        X.Offset = X.Offset.select(X.Active, Y.Offset);
        X.Active |= Y.Active;
        X.Witness = Witnessed::Corrected;
        X.ReportLine = Best;
        X.Assumptions.push_back(makeAssumption(
            AssumptionKind::EmittedAs,
            {"one " + opcodeFor(X.Space, Op, X.Width) + " for `" + text(X.Site) + "` (line " +
             std::to_string(HX.Line) + ") and `" + text(Y.Site) + "` (line " +
             std::to_string(HY.Line) + "), which the lanes of both sides of the branch run"}));
        Y.Witness = Witnessed::Corrected;
        Y.UnknownWhy = makeReason(ReasonKind::MergedInto, {opcodeFor(X.Space, Op, X.Width),
                                                           text(X.Site), std::to_string(Best)});
        Decided[As[K]] = Decided[Bs[K]] = true;
        LeftWidths[{HX.File, Best, int(X.Space), int(Op)}].insert(X.Width);
        forgetMergeable(X.Site, Op);
        forgetMergeable(Y.Site, Op);
      }
    }
  }
}

void EmittedCode::warpRan() {
  if (!R.Emitted || Buffered.empty())
    return;
  const size_t N = Buffered.size();
  std::vector<bool> Drop(N, false), Decided(N, false);

  // Accesses whose width is in question: those a model says ptxas may
  // merge, and those on lines where nvcc emitted only wider instructions
  // of their kind. Grouped by array and operation.
  std::map<std::tuple<RegionId, int, int>, std::vector<size_t>> Classes;
  OnLine.clear();
  for (size_t I = 0; I < N; ++I) {
    const AccessEvent &E = Buffered[I];
    if (decidable(E) && homeOf(E).Known)
      OnLine[{homeOf(E).File, homeOf(E).Line, int(E.Space), int(E.Op)}].push_back(I);
    if (!decidable(E) || !E.Region || E.Op == AccessOp::Atomic || E.Chunks != 1)
      continue;
    const Home &H = homeOf(E);
    if (!H.Known)
      continue;
    if (!E.UnknownWhy.empty() && E.UnknownWhy.Kind != ReasonKind::MayBeMerged &&
        E.UnknownWhy.Kind != ReasonKind::MayBeMergedAcrossBranch)
      continue;
    bool Question = mergeable(E.Site, E.Op);
    if (!Question) {
      std::vector<const SassInstruction *> Here = emitted(H.File, H.Line, E.Space, E.Op);
      bool Same = false, Wider = false;
      for (const SassInstruction *S : Here) {
        Same |= S->Width == E.Width;
        Wider |= S->Width > E.Width;
      }
      Question = Wider && !Same;
    }
    if (Question)
      Classes[{*E.Region, static_cast<int>(E.Op), static_cast<int>(E.Space)}].push_back(I);
  }
  // group() changes nothing unless the grouping holds; otherwise the
  // accesses are judged line by line below.
  for (const auto &[Key, Class] : Classes)
    if (group(Class, Drop, Decided))
      for (size_t I : Class)
        forgetMergeable(Buffered[I].Site, Buffered[I].Op);

  // The widths of the accesses left on each line, by kind: an instruction
  // wider than all of them that the grouping did not account for means the
  // line's narrower accesses are not what nvcc emitted.
  countLeft(Drop);
  joinTwins(Drop, Decided);

  // Line by line: the instruction is there (confirmed), on another line of
  // the statement (moved), or nowhere (none of its own).
  for (size_t I = 0; I < N; ++I) {
    if (Decided[I] || Drop[I])
      continue;
    AccessEvent &E = Buffered[I];
    if (!decidable(E))
      continue;
    const Home &H = homeOf(E);
    if (!H.Known)
      continue;
    const std::vector<const SassInstruction *> Here = emitted(H.File, H.Line, E.Space, E.Op);
    auto HasWidth = [&](const std::vector<const SassInstruction *> &Is) {
      for (const SassInstruction *S : Is)
        if (S->Width == E.Width || E.Op == AccessOp::Atomic || E.Chunks != 1)
          return true;
      return false;
    };
    // An instruction wider than every access left on the line.
    bool Unexplained = false;
    if (E.Op != AccessOp::Atomic && E.Chunks == 1) {
      const std::set<unsigned> &Ws = LeftWidths[{H.File, H.Line, int(E.Space), int(E.Op)}];
      for (const SassInstruction *S : Here)
        Unexplained |= S->Width > E.Width && !Ws.count(S->Width);
    }
    const bool WasMergeable = mergeable(E.Site, E.Op);
    if (!Here.empty()) {
      // Written alike on another side of a branch whose line has no
      // instruction of its own: this line's may serve both sides' lanes.
      const Expr *Partner = nullptr;
      if (HasWidth(Here) && !Unexplained)
        Partner = partnerWithoutInstruction(E);
      if (Partner) {
        E.Witness = Witnessed::Corrected;
        E.UnknownWhy = makeReason(
            ReasonKind::TwinMayShare,
            {summarize(Here), text(Partner),
             std::to_string(Ctx.getSourceManager().getPresumedLineNumber(
                 Ctx.getSourceManager().getExpansionLoc(Partner->getBeginLoc())))});
        if (WasMergeable)
          forgetMergeable(E.Site, E.Op);
      } else if (HasWidth(Here) && !Unexplained) {
        E.Witness = Witnessed::Confirmed;
        if (WasMergeable)
          forgetMergeable(E.Site, E.Op); // nvcc did not merge it
      } else {
        E.Witness = Witnessed::Corrected;
        E.UnknownWhy = makeReason(ReasonKind::EmittedUnmatched,
                                  {summarize(Here), kindText(E.Space, E.Op),
                                   std::to_string(E.Width), ""});
        if (WasMergeable)
          forgetMergeable(E.Site, E.Op);
      }
      continue;
    }
    // Another line of the statement: of the access's own expression first,
    // then the statement's lines after its own, then before; a line whose
    // instructions no access there claims before one that has its own.
    const Expr *At = E.ReportAt ? E.ReportAt : E.Site;
    auto [FirstLine, LastLine] = statementLines(E);
    const SourceManager &SM = Ctx.getSourceManager();
    const unsigned OwnLast = SM.getPresumedLineNumber(SM.getExpansionLoc(At->getEndLoc()));
    std::vector<unsigned> Candidates;
    for (unsigned L = H.Line + 1; L <= OwnLast && L <= LastLine; ++L)
      Candidates.push_back(L);
    for (unsigned L = std::max(OwnLast, H.Line) + 1; L <= LastLine; ++L)
      Candidates.push_back(L);
    for (unsigned L = FirstLine; L < H.Line; ++L)
      Candidates.push_back(L);
    unsigned Moved = 0;
    for (int Pass = 0; Pass < 2 && !Moved; ++Pass)
      for (unsigned L : Candidates)
        if ((Pass == 1 || !claimed(H.File, L, E)) &&
            HasWidth(emitted(H.File, L, E.Space, E.Op))) {
          Moved = L;
          break;
        }
    if (Moved) {
      E.Witness = Witnessed::Corrected;
      E.ReportLine = Moved;
      E.WitnessNote = "nvcc attributes its instruction to line " + std::to_string(Moved) +
                      " of the statement";
      if (WasMergeable)
        forgetMergeable(E.Site, E.Op);
      continue;
    }
    // A load nvcc hoists out of its loop (Hoisting.cpp): on the nearest line
    // before the loop with an instruction of its kind that no access there
    // claims.
    unsigned Hoisted = 0;
    for (const Assumption &A : E.Assumptions)
      if (A.Kind == AssumptionKind::LoadHoisted) {
        // "... before the loop at line {0}, ..."
        const size_t At = A.Text.find("at line ");
        if (At != std::string::npos)
          Hoisted = static_cast<unsigned>(std::atoi(A.Text.c_str() + At + 8));
      }
    if (Hoisted) {
      auto [Lo, Hi] = functionLines(E.Function);
      (void)Hi;
      unsigned Best = 0;
      for (unsigned L : R.Emitted->linesOf(H.File))
        if (L >= Lo && L < Hoisted && !claimed(H.File, L, E) &&
            HasWidth(emitted(H.File, L, E.Space, E.Op)))
          Best = L;
      if (Best) {
        E.Witness = Witnessed::Corrected;
        E.ReportLine = Best;
        E.WitnessNote = "nvcc emitted it before the loop, on line " + std::to_string(Best);
        LeftWidths[{H.File, Best, int(E.Space), int(E.Op)}].insert(E.Width);
        continue;
      }
    }
    // A call of a toolkit header's function (__ldcs, atomicAdd) whose
    // instruction nvcc's line table gives an earlier call's location.
    if (unsigned To = headerCallLine(I)) {
      E.Witness = Witnessed::Corrected;
      E.ReportLine = To;
      E.WitnessNote = "nvcc's line table puts the instruction of this call on line " +
                      std::to_string(To) + ", with the call of the same function there";
      LeftWidths[{H.File, To, int(E.Space), int(E.Op)}].insert(E.Width);
      if (WasMergeable)
        forgetMergeable(E.Site, E.Op);
      continue;
    }
    // Nowhere: no instruction of its own.
    E.Witness = E.UnknownWhy.Kind == ReasonKind::LoadReused ||
                        E.UnknownWhy.Kind == ReasonKind::LoadForwarded
                    ? Witnessed::Confirmed
                    : Witnessed::Corrected;
    if (E.Witness == Witnessed::Corrected)
      E.UnknownWhy = makeReason(ReasonKind::NotEmitted, {kindOne(E.Space, E.Op)});
    E.MaskWhy = Reason();
    if (WasMergeable)
      forgetMergeable(E.Site, E.Op);
  }
  noteVectorChances(Drop);
  noteMergedOrphans(Drop);
  dropBuffered(0, Drop);
}

bool EmittedCode::inLoop(const Expr *Site, const FunctionDecl *FD) {
  auto Known = InLoop.find(Site);
  if (Known != InLoop.end())
    return Known->second;
  return InLoop[Site] = findLoopAbove(Site, FD);
}

bool EmittedCode::findLoopAbove(const Expr *Site, const FunctionDecl *FD) {
  DynTypedNodeList Parents = Ctx.getParents(*Site);
  for (unsigned Depth = 0; Depth < 256 && !Parents.empty(); ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (P.get<ForStmt>() || P.get<WhileStmt>() || P.get<DoStmt>() || P.get<CXXForRangeStmt>())
      return true;
    if (const auto *F = P.get<FunctionDecl>(); F && (!FD || F == FD))
      return false;
    Parents = Ctx.getParents(P);
  }
  return true; // not found: as if it were (no claim made)
}

namespace {
/// The function a call of a system header calls, or null.
const FunctionDecl *systemCallee(const Expr *Site, const SourceManager &SM) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Site ? Site->IgnoreParenImpCasts() : nullptr);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee)
    return nullptr;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  return Def;
}

std::string baseName(llvm::StringRef Path) { return llvm::sys::path::filename(Path).str(); }
} // namespace

unsigned EmittedCode::headerCallLine(size_t Index) {
  const AccessEvent &E = Buffered[Index];
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Callee = systemCallee(E.Site, SM);
  if (!Callee || E.Chunks != 1 || !Callee->getIdentifier())
    return 0;
  // nvcc's header and clang's may differ (clang defines __ldcs in its own
  // wrapper): the callee is told by its name, its instructions by coming
  // from a header, all from one line of it.
  const llvm::StringRef Name = Callee->getName();
  const Home &H = homeOf(E);
  const std::string Own = baseName(H.File);
  const unsigned Lo = functionLines(E.Function).first;
  for (unsigned L = H.Line; L-- > Lo && L > 0;) {
    unsigned Have = 0;
    std::set<std::pair<std::string, unsigned>> Frames;
    for (const SassInstruction *S : emitted(H.File, L, E.Space, E.Op))
      if (S->Width == E.Width && S->Chain.size() > 1 && baseName(S->Chain.front().File) != Own) {
        ++Have;
        Frames.insert({baseName(S->Chain.front().File), S->Chain.front().Line});
      }
    if (!Have)
      continue;
    // The accesses of this kind on that line: calls of the same function
    // only, fewer than its instructions there.
    unsigned Calls = 0;
    for (size_t J = 0; J < Buffered.size(); ++J) {
      const AccessEvent &X = Buffered[J];
      if (J == Index || X.Space != E.Space || X.Op != E.Op || !X.Site || !homeOf(X).Known ||
          (X.ReportLine ? X.ReportLine : homeOf(X).Line) != L)
        continue;
      const FunctionDecl *C = systemCallee(X.Site, SM);
      if (!C || !C->getIdentifier() || C->getName() != Name)
        return 0;
      ++Calls;
    }
    return Frames.size() == 1 && Have > Calls ? L : 0;
  }
  return 0;
}

const std::vector<EmittedCode::Chain> &EmittedCode::chainsOf(const FunctionDecl *FD) {
  auto It = Chains.find(FD);
  if (It != Chains.end())
    return It->second;
  std::vector<Chain> Out;
  if (FD && FD->getBody()) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::DenseSet<const IfStmt *> Elses;
      std::vector<const IfStmt *> Heads;
      bool VisitIfStmt(IfStmt *S) {
        if (const auto *Else = dyn_cast_or_null<IfStmt>(S->getElse())) {
          Elses.insert(Else);
          Heads.push_back(S);
        }
        return true;
      }
    } F;
    F.TraverseStmt(FD->getBody());
    const SourceManager &SM = Ctx.getSourceManager();
    for (const IfStmt *Head : F.Heads)
      if (!F.Elses.contains(Head))
        Out.push_back({Head, SM.getPresumedLineNumber(SM.getExpansionLoc(Head->getBeginLoc())),
                       SM.getPresumedLineNumber(SM.getExpansionLoc(Head->getEndLoc()))});
  }
  return Chains[FD] = std::move(Out);
}

const std::set<unsigned> &EmittedCode::mayAccessLines(const FunctionDecl *FD, MemorySpace Space) {
  auto Key = std::make_pair(FD, int(Space));
  auto It = MayAccess.find(Key);
  if (It != MayAccess.end())
    return It->second;
  std::set<unsigned> Out;
  if (FD && FD->getBody()) {
    const SourceManager &SM = Ctx.getSourceManager();
    forEachMayAccess(FD->getBody(), Space, [&](const Expr *E) {
      Out.insert(SM.getPresumedLineNumber(SM.getExpansionLoc(E->getBeginLoc())));
      Out.insert(SM.getPresumedLineNumber(SM.getExpansionLoc(E->getEndLoc())));
      return true;
    });
  }
  return MayAccess[Key] = std::move(Out);
}

const Expr *EmittedCode::firstAccessIn(const Stmt *S, MemorySpace Space) {
  const Expr *First = nullptr;
  forEachMayAccess(const_cast<Stmt *>(S), Space, [&](const Expr *E) {
    if (isa<CallExpr>(E))
      return true;
    First = E;
    return false;
  });
  return First;
}

void EmittedCode::noteMergedOrphans(std::vector<bool> &Drop) {
  const size_t N = Buffered.size();
  // The lines this warp's accesses are reported on, by kind.
  std::set<std::tuple<std::string, unsigned, int, int>> Claimed;
  for (size_t I = 0; I < N; ++I) {
    const AccessEvent &E = Buffered[I];
    if (Drop[I] || !decidable(E) || !homeOf(E).Known)
      continue;
    Claimed.insert({homeOf(E).File, E.ReportLine ? E.ReportLine : homeOf(E).Line, int(E.Space),
                    int(E.Op)});
  }
  // The accesses of a chain's sides with no instruction of their own (or
  // one that may serve other sides), by chain and kind.
  struct Key {
    const FunctionDecl *FD;
    const IfStmt *Head;
    unsigned Lo, Hi;
    int Space, Op;
    bool operator<(const Key &O) const {
      return std::tie(FD, Head, Space, Op) < std::tie(O.FD, O.Head, O.Space, O.Op);
    }
  };
  std::map<Key, std::vector<size_t>> Missing;
  for (size_t I = 0; I < N; ++I) {
    const AccessEvent &E = Buffered[I];
    if (Drop[I] || !decidable(E) || !homeOf(E).Known || E.Op == AccessOp::Atomic ||
        (E.UnknownWhy.Kind != ReasonKind::NotEmitted && E.UnknownWhy.Kind != ReasonKind::TwinMayShare))
      continue;
    const unsigned L = homeOf(E).Line;
    const Chain *In = nullptr;
    for (const Chain &C : chainsOf(E.Function))
      if (L >= C.Lo && L <= C.Hi) {
        In = &C;
        break;
      }
    // Outside a chain: the function's other accesses of the kind with no
    // instruction of their own (a store nvcc merges with the one a branch
    // writes over it, at the line of a nearby instruction).
    if (In)
      Missing[{E.Function, In->Head, In->Lo, In->Hi, int(E.Space), int(E.Op)}].push_back(I);
    else
      Missing[{E.Function, nullptr, functionLines(E.Function).first,
               functionLines(E.Function).second, int(E.Space), int(E.Op)}]
          .push_back(I);
  }
  // A line that holds, besides its own accesses' instructions, one more of
  // their kind and width, while accesses of the function have none of
  // their own: the extra one serves them, merged (on Rodinia srad and
  // merged_branches.cu nvcc puts the merged store of one array on the line
  // of another's), and Nsight Compute sums both on the line. Straight-line
  // code only: an unrolled loop has more instructions than its accesses.
  std::set<std::tuple<const FunctionDecl *, int, int>> Merging;
  for (const auto &[K, Is] : Missing)
    Merging.insert({K.FD, K.Space, K.Op});
  std::map<std::tuple<std::string, unsigned, int, int, unsigned>, std::set<const Expr *>> Own;
  for (size_t I = 0; I < N; ++I) {
    const AccessEvent &E = Buffered[I];
    if (!Drop[I] && decidable(E) && homeOf(E).Known && E.UnknownWhy.empty())
      Own[{homeOf(E).File, E.ReportLine ? E.ReportLine : homeOf(E).Line, int(E.Space),
           int(E.Op), E.Width}]
          .insert(E.Site->IgnoreParenImpCasts());
  }
  for (size_t I = 0; I < N; ++I) {
    AccessEvent &E = Buffered[I];
    if (Drop[I] || !decidable(E) || !homeOf(E).Known || !E.UnknownWhy.empty() ||
        E.Witness != Witnessed::Confirmed || E.Op == AccessOp::Atomic || E.Chunks != 1 ||
        !Merging.count({E.Function, int(E.Space), int(E.Op)}))
      continue;
    const unsigned L = E.ReportLine ? E.ReportLine : homeOf(E).Line;
    const std::vector<const SassInstruction *> &Here = emitted(homeOf(E).File, L, E.Space, E.Op);
    const size_t Sites = Own[{homeOf(E).File, L, int(E.Space), int(E.Op), E.Width}].size();
    size_t Same = 0;
    for (const SassInstruction *S : Here)
      Same += S->Width == E.Width;
    if (Same <= Sites || inLoop(E.Site, E.Function))
      continue;
    E.Witness = Witnessed::Corrected;
    E.UnknownWhy = makeReason(ReasonKind::SharedWithMerged,
                              {summarize(Here), std::to_string(Sites), kindText(E.Space, E.Op)});
  }

  std::vector<AccessEvent> Made;
  // The chains first: a line after a chain is its merge point before it
  // is anything else's.
  std::vector<std::pair<const Key *, std::vector<size_t> *>> Order;
  for (auto &[K, Is] : Missing)
    if (K.Head)
      Order.push_back({&K, &Is});
  for (auto &[K, Is] : Missing)
    if (!K.Head)
      Order.push_back({&K, &Is});
  for (auto [KP, IsP] : Order) {
    const Key &K = *KP;
    std::vector<size_t> &Is = *IsP;
    std::stable_sort(Is.begin(), Is.end(), [&](size_t A, size_t B) {
      return homeOf(Buffered[A]).Line < homeOf(Buffered[B]).Line;
    });
    const AccessEvent &First = Buffered[Is.front()];
    const std::string &File = homeOf(First).File;
    const auto Space = static_cast<MemorySpace>(K.Space);
    const auto Op = static_cast<AccessOp>(K.Op);
    const std::set<unsigned> &Busy = mayAccessLines(K.FD, Space);
    // The code after the chain, up to the next line that may hold an
    // access of this space, runs with the lanes of all its sides.
    const unsigned FnHi = functionLines(K.FD).second;
    unsigned Stop = FnHi + 1;
    for (unsigned L : Busy)
      if (L > K.Hi) {
        Stop = std::min(Stop, L);
        break;
      }
    // One site for the merged instructions of this kind, whichever warp
    // finds them: the chain's first access of the space; outside a chain,
    // the first access with no instruction of its own.
    const Expr *Site = K.Head ? firstAccessIn(K.Head, Space) : First.Site;
    if (!Site)
      continue;
    std::string Lines;
    if (!K.Head) {
      std::set<unsigned> Ls;
      for (size_t I : Is)
        Ls.insert(homeOf(Buffered[I]).Line);
      unsigned Shown = 0;
      for (unsigned L : Ls) {
        if (Shown == 6)
          break;
        Lines += std::string(Shown == 0 ? "" : Shown + 1 == Ls.size() ? " and " : ", ") +
                 std::to_string(L);
        ++Shown;
      }
      if (Ls.size() > Shown)
        Lines += " and " + std::to_string(Ls.size() - Shown) + " more";
    }
    for (unsigned L : R.Emitted->linesOf(File)) {
      if (L < K.Lo || L >= Stop || Busy.count(L) || Claimed.count({File, L, K.Space, K.Op}))
        continue;
      const std::vector<const SassInstruction *> &Here = emitted(File, L, Space, Op);
      if (Here.empty())
        continue;
      AccessEvent E = First;
      E.Site = Site;
      // The array the site names, where the kernel's regions hold it.
      if (const ValueDecl *VD = baseDecl(Site))
        for (RegionId Id = 0; Id < R.Regions.size(); ++Id)
          if (R.Regions[Id].Decl == VD) {
            E.Region = Id;
            break;
          }
      E.ReportAt = nullptr;
      E.BlameAt = nullptr;
      E.ReportLine = L;
      E.ContextKey += "|merged-at-line-" + std::to_string(L);
      E.Witness = Witnessed::Corrected;
      E.WitnessNote.clear();
      E.UnknownWhy =
          K.Head ? makeReason(ReasonKind::MergedFromBranches,
                              {summarize(Here), kindText(Space, Op), std::to_string(K.Lo),
                               std::to_string(K.Hi)})
                 : makeReason(ReasonKind::MergedElsewhere,
                              {summarize(Here), kindText(Space, Op), Lines});
      Made.push_back(std::move(E));
      Claimed.insert({File, L, K.Space, K.Op});
    }
  }
  for (AccessEvent &E : Made) {
    Buffered.push_back(std::move(E));
    Drop.push_back(false);
  }
}

void EmittedCode::noteVectorChances(const std::vector<bool> &Drop) {
  // Blocks of 16 bytes, aligned at run time (what the analysis knows of
  // the allocation, stated as an assumption), filled in program order by
  // accesses of the same lanes, weight and width that nvcc emitted at that
  // width. A barrier ends them (the compiler moves no access across one);
  // so does an access of the other kind in global memory (a load may not
  // move past a store through another pointer, nor a store past a load),
  // and an atomic.
  constexpr int64_t Wide = 16;
  struct Block {
    Poly Start;
    Poly Symbolic;
    RegionId Region;
    AccessOp Op;
    LaneMask Active;
    double Weight;
    unsigned Width;
    unsigned Epoch;
    int64_t Size;                                    // 16, or 8 where 16 is not aligned
    std::vector<std::pair<size_t, int64_t>> Members; // event, offset in the block
    int64_t StartConstant; // Start's constant term on the first active lane
  };
  std::vector<Block> Open, Done;
  for (size_t I = 0; I < Buffered.size(); ++I) {
    if (Drop[I])
      continue;
    const AccessEvent &E = Buffered[I];
    if (E.Space != MemorySpace::Global)
      continue;
    const bool Candidate = E.Witness == Witnessed::Confirmed && E.UnknownWhy.empty() &&
                           E.MaskWhy.empty() && E.Region && E.Chunks == 1 && !E.SecondSide &&
                           (E.Op == AccessOp::Load || E.Op == AccessOp::Store) &&
                           E.Width < Wide && (E.Width & (E.Width - 1)) == 0 && E.Active &&
                           !E.AccessType.isVolatileQualified();
    // What ends the open blocks: the other kind of access, an atomic, a
    // barrier since.
    for (auto It = Open.begin(); It != Open.end();) {
      if (It->Epoch != E.Epoch || E.Op == AccessOp::Atomic || E.Op == AccessOp::Call ||
          (E.Op != It->Op && (E.Op == AccessOp::Load || E.Op == AccessOp::Store))) {
        Done.push_back(std::move(*It));
        It = Open.erase(It);
      } else {
        ++It;
      }
    }
    if (!Candidate)
      continue;
    const unsigned L0 = firstLane(E.Active);
    const Poly Symbolic = E.Offset.symbolicPart(L0);
    const int64_t Constant = E.Offset.laneConstants()[L0];
    bool Placed = false;
    for (Block &B : Open) {
      if (B.Region != *E.Region || B.Op != E.Op || B.Active != E.Active ||
          B.Weight != E.Weight || B.Width != E.Width || !(B.Symbolic == Symbolic))
        continue;
      // The offset in the block on the first lane is the difference of the
      // constant terms there (the symbolic parts being equal): out of the
      // block, no need to subtract the polynomials.
      int64_t Guess;
      if (!__builtin_sub_overflow(Constant, B.StartConstant, &Guess) &&
          (Guess < 0 || Guess > B.Size - static_cast<int64_t>(E.Width)))
        continue;
      const Poly D = E.Offset - B.Start;
      if (!D.isConcrete(E.Active) || !D.isUniform(E.Active))
        continue;
      const int64_t Off = D.laneConstants()[L0];
      if (Off < 0 || Off + E.Width > B.Size)
        continue;
      B.Members.push_back({I, Off});
      Placed = true;
      break;
    }
    if (Placed)
      continue;
    // Where the aligned block holding this access starts, at run time: of
    // 16 bytes, else of 8.
    const MemRegion &Rg = R.Regions[*E.Region];
    std::optional<int64_t> Residue;
    int64_t Size = Wide;
    for (; Size > static_cast<int64_t>(E.Width) && !Residue; Size /= 2)
      for (int64_t Rr = 0; Rr < Size; Rr += E.Width)
        if (provenAlignment(E.Offset + Rg.BaseOffset - Poly::constant(Rr), E.Active,
                            Rg.Align) >= Size) {
          Residue = Rr;
          break;
        }
    if (!Residue)
      continue;
    Size *= 2; // the loop halved it once more
    Poly Start = E.Offset - Poly::constant(*Residue);
    const int64_t StartConstant = Start.laneConstants()[L0];
    Open.push_back({std::move(Start), Symbolic, *E.Region, E.Op, E.Active, E.Weight, E.Width,
                    E.Epoch, Size, {{I, *Residue}}, StartConstant});
    if (Open.size() > 64) {
      Done.push_back(std::move(Open.front()));
      Open.erase(Open.begin());
    }
  }
  Done.insert(Done.end(), std::make_move_iterator(Open.begin()),
              std::make_move_iterator(Open.end()));

  // In each block, the widest aligned piece whose every byte one access of
  // the block reads (writes), each byte once, of at least two accesses:
  // one instruction of the piece's width instead of one per access.
  for (const Block &B : Done) {
    if (B.Members.size() < 2)
      continue;
    for (int64_t Piece = B.Size; Piece > static_cast<int64_t>(B.Width); Piece /= 2) {
      bool Found = false;
      for (int64_t At = 0; At + Piece <= B.Size && !Found; At += Piece) {
        std::vector<size_t> Cover(static_cast<size_t>(Piece / B.Width), SIZE_MAX);
        bool Ok = true;
        for (auto [I, Off] : B.Members) {
          if (Off < At || Off >= At + Piece)
            continue;
          size_t &Slot = Cover[static_cast<size_t>((Off - At) / B.Width)];
          if ((Off - At) % B.Width || Slot != SIZE_MAX) {
            Ok = false; // the same bytes twice, or askew
            break;
          }
          Slot = I;
        }
        for (size_t C : Cover)
          Ok &= C != SIZE_MAX;
        if (!Ok)
          continue;
        Found = true;
        // The first in program order carries it.
        size_t Lead = *std::min_element(Cover.begin(), Cover.end());
        int64_t LeadOff = 0;
        for (auto [I, Off] : B.Members)
          if (I == Lead)
            LeadOff = Off;
        AccessEvent &E = Buffered[Lead];
        VectorChanceEvent C;
        C.Width = static_cast<unsigned>(Piece);
        C.Start = At - LeadOff;
        unsigned Lo = UINT_MAX, Hi = 0;
        for (size_t K = 0; K < Cover.size(); ++K) {
          C.Members.push_back(At + static_cast<int64_t>(K) * B.Width - LeadOff);
          const unsigned L = homeOf(Buffered[Cover[K]]).Line;
          Lo = std::min(Lo, L);
          Hi = std::max(Hi, L);
        }
        C.FirstLine = Lo;
        C.LastLine = Hi;
        C.Emitted = std::to_string(Cover.size()) + " " +
                    opcodeFor(E.Space, E.Op, B.Width).insert(3, ".E");
        // Only where the reason is known: a named pointer whose type
        // proves less than the piece's alignment (nvcc merges adjacent
        // accesses where it can prove it: SharedMerges.cpp).
        const VarDecl *P = pointerOf(E.Site);
        if (!P)
          continue;
        QualType PT = P->getType()->getPointeeType();
        if (PT->isIncompleteType() || PT->isDependentType())
          continue;
        C.Pointer = P->getName().str();
        C.PointerType = P->getType().getAsString(Ctx.getPrintingPolicy());
        C.ProvenAlign = statedAlignment(P, E.Function, Ctx);
        if (C.ProvenAlign >= Piece)
          continue;
        E.Chance = std::move(C);
        for (size_t K : Cover)
          Buffered[K].ChanceMember = K != Lead;
      }
      if (Found)
        break;
    }
  }
}

} // namespace

std::unique_ptr<CompilerModel> makeEmittedCode(WarpInterp &I) {
  return std::make_unique<EmittedCode>(I);
}

} // namespace interp
} // namespace coalesce
