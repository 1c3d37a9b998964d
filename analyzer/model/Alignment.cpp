//===- Alignment.cpp - Where a warp's addresses fall modulo a period ------===//

#include "model/Alignment.h"

#include <algorithm>
#include <cmath>

namespace coalesce {

static std::vector<double> pointMass(int64_t M, int64_t R) {
  std::vector<double> W(M, 0.0);
  W[floorMod(R, M)] = 1.0;
  return W;
}

static std::vector<double> convolve(const std::vector<double> &A,
                                    const std::vector<double> &B) {
  const int64_t M = static_cast<int64_t>(A.size());
  std::vector<double> R(M, 0.0);
  for (int64_t I = 0; I < M; ++I) {
    if (A[I] == 0)
      continue;
    for (int64_t J = 0; J < M; ++J)
      if (B[J] != 0)
        R[(I + J) % M] += A[I] * B[J];
  }
  return R;
}

/// Distribution of (Coeff * x) mod M for x uniform over [0, N).
static std::vector<double> uniformTerm(int64_t M, int64_t Coeff, int64_t N) {
  std::vector<double> W(M, 0.0);
  const int64_t C = floorMod(Coeff, M);
  const int64_t Period = M / gcd64(C == 0 ? M : C, M);
  const int64_t Full = N / Period, Rest = N % Period;
  for (int64_t X = 0; X < Period; ++X)
    W[(C * X) % M] += static_cast<double>(Full) + (X < Rest ? 1.0 : 0.0);
  for (double &V : W)
    V /= static_cast<double>(N);
  return W;
}

ResidueDistribution residuesOf(const Poly &Value, unsigned Lane,
                               int64_t Modulus, const SymbolTable &Syms) {
  ResidueDistribution D;
  D.Modulus = Modulus;
  D.Weight = pointMass(Modulus, 0);
  int64_t Step = 0;
  for (const Poly::Term &T : Value.terms()) {
    const int64_t C = T.C[Lane];
    if (C == 0)
      continue;
    if (T.M.isConstant()) {
      D.Weight = convolve(D.Weight, pointMass(Modulus, C));
      continue;
    }
    if (floorMod(C, Modulus) == 0)
      continue;
    if (T.M.Syms.size() == 1 && Syms.get(T.M.Syms[0]).UniformRange > 0) {
      // C * x for x in [Start, Start + Range): C * Start plus C * [0, Range).
      const SymbolInfo &I = Syms.get(T.M.Syms[0]);
      D.Weight = convolve(D.Weight, uniformTerm(Modulus, C, I.UniformRange));
      if (I.RangeStart != 0)
        D.Weight = convolve(D.Weight,
                            pointMass(Modulus, floorMod(C, Modulus) *
                                                   floorMod(I.RangeStart, Modulus)));
      continue;
    }
    Step = gcd64(Step, gcd64(C, Modulus));
    D.UnknownSymbols.insert(D.UnknownSymbols.end(), T.M.Syms.begin(),
                            T.M.Syms.end());
  }
  std::sort(D.UnknownSymbols.begin(), D.UnknownSymbols.end());
  D.UnknownSymbols.erase(
      std::unique(D.UnknownSymbols.begin(), D.UnknownSymbols.end()),
      D.UnknownSymbols.end());
  D.UnknownStep = Step;
  return D;
}

Cost averageOverResidues(
    const ResidueDistribution &D,
    const std::function<std::pair<double, double>(int64_t)> &CostAt) {
  const int64_t M = D.Modulus;
  std::vector<std::pair<double, double>> Memo(M, {-1.0, -1.0});
  auto At = [&](int64_t R) {
    R = floorMod(R, M);
    if (Memo[R].first < 0)
      Memo[R] = CostAt(R);
    return Memo[R];
  };
  auto AverageShifted = [&](int64_t Shift) {
    double V = 0, I = 0;
    for (int64_t R = 0; R < M; ++R) {
      if (D.Weight[R] == 0)
        continue;
      auto CI = At(R + Shift);
      V += D.Weight[R] * CI.first;
      I += D.Weight[R] * CI.second;
    }
    return std::make_pair(V, I);
  };

  Cost C;
  bool First = true;
  for (int64_t R = 0; R < M; ++R) {
    if (D.Weight[R] == 0)
      continue;
    double V = At(R).first;
    C.Lowest = First ? V : std::min(C.Lowest, V);
    C.Highest = First ? V : std::max(C.Highest, V);
    First = false;
  }
  auto Base = AverageShifted(0);
  C.Value = Base.first;
  C.Ideal = Base.second;
  C.Min = C.Max = C.Value;
  if (D.UnknownStep != 0) {
    for (int64_t K = D.UnknownStep; K < M; K += D.UnknownStep) {
      double V = AverageShifted(K).first;
      C.Min = std::min(C.Min, V);
      C.Max = std::max(C.Max, V);
    }
    C.Exact = C.Min == C.Max;
  }
  return C;
}

int64_t provenAlignment(const Poly &Offset, LaneMask Active, int64_t BaseAlign) {
  int64_t G = Offset.symbolicGcd(Active);
  const LaneInts C = Offset.laneConstants();
  for (unsigned L = 0; L < WarpSize; ++L)
    if (Active & (LaneMask(1) << L))
      G = gcd64(G, C[L]);
  int64_t A = 1;
  while (A < BaseAlign && (G == 0 || G % (2 * A) == 0))
    A *= 2;
  return A;
}

} // namespace coalesce
