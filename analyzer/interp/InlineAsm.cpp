//===- InlineAsm.cpp - What inline PTX reads and writes -------------------===//
//
// An asm statement's operands are evaluated like any expression (inputs
// read, outputs written with values the analysis cannot know). Its PTX text
// (interp/PtxAsm.h) is then run over the operands' values, statement by
// statement, for the instructions that decide memory traffic:
//
//   mov, cvt (integer), cvta       the address passes through (a generic
//                                  pointer converted to a shared-window
//                                  address and back keeps its region)
//   add, sub (integer)             byte offsets on such an address
//   cp.async.{ca,cg}.shared.global one LDGSTS: a global read and a shared
//                                  write, costed together (model/Instructions.h)
//   ldmatrix / stmatrix .m8n8 b16  LDSM / STSM: 16-byte rows from lanes 0-7,
//                                  8-15, ... per matrix
//   ld / st (.global, .shared, ..) a plain load or store of the width of its
//                                  type and vector (.v2.f32: 8 bytes)
//   atom / red .global, a type     REDG / ATOMG: an atomic access of the
//                                  type's width (times .v2/.v4/.v8, packed
//                                  .f16x2/.bf16x2 4 bytes), as atomicAdd
//   atom / red .shared, 32-bit int ATOMS: a shared atomic, as atomicAdd
//   wgmma.mma_async               HGMMA: the warpgroup's shared operands,
//                                  read through matrix descriptors
//                                  (interp/MatrixMultiply.cpp)
//   cp.async.bulk (TMA), other     unknown, with the instruction named
//   ldmatrix shapes, other shared,
//   vector shared atom/red, a
//   guarded instruction, branches
//
// Every other instruction's destination is unknown. The register values of
// the statement are its operands `$N` and the `.reg` names it declares.
//===----------------------------------------------------------------------===//

#include "interp/PtxAsm.h"
#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

#include <cstring>
#include <map>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// Bytes of a PTX type part ("f32": 4, "b128": 16), 0 if not a type.
unsigned ptxTypeBytes(const std::string &P) {
  if (P.size() < 2 || P.size() > 4 || (P[0] != 'b' && P[0] != 'u' && P[0] != 's' && P[0] != 'f'))
    return 0;
  for (size_t I = 1; I < P.size(); ++I)
    if (!std::isdigit(static_cast<unsigned char>(P[I])))
      return 0;
  const unsigned Bits = static_cast<unsigned>(std::stoul(P.substr(1)));
  return Bits % 8 == 0 && Bits <= 128 ? Bits / 8 : 0;
}

/// The state space an instruction names (`.shared`, `.global`, `.local`,
/// `.const`), if one.
std::optional<MemorySpace> statedSpace(const PtxStatement &St) {
  if (St.has("shared"))
    return MemorySpace::Shared;
  if (St.has("global"))
    return MemorySpace::Global;
  if (St.has("local"))
    return MemorySpace::Local;
  if (St.has("const"))
    return MemorySpace::Constant;
  return std::nullopt;
}

/// Bytes of an atomic's type part: a PTX type, or a packed pair of halves
/// (`f16x2`, `bf16x2`: 4) or one (`bf16`: 2).
unsigned atomTypeBytes(const std::string &P) {
  if (P == "f16x2" || P == "bf16x2")
    return 4;
  if (P == "bf16")
    return 2;
  return ptxTypeBytes(P);
}

bool integerTypePart(const std::string &P) {
  return ptxTypeBytes(P) && P[0] != 'f';
}

} // namespace

QualType WarpInterp::asmType(unsigned Width) {
  QualType T;
  switch (Width) {
  case 1: T = Ctx.UnsignedCharTy; break;
  case 2: T = Ctx.UnsignedShortTy; break;
  case 4: T = Ctx.UnsignedIntTy; break;
  case 8: T = Ctx.UnsignedLongLongTy; break;
  default:
    T = Ctx.getVectorType(Ctx.UnsignedIntTy, std::max(1u, Width / 4), VectorKind::Generic);
  }
  // Volatile: the compiler models neither reuse nor merge an asm access.
  return T.withVolatile();
}

void WarpInterp::asmAccess(AccessOp Op, const AsmValue &Base, int64_t Offset, unsigned Width,
                           AsmInstruction Instr) {
  if (!Base.Site)
    return;
  Value P = Base.V;
  if (P.K == Value::Ptr)
    P.P = P.P + Poly::constant(Offset);
  PendingAsm = std::move(Instr);
  PendingAsm->Line = LastOperandLine;
  access(Op, memAt(P), asmType(Width), Base.Site);
  PendingAsm.reset();
}

void WarpInterp::execAsm(const AsmStmt *Asm) {
  // The operands: outputs first, then inputs (GCC numbering). Inputs are
  // evaluated (a load where one is read from memory; an "m" operand is an
  // address, not an access).
  const unsigned NO = Asm->getNumOutputs(), NI = Asm->getNumInputs();
  std::vector<AsmValue> Ops(NO + NI);
  for (unsigned I = 0; I < NI; ++I) {
    const Expr *In = Asm->getInputExpr(I);
    Ops[NO + I].Site = In;
    if (In->isPRValue())
      Ops[NO + I].V = eval(In);
    else
      evalLValue(In);
  }
  const std::string Line = lineOf(Ctx, static_cast<const Stmt *>(Asm)->getBeginLoc());
  std::vector<LValue> Outs(NO);
  for (unsigned I = 0; I < NO; ++I) {
    const Expr *Out = Asm->getOutputExpr(I);
    Outs[I] = evalLValue(Out);
    Ops[I].Site = Out;
    Ops[I].V = Value::unknown(makeReason(ReasonKind::InlineAssembly, {text(Out), Line}));
    if (Asm->isOutputPlusConstraint(I))
      Ops[I].V = load(Outs[I], Out->getType(), Out);
  }
  if (auto *G = dyn_cast<GCCAsmStmt>(Asm))
    execPtx(G, Ops);
  for (unsigned I = 0; I < NO; ++I) {
    const Expr *Out = Asm->getOutputExpr(I);
    Value V = Ops[I].Assigned && Ops[I].V.K != Value::Unknown
                  ? Ops[I].V
                  : Value::unknown(makeReason(ReasonKind::InlineAssembly, {text(Out), Line}));
    store(Outs[I], V, Out->getType(), Out);
  }
}

bool WarpInterp::execPtx(const GCCAsmStmt *Asm, std::vector<AsmValue> &Ops) {
  // The text with the operands written `$N`.
  SmallVector<GCCAsmStmt::AsmStringPiece, 8> Pieces;
  unsigned DiagOffs = 0;
  if (Asm->AnalyzeAsmString(Pieces, Ctx, DiagOffs))
    return false;
  std::string Text;
  for (const GCCAsmStmt::AsmStringPiece &P : Pieces)
    Text += P.isString() ? P.getString() : "$" + std::to_string(P.getOperandNo());
  const std::string Line = lineOf(Ctx, static_cast<const Stmt *>(Asm)->getBeginLoc());
  const Expr *AnySite = nullptr, *Last = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const AsmValue &O : Ops) {
    if (!O.Site)
      continue;
    if (!AnySite)
      AnySite = O.Site;
    if (!Last || SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Last->getEndLoc()),
                                              SM.getExpansionLoc(O.Site->getEndLoc())))
      Last = O.Site;
  }
  LastOperandLine = Last ? SM.getExpansionLineNumber(Last->getEndLoc()) : 0;

  std::map<std::string, AsmValue> Regs; // the statement's own .reg names
  auto Get = [&](const std::string &Name) -> AsmValue {
    if (std::optional<unsigned> I = ptxOperandIndex(Name))
      return *I < Ops.size() ? Ops[*I] : AsmValue{Value::unknown(ReasonKind::AddressUnknown), nullptr};
    if (std::optional<int64_t> C = parsePtxInteger(Name))
      return AsmValue{Value::constant(*C), nullptr};
    auto It = Regs.find(Name);
    if (It != Regs.end())
      return It->second;
    // Special registers: the lane, the thread and block indices and sizes.
    if (Name == "%laneid")
      return AsmValue{Value::integer(Poly::lanes(laneIota())), nullptr};
    static const std::pair<const char *, const char *> Special[] = {
        {"%tid.", "threadIdx"}, {"%ntid.", "blockDim"}, {"%ctaid.", "blockIdx"},
        {"%nctaid.", "gridDim"}};
    for (const auto &[Reg, Var] : Special)
      if (Name.size() == std::strlen(Reg) + 1 && Name.compare(0, std::strlen(Reg), Reg) == 0) {
        const char Axis = Name.back();
        if (Axis >= 'x' && Axis <= 'z')
          if (std::optional<Value> V = builtinIndex(Var, Axis - 'x'))
            return AsmValue{*V, nullptr};
      }
    return AsmValue{Value::unknown(makeReason(ReasonKind::InlineAssembly, {Name, Line})), nullptr};
  };
  auto SetReg = [&](const std::string &Name, AsmValue V) {
    if (std::optional<unsigned> I = ptxOperandIndex(Name)) {
      if (*I < Ops.size()) {
        Ops[*I].V = V.V; // keeps the operand's own Site
        Ops[*I].Assigned = true;
      }
      return;
    }
    Regs[Name] = V;
  };
  auto Unmodelled = [&](const PtxStatement &St, const char *What) {
    return makeReason(ReasonKind::AsmUnmodelled, {St.opcodeText(), Line, What});
  };
  auto Clobber = [&](const PtxStatement &St) {
    if (St.Operands.empty())
      return;
    for (const std::string &D : parsePtxList(St.Operands[0]))
      if (!parsePtxAddress(D))
        SetReg(D, AsmValue{Value::unknown(makeReason(ReasonKind::InlineAssembly, {D, Line})),
                           nullptr});
  };
  // An access whose address operand is not an address: unknown, where the
  // statement has an operand to report it at.
  auto UnknownAccess = [&](AccessOp Op, MemorySpace Space, unsigned Width, Reason Why,
                           const AsmValue *Base) {
    AsmValue At = Base && Base->Site ? *Base : AsmValue{Value::unknown(Why), AnySite};
    std::optional<RegionId> Where;
    if (At.V.K == Value::Ptr)
      Where = At.V.Region;
    At.V = Value::unknown(Why);
    At.V.Where = Where;
    AsmInstruction I;
    I.Space = Space;
    I.Why = Why;
    asmAccess(Op, At, 0, Width, I);
  };

  const std::vector<PtxStatement> Statements = parsePtx(Text);
  // Branches and labels: the statements do not run once in order, which is
  // all the walk below follows. Every output and access is then unknown.
  Reason Flow;
  for (const PtxStatement &St : Statements)
    if (St.Labelled || (!St.Opcode.empty() &&
                        (St.Opcode[0] == "bra" || St.Opcode[0] == "brx" ||
                         St.Opcode[0] == "ret" || St.Opcode[0] == "exit" ||
                         St.Opcode[0] == "call")))
      Flow = Unmodelled(St, "the assembly branches");
  for (const PtxStatement &St : Statements) {
    if (St.Opcode.empty())
      continue;
    const std::string &Head = St.Opcode[0];
    const size_t N = St.Operands.size();
    // A guarded instruction runs on the lanes whose predicate holds, which
    // the analysis does not follow: its effects are unknown.
    const bool Guarded = !St.Guard.empty() || !Flow.empty();
    auto GuardWhy = [&]() { return Flow.empty() ? Unmodelled(St, "a predicate guards it") : Flow; };

    auto Wide = [&](const std::string &P) {
      return integerTypePart(P) && ptxTypeBytes(P) >= 4;
    };
    if ((Head == "mov" || Head == "cvta" ||
         (Head == "cvt" && St.Opcode.size() == 3 && Wide(St.Opcode[1]) && Wide(St.Opcode[2]))) &&
        N == 2 && !Guarded) {
      AsmValue V = Get(St.Operands[1]);
      // cvta to or from a state space's window keeps the address of a
      // pointer into that space (the region and offset); of a pointer into
      // another space, or the parameter window, it is not known.
      if (Head == "cvta" && V.V.K == Value::Ptr) {
        const std::optional<MemorySpace> Window = statedSpace(St);
        std::optional<MemorySpace> Sp = R.Regions[V.V.Region].space();
        if (!Window || !Sp || *Sp != *Window)
          V.V = Value::unknown(makeReason(ReasonKind::InlineAssembly, {St.Operands[0], Line}));
      }
      SetReg(St.Operands[0], V);
      continue;
    }
    if ((Head == "add" || Head == "sub") && N == 3 && !Guarded && St.Opcode.size() == 2 &&
        integerTypePart(St.Opcode[1])) {
      AsmValue A = Get(St.Operands[1]), B = Get(St.Operands[2]);
      AsmValue Out{Value::unknown(makeReason(ReasonKind::InlineAssembly, {St.Operands[0], Line})),
                   A.Site ? A.Site : B.Site};
      const bool Sub = Head == "sub";
      if (A.V.K == Value::Ptr && B.V.K == Value::Int) {
        Out.V = A.V;
        Out.V.P = Sub ? A.V.P - B.V.P : A.V.P + B.V.P;
      } else if (!Sub && B.V.K == Value::Ptr && A.V.K == Value::Int) {
        Out.V = B.V;
        Out.V.P = A.V.P + B.V.P;
        Out.Site = B.Site;
      } else if (A.V.K == Value::Int && B.V.K == Value::Int) {
        Out.V = Value::integer(Sub ? A.V.P - B.V.P : A.V.P + B.V.P);
      }
      SetReg(St.Operands[0], Out);
      continue;
    }

    // cp.async: an asynchronous copy of 4, 8 or 16 bytes per thread.
    if (Head == "cp" && St.has("async") && !St.has("bulk") && St.has("shared") &&
        St.has("global") && (St.has("ca") || St.has("cg")) && N >= 3) {
      std::optional<PtxAddress> Dst = parsePtxAddress(St.Operands[0]);
      std::optional<PtxAddress> Src = parsePtxAddress(St.Operands[1]);
      AsmValue Size = Get(St.Operands[2]);
      std::optional<int64_t> Bytes;
      if (Size.V.K == Value::Int && Size.V.P.isConcrete(Active) && Size.V.P.isUniform(Active))
        Bytes = Size.V.P.laneConstants()[firstLane(Active)];
      if (!Dst || !Src || !Bytes || (*Bytes != 4 && *Bytes != 8 && *Bytes != 16) ||
          (St.has("cg") && *Bytes != 16)) {
        UnknownAccess(AccessOp::Load, MemorySpace::Global, 4,
                      Unmodelled(St, "its copy size or addresses are not known"), nullptr);
        continue;
      }
      const unsigned W = static_cast<unsigned>(*Bytes);
      AsmValue G = Get(Src->Base), S = Get(Dst->Base);
      AsmInstruction I;
      I.Kind = St.has("cg") ? InstrKind::AsyncCopyBypass : InstrKind::AsyncCopy;
      I.Space = MemorySpace::Global;
      // A source size (zero fill) other than the copy size, and a guard.
      if (N >= 4 && !parsePtxAddress(St.Operands[3])) {
        AsmValue SrcSize = Get(St.Operands[3]);
        const bool Same = SrcSize.V.K == Value::Int && SrcSize.V.P.isConcrete(Active) &&
                          SrcSize.V.P.isUniform(Active) &&
                          SrcSize.V.P.laneConstants()[firstLane(Active)] == *Bytes;
        // A cache policy operand is 64-bit and follows .L2::cache_hint.
        if (!Same && !(N == 4 && St.has("L2::cache_hint")))
          I.Why = Unmodelled(St, "a source size other than the copy size (zero fill)");
      }
      if (Guarded)
        I.Why = GuardWhy();
      if (I.Kind == InstrKind::AsyncCopyBypass && Active != AllLanes && I.Why.empty())
        I.Why = makeReason(ReasonKind::BypassPartialWarp);
      if (!G.Site)
        G.Site = S.Site ? S.Site : AnySite;
      Value SP = S.V;
      if (SP.K == Value::Ptr) {
        SP.P = SP.P + Poly::constant(Dst->Offset);
        std::optional<MemorySpace> Sp = R.Regions[SP.Region].space();
        if (!Sp || *Sp != MemorySpace::Shared)
          SP = Value::unknown(makeReason(ReasonKind::NotSharedPointer, {St.Operands[0]}));
      }
      if (SP.K != Value::Ptr) {
        if (I.Why.empty())
          I.Why = makeReason(ReasonKind::AsyncCopySideUnknown,
                             {"shared", (SP.Why.empty() ? makeReason(ReasonKind::AddressUnknown) : SP.Why).Text});
      } else {
        I.Second = AccessSide{AccessOp::Store, MemorySpace::Shared, SP.Region, SP.P, W, {},
                              nullptr, S.Site, S.Site ? because(S.Site) : ""};
      }
      asmAccess(AccessOp::Load, G, Src->Offset, W, I);
      continue;
    }
    // A TMA copy of a box between global and shared memory.
    if (Head == "cp" && St.has("async") && St.has("bulk") && St.has("tensor") &&
        St.has("shared") && St.has("global") && N >= 2) {
      tensorCopy(St, Get, Line, AnySite);
      continue;
    }
    if (Head == "cp" && St.has("async") && St.has("bulk")) {
      std::optional<PtxAddress> Dst = N ? parsePtxAddress(St.Operands[0]) : std::nullopt;
      AsmValue D = Dst ? Get(Dst->Base) : AsmValue{};
      UnknownAccess(AccessOp::Store, MemorySpace::Shared, 16,
                    Unmodelled(St, "a bulk copy (TMA) issued by one thread"), D.Site ? &D : nullptr);
      continue;
    }
    if (Head == "cp" && St.has("async")) // commit_group, wait_group, mbarrier.arrive
      continue;

    // wgmma: the warpgroup's product of tiles read through descriptors.
    if (Head == "wgmma" && St.Opcode.size() > 1 && St.Opcode[1] == "mma_async") {
      if (Guarded) {
        UnknownAccess(AccessOp::Load, MemorySpace::Shared, 16, GuardWhy(), nullptr);
      } else {
        matrixMultiply(St, Get, Line, AnySite);
      }
      Clobber(St);
      continue;
    }

    // ldmatrix / stmatrix.
    if (Head == "ldmatrix" || Head == "stmatrix") {
      const bool Store = Head == "stmatrix";
      const std::string &AddrOp = Store ? (N ? St.Operands[0] : "") : (N >= 2 ? St.Operands[1] : "");
      std::optional<PtxAddress> A = parsePtxAddress(AddrOp);
      unsigned Count = St.has("x4") ? 4 : St.has("x2") ? 2 : St.has("x1") ? 1 : 0;
      AsmValue B = A ? Get(A->Base) : AsmValue{};
      if (!Store)
        Clobber(St);
      AsmInstruction I;
      I.Kind = InstrKind::Matrix;
      I.Matrices = Count;
      I.Space = MemorySpace::Shared;
      if (!A || !Count || !St.has("m8n8") || !St.has("b16"))
        I.Why = Unmodelled(St, "only the m8n8 .b16 shapes are");
      else if (Guarded)
        I.Why = GuardWhy();
      else if (Active != AllLanes)
        I.Why = makeReason(ReasonKind::MatrixPartialWarp, {St.opcodeText()});
      if (!B.Site)
        B.Site = AnySite;
      asmAccess(Store ? AccessOp::Store : AccessOp::Load, B, A ? A->Offset : 0, MatrixRowBytes,
                I);
      continue;
    }

    // Plain loads and stores.
    if ((Head == "ld" || Head == "st") && N == 2) {
      const bool Store = Head == "st";
      if (St.has("param")) {
        if (!Store)
          Clobber(St);
        continue;
      }
      const std::optional<MemorySpace> Space = statedSpace(St);
      unsigned Vec = St.has("v8") ? 8 : St.has("v4") ? 4 : St.has("v2") ? 2 : 1;
      unsigned Bytes = ptxTypeBytes(St.Opcode.back());
      std::optional<PtxAddress> A = parsePtxAddress(St.Operands[Store ? 0 : 1]);
      AsmValue B = A ? Get(A->Base) : AsmValue{};
      if (!Store)
        Clobber(St);
      AsmInstruction I;
      I.Space = Space;
      if (!A || !Bytes || Vec * Bytes > 16)
        I.Why = Unmodelled(St, "its width or address is not read");
      else if (Guarded)
        I.Why = GuardWhy();
      if (B.V.K == Value::Ptr && Space) {
        std::optional<MemorySpace> Sp = R.Regions[B.V.Region].space();
        if (Sp && *Sp != *Space)
          B.V = Value::unknown(Unmodelled(St, "its state space is not the pointer's"));
      }
      if (!B.Site)
        B.Site = AnySite;
      asmAccess(Store ? AccessOp::Store : AccessOp::Load, B, A ? A->Offset : 0,
                std::max(1u, std::min(16u, Vec * Bytes)), I);
      continue;
    }
    // Global atomics and reductions (`red.global.add.f32 [a], v;`,
    // `atom.global.add.u32 d, [a], v;`): one atomic access of the width of
    // their type, as atomicAdd is (the same RED/ATOM instruction, measured:
    // sample_kernels/grid_stride.cu, image_pipeline.cu). Vector and packed
    // forms, and shared ones of other types, stay unknown below.
    // Shared ones of a 32-bit integer (`red.shared.add.u32 [a], v;`) are
    // ATOMS as atomicAdd's (measured alike: sample_kernels/shared_atomics.cu),
    // costed by the shared-atomic rule (model/Instructions.h).
    // Global vector and packed ones (`red.global.add.v4.f32`,
    // `red.global.add.noftz.bf16x2`, `.v2.bf16x2`): one REDG/ATOM of the
    // vector's width (F32x4, BF16x2, ...), as atomicAdd on float4 or
    // __half2 (measured alike: sample_kernels/vector_atomics.cu).
    const bool SharedInt = St.has("shared") && (St.Opcode.back() == "u32" ||
                                                St.Opcode.back() == "s32" ||
                                                St.Opcode.back() == "b32");
    const unsigned Vec = St.has("v8") ? 8 : St.has("v4") ? 4 : St.has("v2") ? 2 : 1;
    if ((Head == "atom" || Head == "red") && (St.has("global") || (SharedInt && Vec == 1))) {
      const MemorySpace Space = St.has("global") ? MemorySpace::Global : MemorySpace::Shared;
      const size_t AddrAt = Head == "red" ? 0 : 1;
      std::optional<PtxAddress> A =
          N > AddrAt ? parsePtxAddress(St.Operands[AddrAt]) : std::nullopt;
      // The type: the last part that is one (`red.global.v2.f32.add`
      // names the operation after it).
      unsigned Elem = 0;
      for (size_t K = St.Opcode.size(); K-- > 1 && !Elem;)
        Elem = atomTypeBytes(St.Opcode[K]);
      const unsigned Bytes = Elem * Vec;
      if (A && Bytes && Bytes <= (Vec == 1 ? 8u : 16u)) {
        AsmValue B = Get(A->Base);
        Clobber(St);
        AsmInstruction I;
        I.Space = Space;
        if (Guarded)
          I.Why = GuardWhy();
        if (B.V.K == Value::Ptr) {
          std::optional<MemorySpace> Sp = R.Regions[B.V.Region].space();
          if (Sp && *Sp != Space)
            B.V = Value::unknown(Unmodelled(St, "its state space is not the pointer's"));
        }
        if (!B.Site)
          B.Site = AnySite;
        asmAccess(AccessOp::Atomic, B, A->Offset, Bytes, I);
        continue;
      }
    }
    // Other instructions that touch memory (an ld or st with a cache policy,
    // atom, red, st.async): unknown where they have an address operand;
    // prefetches, fences and barriers move no data the tools count.
    if (Head == "ld" || Head == "st" || Head == "atom" || Head == "red" || Head == "ldu")
      for (const std::string &O : St.Operands)
        if (std::optional<PtxAddress> A = parsePtxAddress(O)) {
          AsmValue B = Get(A->Base);
          std::optional<MemorySpace> Space;
          if (St.has("global"))
            Space = MemorySpace::Global;
          else if (St.has("shared"))
            Space = MemorySpace::Shared;
          UnknownAccess(Head == "ld" || Head == "ldu" ? AccessOp::Load
                        : Head == "st"                 ? AccessOp::Store
                                                       : AccessOp::Atomic,
                        Space.value_or(MemorySpace::Global), 4,
                        Unmodelled(St, "its form is not read"), B.Site ? &B : nullptr);
          break;
        }
    Clobber(St);
  }
  return true;
}

} // namespace interp
} // namespace coalesce
