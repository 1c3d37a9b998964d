//===- IntOps.cpp - Division, remainder, bit operations and comparisons ---===//

#include "model/IntOps.h"

#include <cctype>
#include <algorithm>
#include <ostream>

namespace coalesce {

namespace {

bool isPow2(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

unsigned log2Exact(int64_t V) {
  return static_cast<unsigned>(__builtin_ctzll(static_cast<uint64_t>(V)));
}

/// Number of bits needed for a non-negative value (m < 2^bits).
unsigned bitWidth(int64_t M) {
  unsigned B = 0;
  while (B < 63 && (int64_t(1) << B) <= M)
    ++B;
  return B;
}

/// Applies F to every active lane of a concrete value.
template <class Fn> Poly perLane(const Poly &A, LaneMask Active, Fn F) {
  LaneInts C = A.laneConstants(), R{};
  for (unsigned L = 0; L < WarpSize; ++L)
    R[L] = laneActive(Active, L) ? F(C[L], L) : 0;
  return Poly::lanes(R);
}

template <class Fn>
Poly perLane2(const Poly &A, const Poly &B, LaneMask Active, Fn F) {
  LaneInts CA = A.laneConstants(), CB = B.laneConstants(), R{};
  for (unsigned L = 0; L < WarpSize; ++L)
    R[L] = laneActive(Active, L) ? F(CA[L], CB[L]) : 0;
  return Poly::lanes(R);
}

/// The split A = S + k*H + e(lane) with S a multiple of H, 0 <= e < H, and
/// the same k on every active lane.
struct Window {
  bool Ok = false;
  Poly Base;   // S + k*H, warp-uniform, a multiple of H
  LaneInts E{}; // e(lane)
};

Window windowSplit(const Poly &A, int64_t H, LaneMask Active) {
  Window W;
  if (!A.hasUniformSymbolicPart(Active) || H <= 0)
    return W;
  unsigned F = firstLane(Active);
  if (F == WarpSize)
    return W;
  LaneInts C = A.laneConstants();
  int64_t K = floorDiv(C[F], H);
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    if (floorDiv(C[L], H) != K)
      return W;
    W.E[L] = floorMod(C[L], H); // C - K*H, which could overflow on the way
  }
  int64_t KH;
  if (__builtin_mul_overflow(K, H, &KH))
    return W;
  W.Ok = true;
  W.Base = A.symbolicPart(F) + Poly::constant(KH);
  return W;
}

SymbolId derived(SymbolTable &Syms, const std::string &Key,
                 const std::string &Name) {
  SymbolInfo Info;
  Info.Name = Name;
  Info.Kind = SymbolKind::Derived;
  return Syms.intern(Key, Info);
}

/// Q = floor(Base / C): when Base is A * P + B with P a kernel parameter
/// (or a quotient of one), 0 < A <= C and the smallest value of Base not
/// negative, Q takes every integer from floor(that value / C) on
/// (SymbolInfo::QuotientOf).
void markQuotientOfParameter(SymbolTable &Syms, SymbolId Q, const Poly &Base, int64_t C) {
  const std::vector<SymbolId> Ids = Base.symbols();
  if (Ids.size() != 1 || Ids[0] == Q || Base.overflowed())
    return;
  const SymbolInfo &P = Syms.get(Ids[0]);
  if (!isFreeSize(P))
    return;
  int64_t A = 0, B = 0;
  for (const Poly::Term &T : Base.terms()) {
    const LaneInts &K = T.C;
    for (unsigned L = 1; L < WarpSize; ++L)
      if (K[L] != K[0])
        return;
    if (T.M.isConstant())
      B = K[0];
    else if (T.M.Syms.size() == 1)
      A = K[0];
    else
      return; // P * P
  }
  int64_t Lowest;
  if (A <= 0 || A > C || __builtin_mul_overflow(A, P.Min, &Lowest) ||
      __builtin_add_overflow(Lowest, B, &Lowest) || Lowest < 0)
    return;
  SymbolInfo &I = Syms.get(Q);
  I.QuotientOf = P.QuotientOf ? *P.QuotientOf : Ids[0];
  I.Min = Lowest / C;
}

std::string paren(const Poly &P, const SymbolTable &Syms) {
  // A name alone (`nb`, `p.cols`) needs no parentheses: `nb/16`.
  const std::string S = P.str(Syms, 0);
  const bool Name = !S.empty() && (std::isalpha((unsigned char)S[0]) || S[0] == '_') &&
                    std::all_of(S.begin(), S.end(), [](char Ch) {
                      return std::isalnum((unsigned char)Ch) || Ch == '_' || Ch == '.';
                    });
  return Name ? S : "(" + S + ")";
}

/// The smallest and largest value of a warp-uniform P whose every symbol
/// takes values in a known range (SymbolInfo::UniformRange), none when a
/// symbol's range is not known or a product of symbols appears.
std::optional<std::pair<int64_t, int64_t>> rangeOf(const Poly &P, const SymbolTable &Syms) {
  if (P.overflowed())
    return std::nullopt;
  int64_t Lo = 0, Hi = 0;
  bool Any = false;
  for (const Poly::Term &T : P.terms()) {
    const int64_t K = T.C[0];
    for (unsigned L = 1; L < WarpSize; ++L)
      if (T.C[L] != K)
        return std::nullopt;
    int64_t A = K, B = K;
    if (!T.M.isConstant()) {
      if (T.M.Syms.size() != 1)
        return std::nullopt;
      const SymbolInfo &I = Syms.get(T.M.Syms[0]);
      if (I.UniformRange <= 0)
        return std::nullopt;
      int64_t Last;
      if (__builtin_add_overflow(I.RangeStart, I.UniformRange - 1, &Last) ||
          __builtin_mul_overflow(K, I.RangeStart, &A) || __builtin_mul_overflow(K, Last, &B))
        return std::nullopt;
      if (A > B)
        std::swap(A, B);
      Any = true;
    }
    if (__builtin_add_overflow(Lo, A, &Lo) || __builtin_add_overflow(Hi, B, &Hi))
      return std::nullopt;
  }
  if (!Any)
    return std::nullopt;
  return std::make_pair(Lo, Hi);
}

/// Floor division (Floor=true) or the matching remainder of A by C > 0.
IntResult divRemFloor(const Poly &A, int64_t C, bool Rem, LaneMask Active,
                      SymbolTable &Syms) {
  if (A.isConcrete(Active))
    return IntResult::ok(perLane(A, Active, [&](int64_t V, unsigned) {
      return Rem ? floorMod(V, C) : floorDiv(V, C);
    }));
  if (!A.hasUniformSymbolicPart(Active))
    return IntResult::fail(IntFail::DivisionNotPreserved);
  const int64_t G = A.symbolicGcd(Active);
  const int64_t H = gcd64(G, C);
  const unsigned F = firstLane(Active);
  if (H == C) {
    if (Rem)
      return IntResult::ok(perLane(A, Active, [&](int64_t V, unsigned) {
        return floorMod(V, C);
      }));
    LaneInts Cst = A.laneConstants(), Q{};
    for (unsigned L = 0; L < WarpSize; ++L)
      Q[L] = floorDiv(Cst[L], C);
    return IntResult::ok(A.symbolicPart(F).dividedExactly(C) + Poly::lanes(Q));
  }
  Window W = windowSplit(A, H, Active);
  if (!W.Ok)
    return IntResult::fail(IntFail::IndexArithmetic,
                           {std::to_string(C), paren(A.symbolicPart(F), Syms)});
  // Symbols whose values lie in a known range (a warp of the warps walked
  // as one, the iteration of a loop of known trip count, a block of a
  // known grid) may keep Base within one multiple of C: then the quotient
  // is that multiple (`(32 * w + lane) / 256` over warps 0-7 is 0, `w % 8`
  // is w), as it is for every value they take.
  if (std::optional<std::pair<int64_t, int64_t>> Rg = rangeOf(W.Base, Syms)) {
    const int64_t Q = floorDiv(Rg->first, C);
    int64_t QC;
    // (Not negative: C's division truncates, this one floors.)
    if (Rg->first >= 0 && Q == floorDiv(Rg->second, C) && !__builtin_mul_overflow(Q, C, &QC)) {
      if (!Rem)
        return IntResult::ok(Poly::constant(Q));
      Poly P = W.Base - Poly::constant(QC) + Poly::lanes(W.E);
      if (!P.overflowed())
        return IntResult::ok(std::move(P));
    }
  }
  if (!Rem) {
    SymbolId Q = derived(Syms, "div:" + W.Base.key() + "/" + std::to_string(C),
                         paren(W.Base, Syms) + "/" + std::to_string(C));
    markQuotientOfParameter(Syms, Q, W.Base, C);
    return IntResult::ok(Poly::symbol(Q));
  }
  SymbolId R = derived(Syms, "rem:" + W.Base.key() + "%" + std::to_string(C),
                       "(" + paren(W.Base, Syms) + "%" + std::to_string(C) +
                           ")/" + std::to_string(H));
  return IntResult::ok(Poly::symbol(R, H) + Poly::lanes(W.E));
}

} // namespace

IntResult divConst(const Poly &A, int64_t C, LaneMask Active,
                   SymbolTable &Syms) {
  if (C == 0)
    return IntResult::fail(IntFail::DivisionByZero);
  if (C == INT64_MIN)
    return IntResult::fail(IntFail::DivisionByMinimum);
  if (C == -1)
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L) && A.isConcrete(Active) && A.laneConstants()[L] == INT64_MIN)
        return IntResult::fail(IntFail::DivisionOverflow);
  if (A.isConcrete(Active))
    return IntResult::ok(
        perLane(A, Active, [&](int64_t V, unsigned) { return V / C; }));
  if (C < 0) {
    IntResult R = divConst(A, -C, Active, Syms);
    if (R.Ok)
      R.P = -R.P;
    return R;
  }
  if (C == 1)
    return IntResult::ok(A);
  return divRemFloor(A, C, /*Rem=*/false, Active, Syms);
}

IntResult remConst(const Poly &A, int64_t C, LaneMask Active,
                   SymbolTable &Syms) {
  if (C == 0)
    return IntResult::fail(IntFail::RemainderByZero);
  if (C == 1 || C == -1) // (and -2^63 % -1 would trap)
    return IntResult::ok(Poly());
  if (A.isConcrete(Active))
    return IntResult::ok(
        perLane(A, Active, [&](int64_t V, unsigned) { return V % C; }));
  if (C == INT64_MIN)
    return IntResult::fail(IntFail::RemainderByMinimum);
  if (C < 0)
    C = -C;
  return divRemFloor(A, C, /*Rem=*/true, Active, Syms);
}

static bool uniformConstant(const Poly &B, LaneMask Active, int64_t &Out) {
  if (!B.isConcrete(Active) || !B.isUniform(Active))
    return false;
  unsigned F = firstLane(Active);
  Out = F == WarpSize ? 0 : B.laneConstants()[F];
  return true;
}

static IntResult uniformOpaque(const char *Op, const Poly &A, const Poly &B,
                               LaneMask Active, SymbolTable &Syms) {
  if (A.isUniform(Active) && B.isUniform(Active)) {
    unsigned F = firstLane(Active);
    Poly UA = A.atLane(F == WarpSize ? 0 : F), UB = B.atLane(F == WarpSize ? 0 : F);
    SymbolId S = derived(Syms, std::string(Op) + ":" + UA.key() + ":" + UB.key(),
                         paren(UA, Syms) + Op + paren(UB, Syms));
    return IntResult::ok(Poly::symbol(S));
  }
  return IntResult::fail(IntFail::UniformPartsUnknown, {Op});
}

IntResult divPoly(const Poly &A, const Poly &B, LaneMask Active,
                  SymbolTable &Syms) {
  int64_t C;
  if (uniformConstant(B, Active, C))
    return divConst(A, C, Active, Syms);
  if (A.isConcrete(Active) && B.isConcrete(Active)) {
    LaneInts CA = A.laneConstants(), CB = B.laneConstants();
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (laneActive(Active, L) && CB[L] == 0)
        return IntResult::fail(IntFail::DivisionByZero);
      if (laneActive(Active, L) && CB[L] == -1 && CA[L] == INT64_MIN)
        return IntResult::fail(IntFail::DivisionOverflowPerLane);
    }
    return IntResult::ok(
        perLane2(A, B, Active, [](int64_t X, int64_t Y) { return X / Y; }));
  }
  return uniformOpaque("/", A, B, Active, Syms);
}

IntResult remPoly(const Poly &A, const Poly &B, LaneMask Active,
                  SymbolTable &Syms) {
  int64_t C;
  if (uniformConstant(B, Active, C))
    return remConst(A, C, Active, Syms);
  if (A.isConcrete(Active) && B.isConcrete(Active)) {
    LaneInts CA = A.laneConstants(), CB = B.laneConstants();
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (laneActive(Active, L) && CB[L] == 0)
        return IntResult::fail(IntFail::RemainderByZero);
      if (laneActive(Active, L) && CB[L] == -1 && CA[L] == INT64_MIN)
        return IntResult::fail(IntFail::RemainderOverflow);
    }
    return IntResult::ok(
        perLane2(A, B, Active, [](int64_t X, int64_t Y) { return X % Y; }));
  }
  return uniformOpaque("%", A, B, Active, Syms);
}

IntResult shlPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms) {
  if (!B.isConcrete(Active)) {
    if (A.isUniform(Active) && B.isUniform(Active))
      return uniformOpaque("<<", A, B, Active, Syms);
    return IntResult::fail(IntFail::ShiftUnknown);
  }
  LaneInts K = B.laneConstants(), Pow{};
  for (unsigned L = 0; L < WarpSize; ++L) {
    int64_t S = laneActive(Active, L) ? K[L] : 0;
    if (S < 0 || S > 62)
      return IntResult::fail(IntFail::ShiftOutOfRange);
    Pow[L] = int64_t(1) << S;
  }
  return IntResult::ok(A * Poly::lanes(Pow));
}

IntResult shrPoly(const Poly &A, const Poly &B, LaneMask Active,
                  SymbolTable &Syms) {
  int64_t K;
  if (uniformConstant(B, Active, K)) {
    if (K < 0 || K > 62)
      return IntResult::fail(IntFail::ShiftOutOfRange);
    return divRemFloor(A, int64_t(1) << K, /*Rem=*/false, Active, Syms);
  }
  if (A.isConcrete(Active) && B.isConcrete(Active))
    return IntResult::ok(perLane2(A, B, Active, [](int64_t X, int64_t Y) {
      return (Y < 0 || Y > 62) ? 0 : (X >> Y);
    }));
  if (A.isUniform(Active) && B.isUniform(Active))
    return uniformOpaque(">>", A, B, Active, Syms);
  return IntResult::fail(IntFail::ShiftNotPerLane);
}

/// A op M for a non-negative constant M, where A's unknown part is a multiple
/// of 2^bits(M) and its known part stays in one such window.
static IntResult bitopConst(const Poly &A, int64_t M, char Op, LaneMask Active,
                            SymbolTable &Syms) {
  if (Op == '&') {
    if (M == 0)
      return IntResult::ok(Poly());
    // (M + 1 and -M overflow for INT64_MAX and INT64_MIN: those masks
    // select the sign bit, which the windows below do not model.)
    if (M == INT64_MAX || M == INT64_MIN)
      return IntResult::fail(IntFail::MaskAtSignBit);
    if (isPow2(M + 1))
      return divRemFloor(A, M + 1, /*Rem=*/true, Active, Syms);
    if (M < 0 && isPow2(-M)) {
      IntResult R = divRemFloor(A, -M, /*Rem=*/true, Active, Syms);
      if (R.Ok)
        R.P = A - R.P;
      return R;
    }
  }
  if (M < 0)
    return IntResult::fail(IntFail::NegativeMask);
  // Find a power-of-two window H > M that divides the unknown part and holds
  // the known parts of all lanes: then the bits of M only see the known parts.
  const int64_t G = A.symbolicGcd(Active);
  unsigned J = G == 0 ? 40
                      : std::min(40u, static_cast<unsigned>(__builtin_ctzll(
                                          static_cast<uint64_t>(G < 0 ? -G : G))));
  Window W;
  for (unsigned Bits = bitWidth(M); J >= Bits; --J) {
    W = windowSplit(A, int64_t(1) << J, Active);
    if (W.Ok || J == 0)
      break;
  }
  if (!W.Ok || J < bitWidth(M))
    return IntResult::fail(IntFail::LowBitsUnknown, {std::string(1, Op)});
  LaneInts R{};
  for (unsigned L = 0; L < WarpSize; ++L)
    R[L] = Op == '&' ? (W.E[L] & M) : Op == '|' ? (W.E[L] | M) : (W.E[L] ^ M);
  if (Op == '&')
    return IntResult::ok(Poly::lanes(R));
  return IntResult::ok(W.Base + Poly::lanes(R));
}

static IntResult bitop(const Poly &A, const Poly &B, char Op, LaneMask Active,
                       SymbolTable &Syms) {
  if (A.isConcrete(Active) && B.isConcrete(Active))
    return IntResult::ok(perLane2(A, B, Active, [Op](int64_t X, int64_t Y) {
      return Op == '&' ? (X & Y) : Op == '|' ? (X | Y) : (X ^ Y);
    }));
  int64_t M;
  if (uniformConstant(B, Active, M))
    return bitopConst(A, M, Op, Active, Syms);
  if (uniformConstant(A, Active, M))
    return bitopConst(B, M, Op, Active, Syms);
  // Both have unknown parts: work on the largest power-of-two window that
  // holds both known parts.
  if (!A.hasUniformSymbolicPart(Active) || !B.hasUniformSymbolicPart(Active))
    return IntResult::fail(IntFail::BitOperandsUnknown, {std::string(1, Op)});
  auto TwoAdic = [](int64_t G) -> unsigned {
    return G == 0 ? 62 : static_cast<unsigned>(__builtin_ctzll(
                             static_cast<uint64_t>(G < 0 ? -G : G)));
  };
  unsigned J = std::min({TwoAdic(A.symbolicGcd(Active)),
                         TwoAdic(B.symbolicGcd(Active)), 40u});
  for (; J > 0; --J) {
    const int64_t H = int64_t(1) << J;
    Window WA = windowSplit(A, H, Active), WB = windowSplit(B, H, Active);
    if (!WA.Ok || !WB.Ok)
      continue;
    LaneInts Low{};
    for (unsigned L = 0; L < WarpSize; ++L)
      Low[L] = Op == '&'   ? (WA.E[L] & WB.E[L])
               : Op == '|' ? (WA.E[L] | WB.E[L])
                           : (WA.E[L] ^ WB.E[L]);
    if (Op == '^' && WB.Base == Poly())
      return IntResult::ok(WA.Base + Poly::lanes(Low));
    if (Op == '^' && WA.Base == Poly())
      return IntResult::ok(WB.Base + Poly::lanes(Low));
    std::string Key = std::string(1, Op) + "hi:" + WA.Base.key() + ":" +
                      WB.Base.key() + ":" + std::to_string(J);
    SymbolId Hi = derived(Syms, Key,
                          "(" + paren(WA.Base, Syms) + Op + paren(WB.Base, Syms) +
                              ")/" + std::to_string(H));
    return IntResult::ok(Poly::symbol(Hi, H) + Poly::lanes(Low));
  }
  return IntResult::fail(IntFail::BitOperandsLowBitsUnknown, {std::string(1, Op)});
}

IntResult andPoly(const Poly &A, const Poly &B, LaneMask Active,
                  SymbolTable &Syms) {
  return bitop(A, B, '&', Active, Syms);
}
IntResult orPoly(const Poly &A, const Poly &B, LaneMask Active,
                 SymbolTable &Syms) {
  return bitop(A, B, '|', Active, Syms);
}
IntResult xorPoly(const Poly &A, const Poly &B, LaneMask Active,
                  SymbolTable &Syms) {
  return bitop(A, B, '^', Active, Syms);
}

IntResult notPoly(const Poly &A, LaneMask) {
  return IntResult::ok(-A - Poly::constant(1));
}

IntResult mulHiPoly(const Poly &A, const Poly &B, unsigned Bits, bool Signed, LaneMask Active,
                    SymbolTable &Syms) {
  if (Bits != 32 && Bits != 64)
    return IntResult::fail(IntFail::HighProductWidth, {std::to_string(Bits)});
  auto Hi = [&](int64_t X, int64_t Y) -> int64_t {
    if (Bits == 32) {
      if (Signed)
        return (static_cast<int64_t>(static_cast<int32_t>(X)) * static_cast<int32_t>(Y)) >> 32;
      return static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(X)) *
                                   static_cast<uint32_t>(Y)) >> 32);
    }
    if (Signed)
      return static_cast<int64_t>((static_cast<__int128>(X) * Y) >> 64);
    return static_cast<int64_t>(
        (static_cast<unsigned __int128>(static_cast<uint64_t>(X)) * static_cast<uint64_t>(Y)) >> 64);
  };
  if (A.isConcrete(Active) && B.isConcrete(Active)) {
    const LaneInts Bv = B.laneConstants();
    return IntResult::ok(perLane(A, Active, [&](int64_t V, unsigned L) { return Hi(V, Bv[L]); }));
  }
  if (A.isUniform(Active) && B.isUniform(Active))
    return uniformOpaque(Signed ? (Bits == 32 ? "mulhi" : "mul64hi") : (Bits == 32 ? "umulhi" : "umul64hi"),
                         A, B, Active, Syms);
  return IntResult::fail(IntFail::HighProductUnknown);
}

IntResult minMaxPoly(const Poly &A, const Poly &B, bool IsMax, LaneMask Active,
                     SymbolTable &Syms) {
  CmpResult C = comparePoly(A, B, IsMax ? CmpOp::GE : CmpOp::LE, Active);
  if (C.K == CmpResult::Lanes)
    return IntResult::ok(A.select(C.True, B));
  return uniformOpaque(IsMax ? " max " : " min ", A, B, Active, Syms);
}

CmpOp swapCmp(CmpOp Op) {
  switch (Op) {
  case CmpOp::LT: return CmpOp::GT;
  case CmpOp::LE: return CmpOp::GE;
  case CmpOp::GT: return CmpOp::LT;
  case CmpOp::GE: return CmpOp::LE;
  default: return Op;
  }
}

CmpOp negateCmp(CmpOp Op) {
  switch (Op) {
  case CmpOp::LT: return CmpOp::GE;
  case CmpOp::LE: return CmpOp::GT;
  case CmpOp::GT: return CmpOp::LE;
  case CmpOp::GE: return CmpOp::LT;
  case CmpOp::EQ: return CmpOp::NE;
  case CmpOp::NE: return CmpOp::EQ;
  }
  return Op;
}

const char *cmpSpelling(CmpOp Op) {
  switch (Op) {
  case CmpOp::LT: return "<";
  case CmpOp::LE: return "<=";
  case CmpOp::GT: return ">";
  case CmpOp::GE: return ">=";
  case CmpOp::EQ: return "==";
  case CmpOp::NE: return "!=";
  }
  return "?";
}

static bool holds(__int128 D, CmpOp Op) {
  switch (Op) {
  case CmpOp::LT: return D < 0;
  case CmpOp::LE: return D <= 0;
  case CmpOp::GT: return D > 0;
  case CmpOp::GE: return D >= 0;
  case CmpOp::EQ: return D == 0;
  case CmpOp::NE: return D != 0;
  }
  return false;
}

CmpResult comparePoly(const Poly &L, const Poly &R, CmpOp Op, LaneMask Active) {
  CmpResult Res;
  const Poly D = L - R;
  if (D.overflowed())
    return Res;
  if (D.isConcrete(Active)) {
    Res.K = CmpResult::Lanes;
    LaneInts C = D.laneConstants();
    for (unsigned Ln = 0; Ln < WarpSize; ++Ln)
      if (laneActive(Active, Ln) && holds(C[Ln], Op))
        Res.True |= 1u << Ln;
    return Res;
  }
  if (D.isUniform(Active)) {
    Res.K = CmpResult::Uniform;
    Res.True = Active;
    return Res;
  }
  if (!D.hasUniformSymbolicPart(Active))
    return Res;
  // D = g*t + c(lane) with t an unknown integer: the outcome is the same on
  // every lane when the threshold on t is the same for every lane.
  const int64_t G = D.symbolicGcd(Active);
  const LaneInts C = D.laneConstants();
  if (Op == CmpOp::EQ || Op == CmpOp::NE) {
    LaneMask Candidates = 0;
    bool Same = true;
    int64_t T = 0;
    for (unsigned Ln = 0; Ln < WarpSize; ++Ln) {
      if (!laneActive(Active, Ln) || floorMod(C[Ln], G) != 0)
        continue;
      int64_t V = C[Ln] / G; // the lane is equal for t == -V (exact division)
      if (Candidates && V != T)
        Same = false;
      T = V;
      Candidates |= 1u << Ln;
    }
    if (!Candidates) {
      Res.K = CmpResult::Lanes;
      Res.True = Op == CmpOp::EQ ? 0 : Active;
      return Res;
    }
    if (!Same)
      return Res;
    // t == T: the candidate lanes are equal, the others are not; t != T:
    // no lane is equal.
    Res.K = CmpResult::Uniform;
    Res.True = Op == CmpOp::EQ ? Candidates : Active;
    Res.TrueOtherwise = Op == CmpOp::EQ ? 0 : (Active & ~Candidates);
    return Res;
  }
  // D < 0 <=> t <= floor((-c-1)/g);  D <= 0 <=> t <= floor(-c/g).
  const bool Strict = Op == CmpOp::LT || Op == CmpOp::GE;
  // (In 128 bits: -c overflows for c = INT64_MIN.)
  auto FloorDiv128 = [](__int128 A, __int128 D) {
    __int128 Q = A / D;
    if ((A % D != 0) && ((A < 0) != (D < 0)))
      --Q;
    return Q;
  };
  bool First = true;
  __int128 Key = 0;
  for (unsigned Ln = 0; Ln < WarpSize; ++Ln) {
    if (!laneActive(Active, Ln))
      continue;
    __int128 K = FloorDiv128(Strict ? -__int128(C[Ln]) - 1 : -__int128(C[Ln]), G);
    if (!First && K != Key)
      return Res;
    Key = K;
    First = false;
  }
  Res.K = CmpResult::Uniform;
  Res.True = Active;
  return Res;
}

namespace {

/// One lane's D(x) = C + sum G_i * x_i with x_i in [Lo_i, Hi_i].
struct LaneLinear {
  __int128 C = 0;
  struct Var {
    SymbolId S;
    __int128 G, Lo, Hi;
  };
  std::vector<Var> Vars;

  __int128 min() const {
    __int128 V = C;
    for (const Var &X : Vars)
      V += X.G > 0 ? X.G * X.Lo : X.G * X.Hi;
    return V;
  }
  __int128 max() const {
    __int128 V = C;
    for (const Var &X : Vars)
      V += X.G > 0 ? X.G * X.Hi : X.G * X.Lo;
    return V;
  }
};

/// Whether `D OP 0` has one outcome over the whole box, and which.
std::optional<bool> decidedOverBox(const LaneLinear &D, CmpOp Op) {
  const __int128 Min = D.min(), Max = D.max();
  if (Op == CmpOp::EQ || Op == CmpOp::NE) {
    bool Never = Min > 0 || Max < 0;
    if (!Never && D.Vars.size() == 1) {
      // G * x + C == 0 only at x = -C / G, if integral and in range.
      const LaneLinear::Var &X = D.Vars[0];
      Never = (-D.C) % X.G != 0 || (-D.C) / X.G < X.Lo || (-D.C) / X.G > X.Hi;
    }
    if (Never)
      return Op == CmpOp::NE;
    if (Min == 0 && Max == 0)
      return Op == CmpOp::EQ;
    return std::nullopt;
  }
  // D is monotone in each variable: the extremes decide.
  const bool AtMin = holds(Min, Op), AtMax = holds(Max, Op);
  if (AtMin == AtMax)
    return AtMin;
  return std::nullopt;
}

} // namespace

RangeCmp compareOverRanges(const Poly &L, const Poly &R, CmpOp Op,
                           LaneMask Active, const SymbolRange &RangeOf) {
  RangeCmp Res;
  const Poly D = L - R;
  if (D.overflowed())
    return Res;
  // Every non-constant term: one symbol, to the first power, with a range.
  std::vector<std::pair<SymbolId, std::pair<int64_t, int64_t>>> Ranges;
  for (const Poly::Term &T : D.terms()) {
    if (T.M.isConstant())
      continue;
    if (T.M.Syms.size() != 1)
      return Res;
    std::optional<std::pair<int64_t, int64_t>> Rg = RangeOf(T.M.Syms[0]);
    if (!Rg || Rg->first > Rg->second)
      return Res;
    Ranges.push_back({T.M.Syms[0], *Rg});
  }
  if (Ranges.empty())
    return Res; // nothing the ranges could decide: comparePoly's business
  bool Varies = false;
  for (unsigned Ln = 0; Ln < WarpSize; ++Ln) {
    if (!laneActive(Active, Ln))
      continue;
    LaneLinear LD;
    size_t I = 0;
    for (const Poly::Term &T : D.terms()) {
      if (T.M.isConstant()) {
        LD.C += T.C[Ln];
        continue;
      }
      const auto &Rg = Ranges[I++].second;
      if (T.C[Ln] != 0)
        LD.Vars.push_back({T.M.Syms[0], T.C[Ln], Rg.first, Rg.second});
    }
    std::optional<bool> Out = decidedOverBox(LD, Op);
    if (Out) {
      if (*Out)
        Res.True |= 1u << Ln;
      continue;
    }
    Varies = true;
    if (LD.Vars.size() == 1) {
      const LaneLinear::Var &X = LD.Vars[0];
      auto At = [&](__int128 V) { return holds(X.G * V + LD.C, Op); };
      if (Op == CmpOp::EQ || Op == CmpOp::NE) {
        const __int128 V = -LD.C / X.G; // integral and in range (else decided)
        if (V > X.Lo)
          Res.Cuts.push_back({X.S, static_cast<int64_t>(V)});
        if (V < X.Hi)
          Res.Cuts.push_back({X.S, static_cast<int64_t>(V + 1)});
        continue;
      }
      // Monotone: the first value whose outcome differs from the first's.
      const bool First = At(X.Lo);
      __int128 Lo = X.Lo, Hi = X.Hi; // At(Lo) == First, At(Hi) != First
      while (Hi - Lo > 1) {
        const __int128 Mid = Lo + (Hi - Lo) / 2;
        (At(Mid) == First ? Lo : Hi) = Mid;
      }
      Res.Cuts.push_back({X.S, static_cast<int64_t>(Hi)});
      continue;
    }
    // Several variables: halve the widest range.
    const LaneLinear::Var *Widest = nullptr;
    for (const LaneLinear::Var &X : LD.Vars)
      if (X.Hi > X.Lo && (!Widest || X.Hi - X.Lo > Widest->Hi - Widest->Lo))
        Widest = &X;
    if (Widest)
      Res.Cuts.push_back(
          {Widest->S, static_cast<int64_t>(Widest->Lo + (Widest->Hi - Widest->Lo + 1) / 2)});
  }
  if (!Varies) {
    Res.K = RangeCmp::Decided;
    return Res;
  }
  std::sort(Res.Cuts.begin(), Res.Cuts.end());
  Res.Cuts.erase(std::unique(Res.Cuts.begin(), Res.Cuts.end()), Res.Cuts.end());
  Res.K = Res.Cuts.empty() ? RangeCmp::Unsupported : RangeCmp::Split;
  return Res;
}

std::ostream &operator<<(std::ostream &OS, const IntFailure &F) {
  static const char *const Names[] = {
      "",
#define INT_FAIL(Id, Name, Text) Name,
#include "model/IntFailures.def"
  };
  OS << Names[static_cast<size_t>(F.Kind)];
  for (size_t I = 0; I < F.Args.size(); ++I)
    OS << (I ? ", " : "(") << F.Args[I] << (I + 1 == F.Args.size() ? ")" : "");
  return OS;
}

} // namespace coalesce
