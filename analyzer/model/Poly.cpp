//===- Poly.cpp - Per-lane polynomials over warp-uniform symbols ----------===//

#include "model/Poly.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <sstream>

namespace coalesce {

unsigned popcount(LaneMask M) { return static_cast<unsigned>(__builtin_popcount(M)); }

unsigned firstLane(LaneMask M) {
  return M ? static_cast<unsigned>(__builtin_ctz(M)) : WarpSize;
}

LaneInts laneIota() {
  LaneInts R;
  for (unsigned L = 0; L < WarpSize; ++L)
    R[L] = L;
  return R;
}

LaneInts laneFill(int64_t V) {
  LaneInts R;
  R.fill(V);
  return R;
}

int64_t gcd64(int64_t A, int64_t B) {
  // In unsigned arithmetic: -INT64_MIN does not fit in int64_t. A gcd of
  // 2^63 (INT64_MIN with itself or with 0) does not fit either; it is
  // reported as 2^62, a common divisor still (callers use the gcd as "a
  // number that divides both", for which a divisor of it is also true).
  uint64_t X = A < 0 ? 0 - static_cast<uint64_t>(A) : static_cast<uint64_t>(A);
  uint64_t Y = B < 0 ? 0 - static_cast<uint64_t>(B) : static_cast<uint64_t>(B);
  while (Y) {
    uint64_t T = X % Y;
    X = Y;
    Y = T;
  }
  return X > static_cast<uint64_t>(INT64_MAX) ? int64_t(1) << 62 : static_cast<int64_t>(X);
}

int64_t floorDiv(int64_t A, int64_t D) {
  int64_t Q = A / D;
  if ((A % D != 0) && ((A < 0) != (D < 0)))
    --Q;
  return Q;
}

UnitSpan unitsTouched(int64_t Byte, unsigned Width, int64_t UnitBytes) {
  const int64_t First = floorDiv(Byte, UnitBytes);
  return {First, First + (floorMod(Byte, UnitBytes) + int64_t(std::max(Width, 1u)) - 1) /
                             UnitBytes};
}

int64_t floorMod(int64_t A, int64_t D) {
  // A % D, moved to D's sign; floorDiv(A, D) * D could overflow.
  int64_t M = A % D;
  if (M != 0 && ((M < 0) != (D < 0)))
    M += D;
  return M;
}

Monomial Monomial::times(const Monomial &O) const {
  Monomial R;
  R.Syms.reserve(Syms.size() + O.Syms.size());
  std::merge(Syms.begin(), Syms.end(), O.Syms.begin(), O.Syms.end(),
             std::back_inserter(R.Syms));
  return R;
}

static bool allZero(const LaneInts &C) {
  for (int64_t V : C)
    if (V != 0)
      return false;
  return true;
}

Poly Poly::constant(int64_t C) { return lanes(laneFill(C)); }

Poly Poly::lanes(const LaneInts &V) {
  Poly P;
  if (!allZero(V))
    P.Terms.push_back({Monomial{}, V});
  return P;
}

Poly Poly::symbol(SymbolId S, int64_t Coeff) {
  Poly P;
  if (Coeff != 0)
    P.Terms.push_back({Monomial{{S}}, laneFill(Coeff)});
  return P;
}

Poly Poly::poisoned() {
  Poly P;
  P.Overflow = true;
  return P;
}

void Poly::normalize() {
  std::sort(Terms.begin(), Terms.end(),
            [](const Term &A, const Term &B) { return A.M < B.M; });
  // Equal monomials summed into the first of their run, in place (no
  // allocation: this runs for every arithmetic operation).
  size_t Kept = 0;
  for (size_t I = 0; I < Terms.size(); ++I) {
    if (Kept && Terms[Kept - 1].M == Terms[I].M) {
      Term &Into = Terms[Kept - 1];
      for (unsigned L = 0; L < WarpSize; ++L)
        if (__builtin_add_overflow(Into.C[L], Terms[I].C[L], &Into.C[L]))
          Overflow = true;
    } else {
      if (Kept != I)
        Terms[Kept] = std::move(Terms[I]);
      ++Kept;
    }
  }
  Terms.erase(Terms.begin() + Kept, Terms.end());
  Terms.erase(std::remove_if(Terms.begin(), Terms.end(),
                             [](const Term &T) { return allZero(T.C); }),
              Terms.end());
}

Poly Poly::reducedModulo(int64_t M, LaneMask Active) const {
  Poly R = *this;
  const unsigned F = firstLane(Active);
  if (F == WarpSize || M <= 0)
    return R;
  for (Term &T : R.Terms) {
    const int64_t Shift = T.C[F] - floorMod(T.C[F], M);
    if (Shift)
      for (int64_t &C : T.C)
        if (__builtin_sub_overflow(C, Shift, &C))
          R.Overflow = true;
  }
  R.normalize();
  return R;
}

static bool strictlySorted(const std::vector<Poly::Term> &T) {
  for (size_t I = 1; I < T.size(); ++I)
    if (!(T[I - 1].M < T[I].M))
      return false;
  return true;
}

// A + B, or A - B (B's coefficients negated first, as scaled(-1) does, so
// the overflow flag is the same as that of A + B.scaled(-1)): the two sorted
// term lists merged, equal monomials summed, zero terms dropped. Every
// arithmetic operation of the interpreter comes here; merging costs no
// sort and copies each term once.
Poly Poly::merged(const Poly &A, const Poly &B, bool Subtract) {
  if (!strictlySorted(A.Terms) || !strictlySorted(B.Terms)) {
    Poly R;
    R.Overflow = A.Overflow || B.Overflow;
    R.Terms = A.Terms;
    const Poly NB = Subtract ? B.scaled(-1) : B;
    R.Overflow |= NB.Overflow;
    R.Terms.insert(R.Terms.end(), NB.Terms.begin(), NB.Terms.end());
    R.normalize();
    return R;
  }
  Poly R;
  R.Overflow = A.Overflow || B.Overflow;
  R.Terms.reserve(A.Terms.size() + B.Terms.size());
  auto Negated = [&](const Term &T) {
    Term N = T;
    if (Subtract)
      for (int64_t &V : N.C)
        if (__builtin_mul_overflow(V, int64_t(-1), &V))
          R.Overflow = true;
    return N;
  };
  size_t I = 0, J = 0;
  while (I < A.Terms.size() || J < B.Terms.size()) {
    if (J == B.Terms.size() || (I < A.Terms.size() && A.Terms[I].M < B.Terms[J].M)) {
      R.Terms.push_back(A.Terms[I++]);
      continue;
    }
    if (I == A.Terms.size() || B.Terms[J].M < A.Terms[I].M) {
      R.Terms.push_back(Negated(B.Terms[J++]));
      continue;
    }
    Term Sum = Negated(B.Terms[J++]);
    const Term &X = A.Terms[I++];
    for (unsigned L = 0; L < WarpSize; ++L)
      if (__builtin_add_overflow(X.C[L], Sum.C[L], &Sum.C[L]))
        R.Overflow = true;
    if (!allZero(Sum.C)) {
      Sum.M = X.M;
      R.Terms.push_back(std::move(Sum));
    }
  }
  return R;
}

Poly Poly::operator+(const Poly &O) const { return merged(*this, O, false); }

Poly Poly::operator-() const { return scaled(-1); }

Poly Poly::operator-(const Poly &O) const { return merged(*this, O, true); }

Poly Poly::scaled(int64_t K) const {
  Poly R = *this;
  for (Term &T : R.Terms)
    for (int64_t &V : T.C)
      if (__builtin_mul_overflow(V, K, &V))
        R.Overflow = true;
  R.normalize();
  return R;
}

Poly Poly::operator*(const Poly &O) const {
  Poly R;
  R.Overflow = Overflow || O.Overflow;
  R.Terms.reserve(Terms.size() * O.Terms.size());
  for (const Term &A : Terms)
    for (const Term &B : O.Terms) {
      Term T{A.M.times(B.M), {}};
      for (unsigned L = 0; L < WarpSize; ++L)
        if (__builtin_mul_overflow(A.C[L], B.C[L], &T.C[L]))
          R.Overflow = true;
      R.Terms.push_back(std::move(T));
    }
  R.normalize();
  return R;
}

Poly Poly::select(LaneMask M, const Poly &Other) const {
  Poly R;
  R.Overflow = Overflow || Other.Overflow;
  std::map<Monomial, LaneInts> Acc;
  for (const Term &T : Terms) {
    LaneInts &C = Acc.try_emplace(T.M, laneFill(0)).first->second;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(M, L))
        C[L] = T.C[L];
  }
  for (const Term &T : Other.Terms) {
    LaneInts &C = Acc.try_emplace(T.M, laneFill(0)).first->second;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (!laneActive(M, L))
        C[L] = T.C[L];
  }
  for (auto &KV : Acc)
    R.Terms.push_back({KV.first, KV.second});
  R.normalize();
  return R;
}

Poly Poly::permuted(const std::array<unsigned, WarpSize> &Src) const {
  Poly R = *this;
  for (Term &T : R.Terms) {
    LaneInts Old = T.C;
    for (unsigned L = 0; L < WarpSize; ++L)
      T.C[L] = Old[Src[L] % WarpSize];
  }
  R.normalize();
  return R;
}

Poly Poly::dividedExactly(int64_t K) const {
  Poly R = *this;
  for (Term &T : R.Terms)
    for (int64_t &V : T.C)
      V /= K;
  R.normalize();
  return R;
}

bool Poly::operator==(const Poly &O) const {
  if (Overflow || O.Overflow || Terms.size() != O.Terms.size())
    return false;
  for (size_t I = 0; I < Terms.size(); ++I)
    if (Terms[I].M != O.Terms[I].M || Terms[I].C != O.Terms[I].C)
      return false;
  return true;
}

bool Poly::isConcrete(LaneMask Active) const {
  for (const Term &T : Terms) {
    if (T.M.isConstant())
      continue;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L) && T.C[L] != 0)
        return false;
  }
  return true;
}

static bool uniformOn(const LaneInts &C, LaneMask Active) {
  unsigned F = firstLane(Active);
  if (F == WarpSize)
    return true;
  for (unsigned L = F + 1; L < WarpSize; ++L)
    if (laneActive(Active, L) && C[L] != C[F])
      return false;
  return true;
}

bool Poly::isUniform(LaneMask Active) const {
  for (const Term &T : Terms)
    if (!uniformOn(T.C, Active))
      return false;
  return true;
}

bool Poly::hasUniformSymbolicPart(LaneMask Active) const {
  for (const Term &T : Terms)
    if (!T.M.isConstant() && !uniformOn(T.C, Active))
      return false;
  return true;
}

LaneInts Poly::laneConstants() const {
  for (const Term &T : Terms)
    if (T.M.isConstant())
      return T.C;
  return laneFill(0);
}

Poly Poly::symbolicPart(unsigned Lane) const {
  Poly R;
  R.Overflow = Overflow;
  for (const Term &T : Terms)
    if (!T.M.isConstant() && T.C[Lane] != 0)
      R.Terms.push_back({T.M, laneFill(T.C[Lane])});
  return R;
}

int64_t Poly::symbolicGcd(LaneMask Active) const {
  int64_t G = 0;
  for (const Term &T : Terms) {
    if (T.M.isConstant())
      continue;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L))
        G = gcd64(G, T.C[L]);
  }
  return G;
}

Poly Poly::atLane(unsigned Lane) const {
  Poly R;
  R.Overflow = Overflow;
  for (const Term &T : Terms)
    if (T.C[Lane] != 0)
      R.Terms.push_back({T.M, laneFill(T.C[Lane])});
  return R;
}

std::vector<SymbolId> Poly::laneVaryingSymbols(LaneMask Active) const {
  std::vector<SymbolId> R;
  for (const Term &T : Terms)
    if (!T.M.isConstant() && !uniformOn(T.C, Active))
      R.insert(R.end(), T.M.Syms.begin(), T.M.Syms.end());
  std::sort(R.begin(), R.end());
  R.erase(std::unique(R.begin(), R.end()), R.end());
  return R;
}

std::vector<SymbolId> Poly::symbols() const {
  std::vector<SymbolId> R;
  for (const Term &T : Terms)
    R.insert(R.end(), T.M.Syms.begin(), T.M.Syms.end());
  std::sort(R.begin(), R.end());
  R.erase(std::unique(R.begin(), R.end()), R.end());
  return R;
}

bool Poly::mentions(SymbolId S) const {
  for (const Term &T : Terms)
    if (std::find(T.M.Syms.begin(), T.M.Syms.end(), S) != T.M.Syms.end())
      return true;
  return false;
}

Poly Poly::substitute(SymbolId S, const Poly &Rep) const {
  Poly R;
  R.Overflow = Overflow || Rep.Overflow;
  for (const Term &T : Terms) {
    Monomial Rest;
    unsigned Power = 0;
    for (SymbolId X : T.M.Syms) {
      if (X == S)
        ++Power;
      else
        Rest.Syms.push_back(X);
    }
    Poly Part;
    Part.Terms.push_back({Rest, T.C});
    for (unsigned I = 0; I < Power; ++I)
      Part = Part * Rep;
    R = R + Part;
  }
  return R;
}

std::string Poly::str(const SymbolTable &Syms, unsigned Lane) const {
  if (Overflow)
    return "<overflow>";
  std::ostringstream OS;
  bool First = true;
  int64_t Const = 0;
  for (const Term &T : Terms) {
    int64_t C = T.C[Lane];
    if (C == 0)
      continue;
    if (T.M.isConstant()) {
      Const = C;
      continue;
    }
    if (!First)
      OS << (C < 0 ? " - " : " + ");
    else if (C < 0)
      OS << "-";
    uint64_t A = C < 0 ? 0 - static_cast<uint64_t>(C) : static_cast<uint64_t>(C);
    if (A != 1)
      OS << A << "*";
    for (size_t I = 0; I < T.M.Syms.size(); ++I)
      OS << (I ? "*" : "") << Syms.get(T.M.Syms[I]).Name;
    First = false;
  }
  if (Const != 0 || First) {
    if (!First)
      OS << (Const < 0 ? " - " : " + ")
         << (Const < 0 ? 0 - static_cast<uint64_t>(Const) : static_cast<uint64_t>(Const));
    else
      OS << Const;
  }
  return OS.str();
}

std::string Poly::key() const {
  // Written without streams: memo keys are made for every request.
  std::string K;
  K.reserve(Terms.size() * (WarpSize * 3 + 8));
  char Buf[24];
  auto Num = [&](int64_t V) {
    auto R = std::to_chars(Buf, Buf + sizeof Buf, V);
    K.append(Buf, R.ptr);
  };
  for (const Term &T : Terms) {
    K += '[';
    for (SymbolId S : T.M.Syms) {
      Num(S);
      K += '.';
    }
    K += ':';
    for (int64_t V : T.C) {
      Num(V);
      K += ',';
    }
    K += ']';
  }
  if (Overflow)
    K += '!';
  return K;
}

bool isFreeSize(const SymbolInfo &I) {
  return I.Kind == SymbolKind::Param || I.QuotientOf.has_value();
}

SymbolId SymbolTable::add(SymbolInfo Info) {
  Syms.push_back(std::move(Info));
  return static_cast<SymbolId>(Syms.size() - 1);
}

SymbolId SymbolTable::intern(const std::string &Key, SymbolInfo Info) {
  auto It = Interned.find(Key);
  if (It != Interned.end())
    return It->second;
  SymbolId S = add(std::move(Info));
  Interned.emplace(Key, S);
  return S;
}

} // namespace coalesce
