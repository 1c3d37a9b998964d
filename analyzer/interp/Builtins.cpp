//===- Builtins.cpp - CUDA intrinsics --------------------------------------===//
//
// Intrinsics with a known meaning for the addresses: the cache-hinted loads
// and stores (__ldg, __stcs...), atomics (one request per warp), integer
// min/max and abs (a clamp to an unknown bound is assumed not to bite in
// interior warps), shuffles (a permutation of lanes), bit intrinsics per
// lane, and the no-ops (barriers, fences, printf). Warp votes are unknown.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/TargetInfo.h"

#include <array>
#include <map>
#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

Value WarpInterp::evalBuiltinCall(const CallExpr *CE, const FunctionDecl *FD,
                                  bool &Handled) {
  Handled = true;
  std::string Name = FD->getName().str();
  auto Arg = [&](unsigned I) { return CE->getArg(I); };
  const unsigned N = CE->getNumArgs();

  static const std::set<std::string> NoOps = {
      "__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block",
      "__threadfence_system", "__nanosleep", "__trap", "__brkpt", "printf",
      "__assertfail", "__assert_fail", "__prof_trigger"};
  if (NoOps.count(Name)) {
    for (unsigned I = 0; I < N; ++I)
      eval(Arg(I));
    return Value::opaque();
  }
  static const std::set<std::string> Loads = {"__ldg", "__ldcg", "__ldca",
                                              "__ldcs", "__ldlu", "__ldcv"};
  if (Loads.count(Name) && N == 1) {
    Value P = eval(Arg(0));
    LValue LV = memAt(P);
    return load(LV, Arg(0)->getType()->getPointeeType(), CE);
  }
  static const std::set<std::string> Stores = {"__stcg", "__stcs", "__stwb",
                                               "__stwt"};
  if (Stores.count(Name) && N == 2) {
    Value P = eval(Arg(0));
    eval(Arg(1));
    LValue LV = memAt(P);
    store(LV, Value::opaque(), Arg(0)->getType()->getPointeeType(), CE);
    return Value::opaque();
  }
  // A generic pointer converted to its address in a state space's window
  // (sm_20_intrinsics.hpp; CUTLASS, llama.cpp and the pipeline primitives
  // pass it to inline PTX): the same region and offset, held in an integer
  // (interp/InlineAsm.cpp reads it as an address), when the pointer is
  // known to be in that space.
  static const std::map<std::string, MemorySpace> ToWindow = {
      {"__cvta_generic_to_shared", MemorySpace::Shared},
      {"__nv_cvta_generic_to_shared_impl", MemorySpace::Shared},
      {"__nvvm_get_smem_pointer", MemorySpace::Shared},
      {"__cvta_generic_to_global", MemorySpace::Global},
      {"__nv_cvta_generic_to_global_impl", MemorySpace::Global}};
  if (auto It = ToWindow.find(Name); It != ToWindow.end() && N == 1) {
    Value P = eval(Arg(0));
    if (P.K == Value::Ptr) {
      std::optional<MemorySpace> Sp = R.Regions[P.Region].space();
      if (Sp && *Sp == It->second)
        return P;
    }
    if (P.K == Value::Unknown)
      return P;
    return It->second == MemorySpace::Shared
               ? Value::unknown(ReasonKind::NotSharedPointer, {text(CE)})
               : Value::unknown(ReasonKind::PointerToInteger);
  }
  // The state space of a generic pointer, where its region is known.
  static const std::map<std::string, MemorySpace> IsSpace = {
      {"__isGlobal", MemorySpace::Global}, {"__isShared", MemorySpace::Shared},
      {"__isLocal", MemorySpace::Local}, {"__isConstant", MemorySpace::Constant}};
  if (auto It = IsSpace.find(Name); It != IsSpace.end() && N == 1) {
    Value P = eval(Arg(0));
    if (P.K == Value::Ptr)
      if (std::optional<MemorySpace> Sp = R.Regions[P.Region].space())
        return Value::constant(*Sp == It->second);
    return Value::unknown(ReasonKind::IntrinsicResult, {Name});
  }
  // wmma fragments of 16x16x16 halves in shared memory (crt/mma.hpp calls
  // these with the fragment, the pointer, ldm and the layout). What nvcc
  // 13 emits for sm_90, read in SASS and measured on an H200
  // (sample_kernels/wmma_loads.cu): a matrix_a (row major) or matrix_b
  // (column major) load is one ldmatrix .x4 whose lanes give the rows
  // (lane % 16) * ldm + (lane / 16) * 8; a float accumulator stored row
  // major is four STS.64 at the mma C layout's (lane / 4 + 8i) * ldm +
  // (lane % 4) * 2 + 8j. Other layouts, shapes, types, spaces and targets
  // were not measured: unknown, named.
  if (Name.rfind("__hmma_", 0) == 0 || Name.rfind("__imma_", 0) == 0 ||
      Name.rfind("__bmma_", 0) == 0 || Name.rfind("__dmma_", 0) == 0 ||
      Name.rfind("__mma_", 0) == 0) {
    const bool LoadA = Name == "__hmma_m16n16k16_ld_a", LoadB = Name == "__hmma_m16n16k16_ld_b";
    const bool StoreC = Name == "__hmma_m16n16k16_st_c_f32";
    const bool Memory = Name.find("_ld_") != std::string::npos || Name.find("_st_") != std::string::npos;
    if (!Memory) {
      for (unsigned I = 0; I < N; ++I)
        eval(Arg(I));
      return Value::opaque();
    }
    // The memory operand: the source of a load, the destination of a store.
    const unsigned MemArg = Name.find("_st_") != std::string::npos ? 0 : 1;
    std::vector<Value> A;
    for (unsigned I = 0; I < N; ++I)
      A.push_back(eval(Arg(I)));
    auto Known = [&](unsigned I) -> std::optional<int64_t> {
      if (I < A.size() && A[I].K == Value::Int && A[I].P.isConcrete(Active) &&
          A[I].P.isUniform(Active))
        return A[I].P.laneConstants()[firstLane(Active)];
      return std::nullopt;
    };
    const std::string Arch = Ctx.getTargetInfo().getTargetOpts().CPU;
    std::optional<int64_t> Ldm = Known(2), Layout = Known(3);
    const bool SharedPtr = MemArg < A.size() && A[MemArg].K == Value::Ptr &&
                           R.Regions[A[MemArg].Region].space() == MemorySpace::Shared;
    Reason Why;
    if (!(LoadA || LoadB || StoreC) || N != 4)
      Why = makeReason(ReasonKind::WmmaUnmodelled, {Name, "its shape, type or operation"});
    else if (!Ldm || !Layout || *Layout != (LoadB ? 1 : 0))
      Why = makeReason(ReasonKind::WmmaUnmodelled, {Name, "this layout or leading dimension"});
    else if (!SharedPtr)
      Why = makeReason(ReasonKind::WmmaUnmodelled, {Name, "a fragment outside shared memory"});
    else if (Arch != "sm_90")
      Why = makeReason(ReasonKind::WmmaUnmodelled, {Name, "the target " + Arch});
    else if (Active != AllLanes)
      Why = makeReason(ReasonKind::MatrixPartialWarp, {Name});
    Value P = MemArg < A.size() ? A[MemArg] : Value::unknown(ReasonKind::MissingArgument);
    if (!Why.empty()) {
      std::optional<RegionId> Where = P.K == Value::Ptr ? std::optional<RegionId>(P.Region) : P.Where;
      P = Value::unknown(Why);
      P.Where = Where;
    }
    AsmInstruction I;
    I.Space = MemorySpace::Shared;
    I.Why = Why;
    const Expr *Site = MemArg < N ? Arg(MemArg) : CE;
    if (LoadA || LoadB || !Why.empty()) {
      LaneInts Rows{};
      for (unsigned L = 0; L < WarpSize; ++L)
        Rows[L] = Ldm ? ((L % 16) * *Ldm + (L / 16) * 8) * 2 : 0;
      if (P.K == Value::Ptr)
        P.P = P.P + Poly::lanes(Rows);
      I.Kind = Why.empty() ? InstrKind::Matrix : InstrKind::Plain;
      I.Matrices = 4;
      PendingAsm = I;
      access(MemArg == 0 ? AccessOp::Store : AccessOp::Load, memAt(P), asmType(16), Site);
      PendingAsm.reset();
      return Value::opaque();
    }
    for (int Half = 0; Half < 2; ++Half)
      for (int Col = 0; Col < 2; ++Col) {
        LaneInts At{};
        for (unsigned L = 0; L < WarpSize; ++L)
          At[L] = ((L / 4 + 8 * Half) * *Ldm + (L % 4) * 2 + 8 * Col) * 4;
        Value Q = P;
        Q.P = P.P + Poly::lanes(At);
        PendingAsm = I;
        access(AccessOp::Store, memAt(Q), asmType(8), Site);
        PendingAsm.reset();
      }
    return Value::opaque();
  }
  static const std::set<std::string> MinMax = {
      "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"};
  if (MinMax.count(Name) && N == 2 && isIntegral(CE->getType())) {
    Value A = eval(Arg(0)), B = eval(Arg(1));
    if (A.K == Value::Unknown)
      return A;
    if (B.K == Value::Unknown)
      return B;
    if (A.K != Value::Int || B.K != Value::Int)
      return Value::opaque();
    const bool IsMax = Name.find("max") != std::string::npos;
    IntResult Res = minMaxPoly(A.P, B.P, IsMax, Active, R.Syms);
    if (Res.Ok && A.P.isConcrete(Active) == B.P.isConcrete(Active) &&
        (A.P.isConcrete(Active) || !A.P.isUniform(Active) || !B.P.isUniform(Active)))
      return Value::integer(Res.P);
    // Over the blocks of this walk, which operand wins on each lane.
    if (std::optional<LaneMask> M =
            decideOverBlocks(A.P, B.P, IsMax ? CmpOp::GE : CmpOp::LE))
      return Value::integer(A.P.select(*M, B.P));
    // An index clamped to a bound we do not know: like a bounds guard, the
    // clamp does not bite in interior warps. The index is the operand that
    // moves with the thread, block or loop; the bound is made of constants and
    // kernel parameters.
    auto IndexLike = [&](const Poly &P) {
      if (!P.isUniform(Active))
        return true;
      for (SymbolId S : P.symbols()) {
        SymbolKind K = R.Syms.get(S).Kind;
        if (K == SymbolKind::BlockIdx || K == SymbolKind::ThreadBase ||
            K == SymbolKind::LoopIteration)
          return true;
      }
      return false;
    };
    const bool AIdx = IndexLike(A.P), BIdx = IndexLike(B.P);
    if (AIdx != BIdx) {
      Sticky.push_back(makeAssumption(AssumptionKind::InteriorClamp,
                                      {text(CE), lineOf(Ctx, CE->getBeginLoc())}));
      return AIdx ? A : B;
    }
    if (Res.Ok)
      return Value::integer(Res.P);
    return Value::unknown(makeReason(Res));
  }
  if ((Name == "abs" || Name == "llabs") && N == 1 && isIntegral(CE->getType())) {
    Value A = eval(Arg(0));
    if (A.K == Value::Int && A.P.isConcrete(Active)) {
      LaneInts C = A.P.laneConstants();
      for (auto &V : C)
        V = V < 0 ? -V : V;
      return Value::integer(Poly::lanes(C));
    }
    return A.K == Value::Unknown ? A : Value::unknown(ReasonKind::AbsOfUnknown);
  }
  if ((Name == "__mul24" || Name == "__umul24") && N == 2) {
    Value A = eval(Arg(0)), B = eval(Arg(1));
    return evalArith(BO_Mul, A, B, Arg(0), Arg(1), CE->getType());
  }
  // The high half of a product (fast division by magic numbers: ggml's
  // fastdiv, CUTLASS's FastDivmod). Exact per lane, or warp-uniform.
  static const std::set<std::string> MulHi = {"__umulhi", "__mulhi", "__umul64hi", "__mul64hi"};
  if (MulHi.count(Name) && N == 2) {
    Value A = eval(Arg(0)), B = eval(Arg(1));
    if (A.K == Value::Unknown)
      return A;
    if (B.K == Value::Unknown)
      return B;
    if (A.K != Value::Int || B.K != Value::Int)
      return Value::unknown(ReasonKind::IntrinsicOfUnknown, {Name});
    const unsigned Bits = Name.find("64") != std::string::npos ? 64 : 32;
    IntResult Res = mulHiPoly(A.P, B.P, Bits, Name[2] != 'u', Active, R.Syms);
    if (Res.Ok)
      return Value::integer(Res.P);
    return Value::unknown(makeReason(Res));
  }
  static const std::set<std::string> Shuffles = {
      "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"};
  if (Shuffles.count(Name) && N >= 3) {
    eval(Arg(0));
    Value V = eval(Arg(1));
    Value S = eval(Arg(2));
    int64_t Width = WarpSize;
    if (N >= 4) {
      Value Wv = eval(Arg(3));
      if (Wv.K != Value::Int || !Wv.P.isConcrete(Active) || !Wv.P.isUniform(Active))
        return Value::unknown(ReasonKind::ShuffleWidthUnknown);
      Width = Wv.P.laneConstants()[firstLane(Active)];
      if (Width <= 0 || Width > 32 || (Width & (Width - 1)))
        return Value::unknown(ReasonKind::ShuffleWidthUnsupported);
    }
    if (V.K != Value::Int)
      return V.K == Value::Unknown ? V : Value::opaque();
    if (S.K != Value::Int || !S.P.isConcrete(Active))
      return Value::unknown(ReasonKind::ShuffleSourceUnknown);
    LaneInts Sv = S.P.laneConstants();
    std::array<unsigned, WarpSize> Src;
    for (unsigned L = 0; L < WarpSize; ++L) {
      int64_t Base = L & ~(Width - 1), Sub = L & (Width - 1), T = L;
      if (Name == "__shfl_sync")
        T = Base + (Sv[L] & (Width - 1));
      else if (Name == "__shfl_up_sync")
        T = (Sub - Sv[L] >= 0) ? L - Sv[L] : L;
      else if (Name == "__shfl_down_sync")
        T = (Sub + Sv[L] < Width) ? L + Sv[L] : L;
      else
        T = Base + ((Sub ^ Sv[L]) & (Width - 1));
      Src[L] = static_cast<unsigned>(T);
    }
    return Value::integer(V.P.permuted(Src));
  }
  static const std::set<std::string> LaneIntrinsics = {"__popc", "__popcll",
                                                       "__ffs", "__ffsll",
                                                       "__clz", "__clzll",
                                                       "__brev"};
  if (LaneIntrinsics.count(Name) && N == 1) {
    Value A = eval(Arg(0));
    if (A.K != Value::Int || !A.P.isConcrete(Active))
      return A.K == Value::Unknown ? A : Value::unknown(ReasonKind::IntrinsicOfUnknown, {Name});
    LaneInts C = A.P.laneConstants();
    const bool Is64 = Name.find("ll") != std::string::npos;
    for (auto &V : C) {
      uint64_t U = Is64 ? static_cast<uint64_t>(V) : static_cast<uint32_t>(V);
      if (Name.rfind("__popc", 0) == 0)
        V = __builtin_popcountll(U);
      else if (Name.rfind("__ffs", 0) == 0)
        V = U ? __builtin_ctzll(U) + 1 : 0;
      else if (Name.rfind("__clz", 0) == 0)
        V = U ? (__builtin_clzll(U) - (Is64 ? 0 : 32)) : (Is64 ? 64 : 32);
      else {
        uint32_t X = static_cast<uint32_t>(U), Rv = 0;
        for (int B = 0; B < 32; ++B)
          if (X & (1u << B))
            Rv |= 1u << (31 - B);
        V = Rv;
      }
    }
    return Value::integer(Poly::lanes(C));
  }
  // nvcc's __nv_atomic_load/_store (and their _n forms) are plain loads and
  // stores of the address with a memory order (LD/ST.STRONG): entered as
  // the compatibility header declares them (docs/nvcc-compat.md).
  const bool NvLoadStore = Name.rfind("__nv_atomic_load", 0) == 0 ||
                           Name.rfind("__nv_atomic_store", 0) == 0;
  if ((Name.rfind("atomic", 0) == 0 || (Name.rfind("__nv_atomic", 0) == 0 && !NvLoadStore)) &&
      N >= 1 && Arg(0)->getType()->isPointerType()) {
    // A read-modify-write of memory: one request per warp (RED/ATOM).
    Value P = eval(Arg(0));
    for (unsigned I = 1; I < N; ++I)
      eval(Arg(I));
    LValue LV = memAt(P);
    const QualType T = Arg(0)->getType()->getPointeeType();
    access(AccessOp::Atomic, LV, T, CE);
    // atomicAdd of a float or a 64-bit word on shared memory is a
    // compare-and-swap loop: it first reads the word (an LDS, once; measured
    // on an H100: sample_kernels/shared_atomics.cu), a plain load of it.
    if (Name == "atomicAdd" && LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr &&
        R.Regions[LV.Ptr.Region].space() == MemorySpace::Shared &&
        (T->isRealFloatingType() || Ctx.getTypeSize(T) == 64))
      access(AccessOp::Load, LV, T, CE);
    return isIntegral(CE->getType()) || CE->getType()->isPointerType()
               ? Value::unknown(ReasonKind::IntrinsicResult, {Name})
               : Value::opaque();
  }
  // Warp votes over a condition known per lane: the mask of the lanes that
  // take part (the active ones named in the mask) and pass.
  if (Name == "__activemask" && N == 0) {
    Sticky.push_back(makeAssumption(AssumptionKind::ConvergedLanes,
                                    {text(CE), lineOf(Ctx, CE->getBeginLoc())}));
    return Value::constant(static_cast<int64_t>(Active));
  }
  if ((Name == "__ballot_sync" || Name == "__any_sync" || Name == "__all_sync") && N == 2) {
    Value M = eval(Arg(0));
    if (M.K != Value::Int || !M.P.isConcrete(Active) || !M.P.isUniform(Active))
      return Value::unknown(ReasonKind::VoteMaskUnknown, {Name});
    const LaneMask Named = Active & static_cast<LaneMask>(M.P.laneConstants()[firstLane(Active)]);
    Cond C = evalCond(Arg(1));
    if (C.K == Cond::Data)
      return Value::unknown(C.Why);
    if (C.K == Cond::Uniform)
      return Value::unknown(ReasonKind::VoteConditionUnknown, {C.Text});
    for (const std::string &G : C.Guards)
      Sticky.push_back(makeAssumption(AssumptionKind::InteriorGuard,
                                      {G, lineOf(Ctx, CE->getBeginLoc())}));
    const LaneMask Pass = Named & C.True;
    if (Name == "__ballot_sync")
      return Value::constant(static_cast<int64_t>(Pass));
    return Value::constant(Name == "__any_sync" ? Pass != 0 : Pass == Named);
  }
  if (Name == "__activemask" || Name.rfind("__ballot", 0) == 0 ||
      Name.rfind("__any", 0) == 0 || Name.rfind("__all", 0) == 0 ||
      Name.rfind("__match", 0) == 0 || Name.rfind("__reduce", 0) == 0) {
    for (unsigned I = 0; I < N; ++I)
      eval(Arg(I));
    return Value::unknown(ReasonKind::WarpIntrinsic, {Name});
  }
  Handled = false;
  return Value::opaque();
}

} // namespace interp
} // namespace coalesce
