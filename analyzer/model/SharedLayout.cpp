//===- SharedLayout.cpp - Other layouts of a shared array, as algebra -----===//

#include "model/SharedLayout.h"
#include "model/BankModel.h"

#include <algorithm>

namespace coalesce {

namespace {

bool powerOfTwo(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

} // namespace

unsigned floorLog2(int64_t V) {
  unsigned L = 0;
  while ((int64_t(1) << (L + 1)) <= V)
    ++L;
  return L;
}

int64_t ArrayShape::rows() const {
  int64_t R = 1;
  for (size_t I = 0; I + 1 < Dims.size(); ++I)
    R *= Dims[I];
  return R;
}

SharedLayout SharedLayout::pad(int64_t Bytes) {
  SharedLayout L;
  L.K = Pad;
  L.PadBytes = Bytes;
  return L;
}

SharedLayout SharedLayout::swizzle(unsigned UnitBytes, unsigned Bits, unsigned Shift,
                                   int64_t UnpadBytes) {
  SharedLayout L;
  L.K = Swizzle;
  L.UnitBytes = UnitBytes;
  L.Bits = Bits;
  L.Shift = Shift;
  L.UnpadBytes = UnpadBytes;
  return L;
}

int64_t SharedLayout::rowPeriod() const {
  return K == Pad ? 1 : int64_t(1) << (Shift + Bits);
}

int64_t SharedLayout::extraBytes(const ArrayShape &S) const {
  return K == Pad ? S.rows() * PadBytes : -S.rows() * UnpadBytes;
}

std::string SharedLayout::key() const {
  if (K == Pad)
    return "pad" + std::to_string(PadBytes);
  return "swz" + std::to_string(UnitBytes) + ":" + std::to_string(Bits) + ":" +
         std::to_string(Shift) + (UnpadBytes ? "-" + std::to_string(UnpadBytes) : "");
}

std::vector<SharedLayout> layoutCandidates(const ArrayShape &S, unsigned MaxWidth,
                                           bool Unpad) {
  std::vector<SharedLayout> Out;
  const int64_t R = S.rowBytes();
  if (S.Dims.size() < 2 || S.ElemSize <= 0 || R <= 0 || S.rows() < 2)
    return Out;
  // Paddings that keep every access aligned: a multiple of the element and
  // of the widest access, below the banks' period.
  const int64_t Quantum = std::max<int64_t>(S.ElemSize, MaxWidth);
  if (Quantum > 0 && Quantum % S.ElemSize == 0)
    for (int64_t K = 1; K <= 16 && K * Quantum < BankPeriodBytes; ++K)
      Out.push_back(SharedLayout::pad(K * Quantum));
  // Swizzles of whole units, each no narrower than any access, the XOR
  // inside the row and inside one period of the banks.
  auto Swizzles = [&](int64_t Row, int64_t Unpadded) {
    for (unsigned U : {4u, 8u, 16u, 32u}) {
      if (int64_t(U) < S.ElemSize || U < MaxWidth || Row % U != 0 || U % S.ElemSize != 0)
        continue;
      const int64_t Units = Row / U;
      for (unsigned B = 1; B <= 5; ++B) {
        const int64_t Span = int64_t(1) << B;
        if (Span > Units || Units % Span != 0 || Span * U > BankPeriodBytes)
          break;
        for (unsigned Sh = 0; Sh <= 3; ++Sh)
          if ((int64_t(1) << (Sh + 1)) <= S.rows())
            Out.push_back(SharedLayout::swizzle(U, B, Sh, Unpadded));
      }
    }
  };
  Swizzles(R, 0);
  // A row padded by hand (2^k + p elements): the swizzles of rows of 2^k.
  const int64_t N = S.Dims.back(), P = int64_t(1) << floorLog2(N);
  if (Unpad && N != P && P >= 2 && (N - P) * 4 <= P)
    Swizzles(P * S.ElemSize, (N - P) * S.ElemSize);
  return Out;
}

std::optional<Poly> remapOffset(const Poly &Offset, unsigned Width, LaneMask Active,
                                const ArrayShape &S, const SharedLayout &L,
                                std::string *Why) {
  auto Fail = [&](const char *Text) -> std::optional<Poly> {
    if (Why)
      *Why = Text;
    return std::nullopt;
  };
  const int64_t R = S.rowBytes();
  if (R <= 0 || Active == 0 || Offset.overflowed())
    return Fail("the array has no rows");
  if (L.K == SharedLayout::Swizzle && L.UnpadBytes)
    return Fail("the access is not a full subscript");
  if (!Offset.hasUniformSymbolicPart(Active))
    return Fail("its lanes are spread by an amount that is not known");
  // The uniform part must move the lanes by whole periods of the layout.
  const int64_t G = Offset.symbolicGcd(Active);
  if (G != 0 && G % (R * L.rowPeriod()) != 0)
    return Fail(L.K == SharedLayout::Pad
                    ? "its address moves by an amount that is not a whole number of rows"
                    : "its address moves by an amount that is not a whole number of the "
                      "swizzle's period of rows");
  const unsigned F = firstLane(Active);
  const LaneInts C = Offset.laneConstants();
  LaneInts Out = C;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!laneActive(Active, Lane))
      continue;
    const int64_t Row = floorDiv(C[Lane], R), Col = floorMod(C[Lane], R);
    if (Col + int64_t(Width) > R)
      return Fail("an access crosses the end of a row");
    if (L.K == SharedLayout::Pad) {
      Out[Lane] = Row * (R + L.PadBytes) + Col;
      continue;
    }
    const int64_t U = L.UnitBytes, Unit = Col / U, Within = Col % U;
    if (Within + int64_t(Width) > U)
      return Fail("an access spans two of the swizzle's units");
    const int64_t Mask = (int64_t(1) << L.Bits) - 1;
    const int64_t Moved = Unit ^ (floorDiv(Row, int64_t(1) << L.Shift) & Mask);
    Out[Lane] = Row * R + Moved * U + Within;
  }
  Poly Sym = Offset.symbolicPart(F);
  if (L.K == SharedLayout::Pad && G != 0)
    Sym = Sym.dividedExactly(R).scaled(R + L.PadBytes);
  return Sym + Poly::lanes(Out);
}

std::optional<Poly> remapSubscripts(const std::vector<Poly> &Subs, const Poly &Offset,
                                    unsigned Width, LaneMask Active, const ArrayShape &S,
                                    const SharedLayout &L, std::string *Why) {
  auto Fail = [&](const char *Text) -> std::optional<Poly> {
    if (Why)
      *Why = Text;
    return std::nullopt;
  };
  const size_t N = S.Dims.size();
  if (Subs.size() != N || N < 2 || Active == 0)
    return Fail("the access is not a full subscript");
  // Strides of the declared layout, and the flattened row.
  std::vector<int64_t> Stride(N, S.ElemSize);
  for (size_t D = N - 1; D-- > 0;)
    Stride[D] = S.Dims[D + 1] * Stride[D + 1];
  Poly Element, Row;
  int64_t RowStride = 1;
  for (size_t D = N; D-- > 0;) {
    Element = Element + Subs[D].scaled(Stride[D]);
    if (D + 1 < N) {
      Row = Row + Subs[D].scaled(RowStride);
      RowStride *= S.Dims[D];
    }
  }
  const Poly Inside = Offset - Element; // a field, a chunk
  if (Element.overflowed() || Inside.overflowed() || !Inside.isConcrete(Active))
    return Fail("the access's offset inside its element is not a constant");
  if (L.K == SharedLayout::Pad) {
    std::vector<int64_t> New(N, S.ElemSize);
    New[N - 2] = S.rowBytes() + L.PadBytes;
    for (size_t D = N - 2; D-- > 0;)
      New[D] = S.Dims[D + 1] * New[D + 1];
    Poly Out = Inside;
    for (size_t D = 0; D < N; ++D)
      Out = Out + Subs[D].scaled(New[D]);
    if (Out.overflowed())
      return Fail("the padded offset overflows");
    return Out;
  }
  const Poly Col = Subs[N - 1].scaled(S.ElemSize) + Inside;
  if (!Row.hasUniformSymbolicPart(Active) || !Col.hasUniformSymbolicPart(Active))
    return Fail("its lanes are spread by an amount that is not known");
  // Rows shortened by UnpadBytes: the element moves to the new strides, and
  // must lie within the new row.
  Poly Base = Offset;
  const int64_t RowBytes = S.rowBytes() - L.UnpadBytes;
  if (L.UnpadBytes) {
    if (Col.symbolicGcd(Active) != 0)
      return Fail("its column moves by an amount that is not known");
    const LaneInts CC = Col.laneConstants();
    for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
      if (laneActive(Active, Lane) && (CC[Lane] < 0 || CC[Lane] + int64_t(Width) > RowBytes))
        return Fail("an access reaches the padding the layout removes");
    std::vector<int64_t> New(N, S.ElemSize);
    New[N - 2] = RowBytes;
    for (size_t D = N - 2; D-- > 0;)
      New[D] = S.Dims[D + 1] * New[D + 1];
    Base = Inside;
    for (size_t D = 0; D < N; ++D)
      Base = Base + Subs[D].scaled(New[D]);
    if (Base.overflowed())
      return Fail("the offset overflows");
  }
  const int64_t U = L.UnitBytes, Span = int64_t(1) << L.Bits;
  const int64_t GR = Row.symbolicGcd(Active), GC = Col.symbolicGcd(Active);
  if (GR != 0 && GR % L.rowPeriod() != 0)
    return Fail("its row moves by an amount that is not a whole number of the swizzle's "
                "period of rows");
  if (GC != 0 && GC % (U * Span) != 0)
    return Fail("its column moves by an amount that is not a whole number of the swizzle's "
                "units");
  const LaneInts RC = Row.laneConstants(), CC = Col.laneConstants();
  LaneInts Delta{};
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!laneActive(Active, Lane))
      continue;
    const int64_t Unit = floorDiv(CC[Lane], U), Within = floorMod(CC[Lane], U);
    if (Within + int64_t(Width) > U)
      return Fail("an access spans two of the swizzle's units");
    const int64_t Low = floorMod(Unit, Span);
    const int64_t Moved = Low ^ floorMod(floorDiv(RC[Lane], int64_t(1) << L.Shift), Span);
    Delta[Lane] = (Moved - Low) * U;
  }
  return Base + Poly::lanes(Delta);
}

std::optional<CuteSwizzle> cuteSwizzle(const ArrayShape &S, const SharedLayout &L) {
  if (L.K != SharedLayout::Swizzle || S.Dims.empty() || S.ElemSize <= 0 ||
      !powerOfTwo(S.Dims.back() - L.UnpadBytes / S.ElemSize) || !powerOfTwo(S.ElemSize) ||
      L.UnitBytes % S.ElemSize != 0)
    return std::nullopt;
  CuteSwizzle Z;
  Z.B = L.Bits;
  Z.M = floorLog2(L.UnitBytes / S.ElemSize);
  const unsigned RowBits = floorLog2(S.Dims.back() - L.UnpadBytes / S.ElemSize);
  if (RowBits + L.Shift < Z.M + Z.B)
    return std::nullopt;
  Z.S = RowBits + L.Shift - Z.M;
  return Z;
}

} // namespace coalesce
