//===- HostValue.cpp - Values of the host-code evaluator -------------------===//

#include "launch/HostValue.h"

#include <cmath>

using namespace clang;

namespace coalesce {
namespace host {

namespace {

constexpr Wide One = 1;

/// Sym op constant, when the result is again an affine form of the symbol.
HVal symArith(BinaryOperatorKind Op, const HVal &S, Wide C, bool SymOnLeft,
              const IntType &T, WhyId Fallback) {
  HVal R = S;
  const WhyId Why = S.Why ? S.Why : Fallback;
  // Coefficients and bounds stay far inside __int128 (values are 64-bit).
  const Wide Limit = One << 100;
  if (C > Limit || C < -Limit)
    return HVal::unknown(Why);
  bool Over = false;
  switch (Op) {
  case BO_Add:
    Over = __builtin_add_overflow(S.I, C, &R.I) || __builtin_add_overflow(S.Lo, C, &R.Lo) ||
           __builtin_add_overflow(S.Hi, C, &R.Hi);
    break;
  case BO_Sub:
    if (SymOnLeft) {
      Over = __builtin_sub_overflow(S.I, C, &R.I) ||
             __builtin_sub_overflow(S.Lo, C, &R.Lo) ||
             __builtin_sub_overflow(S.Hi, C, &R.Hi);
    } else { // C - S
      R.Mul = -S.Mul;
      Over = __builtin_sub_overflow(C, S.I, &R.I) || __builtin_sub_overflow(C, S.Hi, &R.Lo) ||
             __builtin_sub_overflow(C, S.Lo, &R.Hi);
    }
    break;
  case BO_Mul: {
    if (C == 0)
      return HVal::integer(0);
    Wide A = 0, B = 0;
    Over = __builtin_mul_overflow(S.Mul, C, &R.Mul) || __builtin_mul_overflow(S.I, C, &R.I) ||
           __builtin_mul_overflow(S.Lo, C, &A) || __builtin_mul_overflow(S.Hi, C, &B);
    R.Lo = C > 0 ? A : B;
    R.Hi = C > 0 ? B : A;
    break;
  }
  default:
    return HVal::unknown(Why);
  }
  if (Over || R.Mul > Limit || R.Mul < -Limit || R.I > Limit || R.I < -Limit)
    return HVal::unknown(Why);
  R.Lo = std::max(R.Lo, T.min());
  R.Hi = std::min(R.Hi, T.max());
  if (R.Lo > R.Hi)
    return HVal::unknown(S.Why ? S.Why : Fallback);
  return R;
}

bool sameLoc(const Loc &A, const Loc &B) { return A == B; }

} // namespace

Wide IntType::min() const {
  if (Bool || !Signed)
    return 0;
  return -(One << (Width - 1));
}

Wide IntType::max() const {
  if (Bool)
    return 1;
  return Signed ? (One << (Width - 1)) - 1 : (One << Width) - 1;
}

Wide IntType::wrap(Wide V) const {
  if (Bool)
    return V != 0;
  if (Width >= 128)
    return V;
  const Wide Mod = One << Width;
  Wide R = V % Mod;
  if (R < 0)
    R += Mod;
  if (Signed && R > max())
    R -= Mod;
  return R;
}

bool HVal::operator==(const HVal &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Unknown:
    return true; // unknowns are all alike for joins
  case Int:
    return I == O.I;
  case Float:
    return F == O.F || (std::isnan(F) && std::isnan(O.F));
  case Sym:
    return S == O.S && Mul == O.Mul && I == O.I && Lo == O.Lo && Hi == O.Hi;
  case Ptr:
    return I == O.I;
  case Addr:
    return sameLoc(A, O.A);
  case Agg:
    return Elems == O.Elems;
  case Func:
    return Decl == O.Decl;
  case Lambda:
    return Decl == O.Decl && Elems == O.Elems && Refs == O.Refs;
  }
  return false;
}

HVal resolve(const HVal &V, const Bindings &B) {
  if (V.K == HVal::Sym) {
    auto It = B.find(V.S);
    if (It == B.end())
      return V;
    Wide X = V.Mul * It->second + V.I;
    if (X < V.Lo || X > V.Hi)
      return HVal::unknown(V.Why);
    return HVal::integer(X);
  }
  if ((V.K == HVal::Agg || V.K == HVal::Lambda) && !B.empty()) {
    HVal R = V;
    for (HVal &E : R.Elems)
      E = resolve(E, B);
    return R;
  }
  return V;
}

HVal toInt(const HVal &V, const IntType &T) {
  switch (V.K) {
  case HVal::Int:
    return HVal::integer(T.wrap(V.I));
  case HVal::Sym: {
    if (T.Bool)
      return HVal::unknown(V.Why);
    HVal R = V;
    R.Lo = std::max(R.Lo, T.min());
    R.Hi = std::min(R.Hi, T.max());
    if (R.Lo > R.Hi)
      return HVal::unknown(V.Why);
    return R;
  }
  case HVal::Float: {
    if (T.Bool)
      return HVal::integer(V.F != 0);
    if (std::isnan(V.F))
      return HVal::unknown();
    double X = std::trunc(V.F);
    if (X < static_cast<double>(T.min()) || X > static_cast<double>(T.max()))
      return HVal::unknown();
    return HVal::integer(static_cast<Wide>(X));
  }
  case HVal::Addr:
  case HVal::Func:
    if (T.Bool)
      return HVal::integer(1); // the address of an object is never null
    return HVal::unknown(V.Why);
  default:
    return HVal::unknown(V.Why);
  }
}

HVal toFloat(const HVal &V, bool Single) {
  double X;
  if (V.K == HVal::Int)
    X = static_cast<double>(V.I);
  else if (V.K == HVal::Float)
    X = V.F;
  else
    return HVal::unknown(V.Why);
  if (Single)
    X = static_cast<double>(static_cast<float>(X));
  return HVal::floating(X);
}

HVal intBinary(BinaryOperatorKind Op, const HVal &L, const HVal &R, const IntType &T,
               const IntType &Result, WhyId Fallback) {
  auto Why = [&] {
    if (L.K != HVal::Int && L.Why)
      return L.Why;
    if (R.K != HVal::Int && R.Why)
      return R.Why;
    return Fallback;
  };
  if (L.K == HVal::Sym && R.K == HVal::Int)
    return symArith(Op, L, R.I, true, T, Why());
  if (L.K == HVal::Int && R.K == HVal::Sym)
    return Op == BO_Sub ? symArith(Op, R, L.I, false, T, Why())
                        : symArith(Op, R, L.I, true, T, Why());
  if (L.K != HVal::Int || R.K != HVal::Int) {
    // a && b, a || b decided by one side.
    if (Op == BO_LAnd && ((L.K == HVal::Int && !L.I) || (R.K == HVal::Int && !R.I)))
      return HVal::integer(0);
    if (Op == BO_LOr && ((L.K == HVal::Int && L.I) || (R.K == HVal::Int && R.I)))
      return HVal::integer(1);
    if (Op == BO_Mul && ((L.K == HVal::Int && !L.I) || (R.K == HVal::Int && !R.I)))
      return HVal::integer(0);
    return HVal::unknown(Why());
  }
  const Wide A = L.I, B = R.I;
  Wide X = 0;
  bool Compare = false;
  switch (Op) {
  case BO_Add:
  case BO_Sub:
  case BO_Mul:
    if (Op == BO_Add ? __builtin_add_overflow(A, B, &X)
        : Op == BO_Sub ? __builtin_sub_overflow(A, B, &X)
                       : __builtin_mul_overflow(A, B, &X))
      return HVal::unknown(Fallback);
    break;
  case BO_Div:
    if (B == 0)
      return HVal::unknown(Fallback);
    X = A / B;
    break;
  case BO_Rem:
    if (B == 0)
      return HVal::unknown(Fallback);
    X = A % B;
    break;
  case BO_Shl:
    if (B < 0 || B >= T.Width || (T.Signed && A < 0))
      return HVal::unknown(Fallback);
    X = A << static_cast<int>(B);
    break;
  case BO_Shr:
    if (B < 0 || B >= T.Width)
      return HVal::unknown(Fallback);
    X = A >> static_cast<int>(B);
    break;
  case BO_And: X = A & B; break;
  case BO_Or: X = A | B; break;
  case BO_Xor: X = A ^ B; break;
  case BO_LT: X = A < B; Compare = true; break;
  case BO_GT: X = A > B; Compare = true; break;
  case BO_LE: X = A <= B; Compare = true; break;
  case BO_GE: X = A >= B; Compare = true; break;
  case BO_EQ: X = A == B; Compare = true; break;
  case BO_NE: X = A != B; Compare = true; break;
  case BO_LAnd: X = A && B; Compare = true; break;
  case BO_LOr: X = A || B; Compare = true; break;
  default:
    return HVal::unknown(Fallback);
  }
  if (Compare)
    return HVal::integer(Result.wrap(X));
  if (T.Signed && !T.Bool && !T.fits(X))
    return HVal::unknown(Fallback); // signed overflow: undefined
  return HVal::integer(T.wrap(X));
}

HVal floatBinary(BinaryOperatorKind Op, const HVal &L, const HVal &R, bool Single,
                 WhyId Fallback) {
  if (L.K != HVal::Float || R.K != HVal::Float)
    return HVal::unknown(L.K != HVal::Float && L.Why ? L.Why
                         : R.Why                     ? R.Why
                                                     : Fallback);
  const double A = L.F, B = R.F;
  auto Round = [&](double X) {
    return HVal::floating(Single ? static_cast<double>(static_cast<float>(X)) : X);
  };
  switch (Op) {
  case BO_Add: return Round(A + B);
  case BO_Sub: return Round(A - B);
  case BO_Mul: return Round(A * B);
  case BO_Div: return Round(A / B);
  case BO_LT: return HVal::integer(A < B);
  case BO_GT: return HVal::integer(A > B);
  case BO_LE: return HVal::integer(A <= B);
  case BO_GE: return HVal::integer(A >= B);
  case BO_EQ: return HVal::integer(A == B);
  case BO_NE: return HVal::integer(A != B);
  case BO_LAnd: return HVal::integer(A && B);
  case BO_LOr: return HVal::integer(A || B);
  default: return HVal::unknown(Fallback);
  }
}

HVal join(const HVal &A, const HVal &B, WhyId Why) {
  if (A == B)
    return A.K == HVal::Unknown && !A.Why ? B : A;
  if (A.K == HVal::Agg && B.K == HVal::Agg && A.Elems.size() == B.Elems.size()) {
    HVal R = A;
    for (size_t I = 0; I < R.Elems.size(); ++I)
      R.Elems[I] = join(A.Elems[I], B.Elems[I], Why);
    return R;
  }
  return HVal::unknown(Why);
}

std::optional<std::pair<SymId, Wide>> solveEquals(const HVal &V, Wide C) {
  if (V.K != HVal::Sym || C < V.Lo || C > V.Hi || V.Mul == 0)
    return std::nullopt;
  const Wide D = C - V.I;
  if (D % V.Mul != 0)
    return std::nullopt;
  return std::make_pair(V.S, D / V.Mul);
}

} // namespace host
} // namespace coalesce
