//===- MatrixMultiply.cpp - wgmma and the descriptors of its operands -----===//
//
// `wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b, ...`
// (HGMMA) is issued by the four warps of a warpgroup together; it reads B,
// and A unless A is a register list, from shared memory through 64-bit
// matrix descriptors (model/MatrixDescriptor.h). The descriptors are built
// by bit operations on a shared address (`((addr & 0x3FFFF) >> 4) | ...`),
// which the walk keeps as an AddressCode (interp/Interpreter.h); here they
// are decoded.
//
// One record per statement: a shared load at A's tile (B's when A is in
// registers), of the bytes the warpgroup's instruction reads, costed by the
// measured rule (model/Instructions.h, "wgmma"). Each descriptor that points
// into a box a TMA copy wrote (KernelRun::TensorCopies) is checked against
// the copy: its swizzle mode must be the copy's (descriptor-swizzle), and a
// K-major operand's stride between 8-row atoms must be the box's 8 rows
// (descriptor-stride); a break is a finding of coalesce-tma-contract.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"
#include "model/MatrixDescriptor.h"
#include "model/TensorMap.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>

using namespace clang;

namespace coalesce {
namespace interp {

void WarpInterp::matrixMultiply(const PtxStatement &St,
                                const std::function<AsmValue(const std::string &)> &Get,
                                const std::string &Line, const Expr *AnySite) {
  const std::optional<WgmmaShape> Shape = parseWgmmaShape(St.Opcode);
  const size_t N = St.Operands.size();
  const bool ARegs = N >= 2 && !St.Operands[1].empty() && St.Operands[1][0] == '{';
  AsmInstruction I;
  I.Kind = InstrKind::Wgmma;
  I.Space = MemorySpace::Shared;
  auto Unmodelled = [&](const std::string &What) {
    return makeReason(ReasonKind::AsmUnmodelled, {St.opcodeText(), Line, What});
  };
  if (!Shape || N < 3) {
    I.Why = Unmodelled("only dense m64nNk wgmma of .f16, .bf16, .tf32, .e4m3 and .e5m2 "
                       "operands is (measured)");
  } else {
    I.Matrices = wgmmaSharedBytes(*Shape, ARegs);
  }

  // An operand's transpose immediate (f16/bf16 only): 1 is MN-major.
  auto Transposed = [&](bool B) -> std::optional<bool> {
    if (!Shape || !Shape->Transposable)
      return false; // K-major only
    const size_t At = ARegs ? 6 : (B ? 7 : 6);
    if (ARegs && !B)
      return false;
    if (At >= N)
      return std::nullopt;
    const AsmValue V = Get(St.Operands[At]);
    if (V.V.K != Value::Int || !V.V.P.isConcrete(Active) || !V.V.P.isUniform(Active))
      return std::nullopt;
    return V.V.P.laneConstants()[firstLane(Active)] != 0;
  };

  struct Operand {
    const char *Name;
    AsmValue V;
    std::string Why;   // not decoded: why
    int64_t Start = 0; // bytes into the region
    DescriptorFields F;
  };
  std::vector<Operand> Ops;
  if (!ARegs && N >= 2)
    Ops.push_back({"A", Get(St.Operands[1]), "", 0, {}});
  if (N >= 3)
    Ops.push_back({"B", Get(St.Operands[2]), "", 0, {}});
  for (Operand &O : Ops) {
    const Value &V = O.V.V;
    const std::string Text = O.V.Site ? "'" + exprText(Ctx, O.V.Site) + "'" : "its operand";
    if (!V.Code || !V.Code->HasAddress) {
      O.Why = "the descriptor of " + std::string(O.Name) + " (" + Text +
              ") is not a shared address taken apart by shifts and masks that the "
              "analysis follows";
      continue;
    }
    const AddressCode &C = *V.Code;
    const std::optional<DescriptorFields> F = decodeDescriptorFields(C.High);
    const MemRegion &Rg = R.Regions[C.Region];
    if (C.Shift != DescriptorAddressShift || !F) {
      O.Why = "the descriptor of " + std::string(O.Name) + " (" + Text +
              ") does not hold its address as bits 0-13 with the other fields above";
      continue;
    }
    if (!Active || !C.Offset.isConcrete(Active) || !C.Offset.isUniform(Active) ||
        Rg.Align < 16) {
      O.Why = "the descriptor of " + std::string(O.Name) + " (" + Text +
              ") points into '" + Rg.Name + "' at an offset not known";
      continue;
    }
    O.F = *F;
    // The start address field drops the address's low 4 bits.
    O.Start = C.Offset.laneConstants()[firstLane(Active)] & ~int64_t(15);
  }

  // The contract with the boxes TMA copies wrote: one break per rule, the
  // operands that break it together.
  std::vector<std::pair<std::string, std::vector<std::string>>> Breaks;
  auto Break = [&](const std::string &Rule, std::string Text) {
    auto It = std::find_if(Breaks.begin(), Breaks.end(),
                           [&](const auto &B) { return B.first == Rule; });
    if (It == Breaks.end())
      Breaks.push_back({Rule, {std::move(Text)}});
    else
      It->second.push_back(std::move(Text));
  };
  for (const Operand &O : Ops) {
    if (!O.Why.empty())
      continue;
    const AddressCode &C = *O.V.V.Code;
    for (const TensorCopyLayout &L : R.TensorCopies) {
      if (L.Region != C.Region || O.Start < L.Offset || O.Start >= L.Offset + L.Bytes)
        continue;
      const std::string Where =
          "'" + R.Regions[L.Region].Name + "'" +
          (O.Start ? " + " + std::to_string(O.Start) + " bytes" : std::string());
      const std::string Copy = "the TMA copy at " + L.CopyAt;
      const unsigned Span = descriptorSwizzleSpan(O.F.Mode);
      if (Span != L.Span) {
        const unsigned Want = L.Span == 128 ? 1 : L.Span == 64 ? 2 : L.Span == 32 ? 3 : 0;
        // CUtensorMapSwizzle: 1, 2, 3 for 32B, 64B, 128B.
        const int64_t MapMode = Span == 32 ? 1 : Span == 64 ? 2 : Span == 128 ? 3 : 0;
        Break("descriptor-swizzle",
              "the descriptor of " + std::string(O.Name) + " reads " + Where + " with " +
                  descriptorSwizzleText(O.F.Mode) + ", but " + Copy + " wrote that box with " +
                  L.Swizzle + " (the map encoded at " + L.MapAt +
                  "), so the tensor cores multiply other elements than the copy put there: " +
                  (Want ? "set the descriptor's bits 62-63 to " + std::to_string(Want) +
                              " (" + descriptorSwizzleText(Want) + "), or encode the map with " +
                              swizzleName(MapMode)
                        : "encode the map with " + swizzleName(MapMode) +
                              ", the layout the descriptor reads"));
      } else if (Span) {
        const std::optional<bool> T = Transposed(std::string(O.Name) == "B");
        if (T && !*T && O.F.StrideBytes != 8 * L.Span)
          Break("descriptor-stride",
                "the descriptor of " + std::string(O.Name) + " reads " + Where +
                    " as K-major with " + descriptorSwizzleText(O.F.Mode) +
                    " and 8-row groups " + std::to_string(O.F.StrideBytes) + " bytes apart, but " +
                    Copy + " wrote rows of " + std::to_string(L.Span) + " bytes, 8-row groups " +
                    std::to_string(8 * L.Span) +
                    " bytes apart: its stride dimension byte offset (bits 32-45, in 16-byte "
                    "units) should be " + std::to_string(8 * L.Span / 16));
      }
      break;
    }
  }
  for (auto &[Rule, Texts] : Breaks) {
    std::string Text;
    for (size_t K = 0; K < Texts.size(); ++K)
      Text += (K ? "; and " : "") + Texts[K];
    I.Contract.push_back({Rule, std::move(Text)});
  }

  // The record: at A's tile, else B's.
  const Operand *At = nullptr;
  for (const Operand &O : Ops)
    if (O.Why.empty()) {
      At = &O;
      break;
    }
  if (I.Why.empty()) {
    for (const Operand &O : Ops)
      if (!O.Why.empty()) {
        I.Why = makeReason(ReasonKind::MatrixDescriptor, {St.opcodeText(), Line, O.Why});
        break;
      }
  }
  if (I.Why.empty() && Active != AllLanes)
    I.Why = makeReason(ReasonKind::MatrixPartialWarp, {St.opcodeText()});
  AsmValue Base;
  if (At) {
    Base.V = Value::pointer(At->V.V.Code->Region, Poly::constant(At->Start));
    Base.Site = At->V.Site;
  } else {
    Base.V = Value::unknown(I.Why.empty() ? makeReason(ReasonKind::AddressUnknown) : I.Why);
    Base.Site = !Ops.empty() && Ops.front().V.Site ? Ops.front().V.Site : AnySite;
  }
  if (!Base.Site)
    Base.Site = AnySite;
  asmAccess(AccessOp::Load, Base, 0, 16, I);
}

} // namespace interp
} // namespace coalesce
