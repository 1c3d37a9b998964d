//===- TensorCopies.cpp - TMA copies and the readers of their boxes -------===//
//
// `cp.async.bulk.tensor.Nd.shared::cluster.global... [dst], [map, {x, y}],
// [bar];` copies a box of a tensor into shared memory, issued by one thread
// for the whole block (UTMALDG); `cp.async.bulk.tensor... .global.shared::cta
// [map, {x, y}], [src];` the other way (UTMASTG). What the box is comes from
// the tensor map, which the host code encoded (launch/HostCalls.cpp,
// tensorMapEncode) and passed as a `const __grid_constant__ CUtensorMap`
// parameter: the map operand is that parameter's address.
//
// The copy is one record (unknown: its shared writes are not a warp's
// requests, reason tensor-copy, saying what it moves) carrying the rules of
// the contract its map and destination break (model/TensorMap.h). A box
// written with a swizzle is remembered (KernelRun::TensorCopies): a shared
// load of it whose address the source computes with no XOR at all
// (ast/SwizzleProvenance.h) and which, at some lane, reads a byte the
// swizzle moved, reads the box as if it were not swizzled
// (reader-ignores-swizzle).
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"
#include "ast/SwizzleProvenance.h"
#include "model/Alignment.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// "a box of 64 x 64 2-byte elements (8192 bytes) with
/// CU_TENSOR_MAP_SWIZZLE_128B, from the map encoded at f.cu:160".
std::string boxText(const TensorMapEncoding &M) {
  std::string Out = "a box of ";
  const int64_t Rank = M.Rank && *M.Rank >= 1 && *M.Rank <= 5 ? *M.Rank : 0;
  // Outermost first, as a C array would be declared.
  for (int64_t I = Rank - 1; I >= 0; --I) {
    const std::optional<int64_t> B =
        I < static_cast<int64_t>(M.Box.size()) ? M.Box[I] : std::nullopt;
    Out += B ? std::to_string(*B) : std::string("?");
    if (I)
      Out += " x ";
  }
  if (!Rank)
    Out += "unknown shape";
  const unsigned Elem = M.DataType ? tensorElementBytes(*M.DataType) : 0;
  if (Elem)
    Out += " " + std::to_string(Elem) + "-byte elements";
  if (std::optional<int64_t> B = boxBytes(M))
    Out += " (" + std::to_string(*B) + " bytes)";
  Out += M.Swizzle ? " with " + swizzleName(*M.Swizzle) : " with a swizzle not known";
  Out += ", from the map encoded at " + M.At;
  return Out;
}

} // namespace

void WarpInterp::tensorCopy(const PtxStatement &St,
                            const std::function<AsmValue(const std::string &)> &Get,
                            const std::string &Line, const Expr *AnySite) {
  // The direction: the destination's state space is named first.
  const auto Pos = [&](const char *Part) {
    for (size_t I = 0; I < St.Opcode.size(); ++I)
      if (St.Opcode[I] == Part || St.Opcode[I].rfind(std::string(Part) + "::", 0) == 0)
        return I;
    return St.Opcode.size();
  };
  const bool ToShared = Pos("shared") < Pos("global");
  const std::string &SmemOp = St.Operands[ToShared ? 0 : 1];
  const std::string &TensorOp = St.Operands[ToShared ? 1 : 0];
  std::optional<PtxAddress> Smem = parsePtxAddress(SmemOp);
  std::optional<PtxTensorOperand> T = parsePtxTensorOperand(TensorOp);
  AsmValue S = Smem ? Get(Smem->Base) : AsmValue{};

  AsmInstruction I;
  I.Kind = InstrKind::TensorCopy;
  I.Space = MemorySpace::Shared;
  const TensorMapEncoding *Map = nullptr;
  std::string What;
  if (T) {
    const AsmValue M = Get(T->Map);
    const ParmVarDecl *PD = nullptr;
    if (M.V.K == Value::Ptr)
      PD = dyn_cast_or_null<ParmVarDecl>(R.Regions[M.V.Region].Decl);
    if (PD) {
      auto It = R.Launch.TensorMaps.find(PD);
      if (It != R.Launch.TensorMaps.end())
        Map = &It->second;
      else if (PD->getType()->isPointerType())
        What = "its tensor map is read through the pointer '" + PD->getName().str() +
               "' (a map the host copied to device memory), which the analysis does not "
               "follow; a `const __grid_constant__ CUtensorMap` parameter it would";
      else
        What = "the tensor map '" + PD->getName().str() +
               "' is not one an encode call of the host code made known";
    } else {
      What = "its tensor map is not a kernel parameter the analysis follows";
    }
  } else {
    What = "its tensor operand is not read";
  }
  // Modes other than tile (im2col, gather4) lay the box out otherwise.
  const bool Tile = !St.has("im2col") && !St.has("im2col_w") && !St.has("im2col_w_128") &&
                    !St.has("gather4") && !St.has("scatter4");
  bool MapValid = false;
  if (Map) {
    What = boxText(*Map);
    const std::vector<ContractBreak> Breaks = encodeContract(*Map);
    for (const ContractBreak &B : Breaks)
      I.Contract.push_back({B.Rule, B.Text + " (the map encoded at " + Map->At + ")"});
    // A map the driver rejects copies nothing: its box has no readers.
    MapValid = Breaks.empty();
  }

  // The shared side: 128-byte aligned, and where its box lands.
  const std::string Name = S.Site ? exprText(Ctx, S.Site) : std::string("the shared address");
  Value SP = S.V;
  if (SP.K == Value::Ptr && Smem) {
    SP.P = SP.P + Poly::constant(Smem->Offset);
    const MemRegion &Rg = R.Regions[SP.Region];
    const std::optional<MemorySpace> Sp = Rg.space();
    const unsigned L0 = firstLane(Active);
    if (Sp && *Sp == MemorySpace::Shared && Active && SP.P.isConcrete(Active)) {
      const int64_t Off = SP.P.laneConstants()[L0];
      const int64_t Align = provenAlignment(SP.P, Active, std::max<int64_t>(1, Rg.Align));
      if (Align < 128)
        I.Contract.push_back(
            {"destination-alignment",
             "the copy's shared " + std::string(ToShared ? "destination" : "source") + " ('" +
                 Rg.Name + "'" + (Off ? " + " + std::to_string(Off) + " bytes" : "") +
                 ") is known to be only " + std::to_string(Align) +
                 "-byte aligned: cp.async.bulk.tensor needs 128 (declare '" + Rg.Name +
                 "' __align__(128) or more)"});
      std::optional<unsigned> Span = Map && Map->Swizzle ? swizzleSpan(*Map->Swizzle) : std::nullopt;
      std::optional<int64_t> Bytes = Map ? boxBytes(*Map) : std::nullopt;
      // Measured only with box rows exactly the swizzle's span
      // (tests/verify/fixtures/probe-tma-h100): narrower rows are laid out
      // otherwise, and get no layout here.
      const unsigned Elem = Map && Map->DataType ? tensorElementBytes(*Map->DataType) : 0;
      const bool RowIsSpan = Span && *Span && Elem && !Map->Box.empty() && Map->Box[0] &&
                             *Map->Box[0] * Elem == *Span;
      if (ToShared && Tile && MapValid && Span && Bytes && (!*Span || RowIsSpan)) {
        // The swizzle follows the shared address's bits (measured:
        // tests/verify/fixtures/probe-tma-h100): a box whose destination is
        // not aligned to the pattern's repeat is laid out by where it lands.
        const int64_t Repeat = 8 * static_cast<int64_t>(*Span);
        if (*Span && Align < Repeat) {
          I.Contract.push_back(
              {"swizzle-alignment",
               swizzleName(*Map->Swizzle) + " repeats every " + std::to_string(Repeat) +
                   " bytes and follows the shared address's bits; the destination ('" +
                   Rg.Name + "'" + (Off ? " + " + std::to_string(Off) + " bytes" : "") +
                   ") is known to be only " + std::to_string(Align) +
                   "-byte aligned, so where the box's chunks land depends on where '" +
                   Rg.Name + "' is placed: declare it __align__(" + std::to_string(Repeat) +
                   ")"});
        } else {
          TensorCopyLayout L;
          L.Region = SP.Region;
          L.Offset = Off;
          L.Bytes = *Bytes;
          L.Span = *Span;
          L.Swizzle = swizzleName(*Map->Swizzle);
          L.MapAt = Map->At;
          // Where the kernel issues it (the call of its helper).
          const Expr *At = Frames.size() > 1 && Frames[1].Call ? Frames[1].Call
                           : S.Site                             ? S.Site
                                                                : AnySite;
          L.CopyAt = At ? fileLine(Ctx, At->getBeginLoc()) : std::string("?");
          // A later copy into the same bytes replaces what an earlier one
          // wrote.
          auto &Cs = R.TensorCopies;
          Cs.erase(std::remove_if(Cs.begin(), Cs.end(),
                                  [&](const TensorCopyLayout &C) {
                                    return C.Region == L.Region && C.Offset < L.Offset + L.Bytes &&
                                           L.Offset < C.Offset + C.Bytes;
                                  }),
                   Cs.end());
          Cs.push_back(std::move(L));
        }
      }
    }
  }
  I.Why = makeReason(ReasonKind::TensorCopy, {St.opcodeText(), Line, What});
  if (!S.Site)
    S.Site = AnySite;
  asmAccess(ToShared ? AccessOp::Store : AccessOp::Load, S, Smem ? Smem->Offset : 0, 16, I);
}

void WarpInterp::forgetTensorCopies(RegionId Rg, const Poly *Off, int64_t Width) {
  auto &Cs = R.TensorCopies;
  // Bytes of a box the walk cannot place: every box of the region is gone.
  const bool Known = Off && Off->isConcrete(Active);
  const LaneInts O = Known ? Off->laneConstants() : LaneInts{};
  Cs.erase(std::remove_if(Cs.begin(), Cs.end(),
                          [&](const TensorCopyLayout &C) {
                            if (C.Region != Rg)
                              return false;
                            if (!Known)
                              return true;
                            for (unsigned L = 0; L < WarpSize; ++L)
                              if (laneActive(Active, L) && O[L] < C.Offset + C.Bytes &&
                                  C.Offset < O[L] + Width)
                                return true;
                            return false;
                          }),
           Cs.end());
}

void WarpInterp::checkTensorCopyReader(AccessEvent &E, const LValue &LV) {
  // A store into a box (another copy, an epilogue staging its results):
  // the box no longer holds what the copy wrote.
  if (!R.TensorCopies.empty() && E.Instr != InstrKind::TensorCopy) {
    if (E.Op != AccessOp::Load && E.Region) {
      const bool Placed = LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr;
      forgetTensorCopies(*E.Region, Placed ? &LV.Ptr.P : nullptr, 16);
    }
    if (E.SecondSide && E.SecondSide->Op != AccessOp::Load && E.SecondSide->Region)
      forgetTensorCopies(*E.SecondSide->Region, &E.SecondSide->Offset,
                         std::max(1u, E.SecondSide->Width));
  }
  if (R.TensorCopies.empty() || E.Op != AccessOp::Load || !E.Region || !E.UnknownWhy.empty() ||
      E.Instr == InstrKind::TensorCopy || E.Instr == InstrKind::Wgmma ||
      LV.K != LValue::Mem || LV.Ptr.K != Value::Ptr ||
      !LV.Ptr.P.isConcrete(Active))
    return;
  const LaneInts Offs = LV.Ptr.P.laneConstants();
  const QualType T = E.AccessType.getCanonicalType().getNonReferenceType();
  const int64_t W = E.Instr == InstrKind::Matrix ? MatrixRowBytes
                    : T->isIncompleteType()      ? 1
                                                 : Ctx.getTypeSizeInChars(T).getQuantity();
  for (const TensorCopyLayout &C : R.TensorCopies) {
    if (C.Region != *E.Region || !C.Span)
      continue;
    // Every lane inside the box, or the load is not (only) a reader of it.
    bool Inside = true;
    for (unsigned L = 0; L < WarpSize && Inside; ++L)
      if (laneActive(Active, L))
        Inside = Offs[L] >= C.Offset && Offs[L] + W <= C.Offset + C.Bytes;
    if (!Inside)
      continue;
    // Lanes reading a byte the swizzle moved.
    std::vector<unsigned> Moved;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L)) {
        const int64_t B = Offs[L] - C.Offset;
        if (swizzledOffset(C.Span, B) != B)
          Moved.push_back(L);
      }
    if (Moved.empty())
      return;
    // A helper's parameter: the argument of the call on the stack.
    auto ArgOf = [&](const ParmVarDecl *PD) -> std::pair<const Expr *, const FunctionDecl *> {
      const auto *Owner = dyn_cast<FunctionDecl>(PD->getDeclContext());
      for (size_t K = Frames.size(); Owner && K-- > 1;) {
        const Frame &F = Frames[K];
        if (!F.FD || F.FD->getCanonicalDecl() != Owner->getCanonicalDecl())
          continue;
        const auto *CE = dyn_cast_or_null<CallExpr>(F.Call);
        if (!CE)
          return {nullptr, nullptr};
        unsigned I = PD->getFunctionScopeIndex();
        if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(F.FD) &&
            cast<CXXMethodDecl>(F.FD)->isInstance())
          ++I;
        if (I >= CE->getNumArgs())
          return {nullptr, nullptr};
        return {CE->getArg(I), Frames[K - 1].FD};
      }
      return {nullptr, nullptr};
    };
    const AddressXors X = addressXors(Ctx, E.Site, frame().FD, ArgOf);
    if (X.P == XorProvenance::HasXor && X.Complete && !X.Others && X.Xors.size() == 1)
      checkXorReader(E, C, Offs, X.Xors.front());
    if (X.P != XorProvenance::NoXor)
      return;
    const unsigned L = Moved.front();
    const int64_t B = Offs[L] - C.Offset;
    const unsigned Mask = C.Span / 16 - 1;
    E.Contract.push_back(
        {"reader-ignores-swizzle",
         "the TMA copy at " + C.CopyAt + " wrote '" + R.Regions[C.Region].Name + "' with " +
             C.Swizzle + " (the map encoded at " + C.MapAt +
             "), but this load's address applies no swizzle (no XOR on its way): lane " +
             std::to_string(L) + " reads byte " + std::to_string(B) +
             " of the box, where the copy put the box's byte " +
             std::to_string(swizzledOffset(C.Span, B)) + " (" + std::to_string(Moved.size()) +
             " of the warp's lanes read moved bytes); to read byte b of the box, read b ^ (((b >> "
             "7) & " + std::to_string(Mask) + ") << 4), CuTe's Swizzle<" +
             std::to_string(Mask == 7 ? 3 : Mask == 3 ? 2 : 1) + ",4,3> on byte offsets"});
    return;
  }
}

void WarpInterp::checkXorReader(AccessEvent &E, const TensorCopyLayout &C, const LaneInts &Offs,
                                const BinaryOperator *Xor) {
  // The operands of the XOR as this access computed them.
  auto It = LastXor.find(Xor);
  if (It == LastXor.end() || (It->second.Lanes & Active) != Active || !Active)
    return;
  const XorOperands &V = It->second;
  const uint64_t M = C.Span / 16 - 1; // the chunk bits the swizzle permutes
  auto Chunk = [&](uint64_t Bytes) { return (Bytes >> 4) & M; };
  // The lanes must read at least two chunks (else any unit fits), and the
  // operands be small non-negative indices.
  std::set<uint64_t> Chunks;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L)) {
      if (V.A[L] < 0 || V.B[L] < 0 || V.A[L] >= (int64_t(1) << 32) || V.B[L] >= (int64_t(1) << 32))
        return;
      Chunks.insert(Chunk(static_cast<uint64_t>(Offs[L] - C.Offset)));
    }
  if (Chunks.size() < 2)
    return;
  // The unit of the XOR's result: 2^K bytes (a chunk index, an element
  // index, a byte offset) such that it gives every lane's chunk; none, or
  // more than one: the XOR is not known to be what places the chunk.
  std::optional<unsigned> Unit;
  unsigned Units = 0;
  for (unsigned K = 0; K <= 4; ++K) {
    bool Holds = true;
    for (unsigned L = 0; L < WarpSize && Holds; ++L)
      if (laneActive(Active, L))
        Holds = Chunk(static_cast<uint64_t>(V.A[L] ^ V.B[L]) << K) ==
                Chunk(static_cast<uint64_t>(Offs[L] - C.Offset));
    if (Holds) {
      Unit = K;
      ++Units;
    }
  }
  if (Units != 1)
    return;
  // The copy XORs the chunk of box byte b with (b >> 7) & M (the box is
  // aligned to the pattern's repeat); a reader applies the swizzle when one
  // operand is that mask at every lane.
  auto Wrong = [&](const LaneInts &Mask) {
    std::vector<unsigned> Out;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L) && Chunk(static_cast<uint64_t>(Mask[L]) << *Unit) !=
                                       ((static_cast<uint64_t>(Offs[L] - C.Offset) >> 7) & M))
        Out.push_back(L);
    return Out;
  };
  const std::vector<unsigned> WA = Wrong(V.A), WB = Wrong(V.B);
  if (WA.empty() || WB.empty())
    return;
  // The operand taken for the mask: the one closer to the copy's.
  const bool MaskIsB = WB.size() <= WA.size();
  const std::vector<unsigned> &W = MaskIsB ? WB : WA;
  const LaneInts &Mask = MaskIsB ? V.B : V.A;
  const unsigned L = W.front();
  const int64_t B = Offs[L] - C.Offset;
  E.Contract.push_back(
      {"reader-wrong-swizzle",
       "the TMA copy at " + C.CopyAt + " wrote '" + R.Regions[C.Region].Name + "' with " +
           C.Swizzle + " (the map encoded at " + C.MapAt +
           "), which XORs the 16-byte chunk of box byte b with (b >> 7) & " + std::to_string(M) +
           ", but this load's XOR (`" + exprText(Ctx, Xor) + "`) XORs it with `" +
           exprText(Ctx, MaskIsB ? Xor->getRHS() : Xor->getLHS()) + "`: lane " +
           std::to_string(L) + " reads byte " + std::to_string(B) + " of the box, where the copy's mask is " +
           std::to_string((B >> 7) & M) + " and the load's " +
           std::to_string(Chunk(static_cast<uint64_t>(Mask[L]) << *Unit)) + " (" + std::to_string(W.size()) +
           " of the warp's lanes read other elements than they mean); to read byte b of the "
           "box, read b ^ (((b >> 7) & " + std::to_string(M) + ") << 4)"});
}

} // namespace interp
} // namespace coalesce
