//===- Parametric.cpp - A request's cost as a function of a run-time size -===//

#include "model/Parametric.h"

#include "model/Alignment.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace coalesce {

namespace {

/// The longest stretch of small values a table holds; beyond it the lanes
/// are so far apart per unit of s that the size is not a run-time size.
constexpr int64_t MaxSmall = 4096;

int64_t ceilDiv(int64_t A, int64_t B) { return -floorDiv(-A, B); }

bool same(double A, double B) { return sameCost(A, B); }

/// Into: the cheapest and dearest over the alignments of the sizes a case
/// covers (its sizes share the cost at the assumed alignment, not the range).
void widen(CostPoint &Into, const CostPoint &P) {
  Into.Min = std::min(Into.Min, P.Min);
  Into.Max = std::max(Into.Max, P.Max);
}

} // namespace

bool CostPoint::operator==(const CostPoint &O) const {
  return same(Cost, O.Cost) && same(Ideal, O.Ideal) && Exact == O.Exact &&
         Possible == O.Possible;
}

CostPoint ParamTable::at(int64_t S) const {
  if (S < From)
    return Small[static_cast<size_t>(S - Lo)];
  return Periodic[static_cast<size_t>(floorMod(S, Period))];
}

void ParamTable::extendTo(int64_t NewFrom) {
  for (int64_t S = From; S < NewFrom; ++S)
    Small.push_back(Periodic[static_cast<size_t>(floorMod(S, Period))]);
  From = std::max(From, NewFrom);
}

void accumulate(ParamTable &Sum, const ParamTable &T, double Weight) {
  if (Sum.Period == 0) {
    Sum = T;
    for (CostPoint &P : Sum.Small)
      P.Cost *= Weight, P.Ideal *= Weight, P.Min *= Weight, P.Max *= Weight;
    for (CostPoint &P : Sum.Periodic)
      P.Cost *= Weight, P.Ideal *= Weight, P.Min *= Weight, P.Max *= Weight;
    return;
  }
  ParamTable Other = T;
  Other.extendTo(Sum.From);
  Sum.extendTo(Other.From);
  auto Add = [&](CostPoint &A, const CostPoint &B) {
    A.Cost += Weight * B.Cost;
    A.Ideal += Weight * B.Ideal;
    A.Min += Weight * B.Min;
    A.Max += Weight * B.Max;
    A.Exact &= B.Exact;
    A.Possible &= B.Possible;
  };
  for (size_t I = 0; I < Sum.Small.size(); ++I)
    Add(Sum.Small[I], Other.Small[I]);
  for (size_t I = 0; I < Sum.Periodic.size(); ++I)
    Add(Sum.Periodic[I], Other.Periodic[I]);
}

void accumulateConstant(ParamTable &Sum, const CostPoint &C, double Weight) {
  auto Add = [&](CostPoint &P) {
    P.Cost += Weight * C.Cost, P.Ideal += Weight * C.Ideal, P.Exact &= C.Exact;
    P.Min += Weight * C.Min, P.Max += Weight * C.Max;
  };
  for (CostPoint &P : Sum.Small)
    Add(P);
  for (CostPoint &P : Sum.Periodic)
    Add(P);
}

void scaleTable(ParamTable &T, double W) {
  for (CostPoint &P : T.Small)
    P.Cost /= W, P.Ideal /= W, P.Min /= W, P.Max /= W;
  for (CostPoint &P : T.Periodic)
    P.Cost /= W, P.Ideal /= W, P.Min /= W, P.Max /= W;
}

std::optional<ParamTable>
parametricTable(const Poly &Addr, LaneMask Active, unsigned Width, SymbolId S, int64_t Lo,
                int64_t Period, const std::function<CostPoint(const Poly &)> &CostOf,
                std::string &Why) {
  if (Addr.overflowed() || Active == 0) {
    Why = "integer overflow in the address";
    return std::nullopt;
  }
  LaneInts K{};
  const LaneInts C = Addr.laneConstants();
  for (const Poly::Term &T : Addr.terms()) {
    if (T.M.isConstant())
      continue;
    bool Varies = false;
    const unsigned F = firstLane(Active);
    for (unsigned L = 0; L < WarpSize; ++L)
      Varies |= laneActive(Active, L) && T.C[L] != T.C[F];
    if (!Varies)
      continue;
    if (T.M.Syms.size() != 1 || T.M.Syms[0] != S) {
      Why = "the distance between lanes is not linear in one size";
      return std::nullopt;
    }
    K = T.C;
  }
  // The lanes grouped by their coefficient of S: lowest and highest offset.
  std::map<int64_t, std::pair<int64_t, int64_t>> Groups;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    auto [It, New] = Groups.try_emplace(K[L], C[L], C[L]);
    if (!New) {
      It->second.first = std::min(It->second.first, C[L]);
      It->second.second = std::max(It->second.second, C[L]);
    }
  }
  int64_t From = Lo;
  for (auto G = Groups.begin(); G != Groups.end(); ++G)
    for (auto H = Groups.begin(); H != G; ++H) {
      // G has the larger coefficient: G's lowest byte must lie a period
      // above H's highest one.
      const int64_t Need = H->second.second + int64_t(Width) + Period - G->second.first;
      From = std::max(From, ceilDiv(Need, G->first - H->first));
    }
  if (From - Lo > MaxSmall) {
    Why = "the lanes are apart by a multiple of the size so large that " +
          std::to_string(From - Lo) + " values would have to be listed";
    return std::nullopt;
  }
  ParamTable T;
  T.Sym = S;
  T.Lo = Lo;
  T.From = From;
  T.Period = Period;
  T.Periodic.resize(static_cast<size_t>(Period));
  for (int64_t V = Lo; V < From + Period; ++V) {
    Poly At = Addr.substitute(S, Poly::constant(V));
    if (At.overflowed()) {
      Why = "integer overflow in the address";
      return std::nullopt;
    }
    CostPoint P = CostOf(At);
    const LaneInts AtC = At.laneConstants();
    const unsigned F = firstLane(Active);
    for (unsigned L = 0; L < WarpSize && Width > 1; ++L)
      if (laneActive(Active, L) && floorMod(AtC[L] - AtC[F], Width) != 0)
        P.Possible = false;
    if (V < From)
      T.Small.push_back(P);
    else
      T.Periodic[static_cast<size_t>(floorMod(V, Period))] = P;
  }
  return T;
}

namespace {

std::string residueText(const std::string &Name, int64_t M, const std::vector<int64_t> &Rs) {
  if (Rs.size() + 1 == static_cast<size_t>(M) &&
      std::find(Rs.begin(), Rs.end(), 0) == Rs.end())
    return Name + " is not a multiple of " + std::to_string(M);
  if (Rs.size() == 1)
    return Rs[0] == 0 ? Name + " is a multiple of " + std::to_string(M)
                      : Name + " % " + std::to_string(M) + " == " + std::to_string(Rs[0]);
  std::string Out = Name + " % " + std::to_string(M) + " is ";
  for (size_t I = 0; I < Rs.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Rs.size() ? " or " : ", ") + std::to_string(Rs[I]);
  return Out;
}

} // namespace

ParametricCost summarize(const ParamTable &T, const std::string &Name, int64_t Step,
                         int64_t Offset) {
  ParametricCost Out;
  Out.Name = Name;
  Out.Stated = Name;
  auto Value = [&](int64_t Q) { return Step * Q + Offset; };
  // The shortest period of the large values.
  int64_t P = T.Period;
  for (int64_t D = 1; D <= T.Period; ++D) {
    if (T.Period % D)
      continue;
    bool Ok = true;
    for (int64_t R = 0; R < T.Period && Ok; ++R)
      Ok = T.Periodic[R] == T.Periodic[R % D];
    if (Ok) {
      P = D;
      break;
    }
  }
  // Residues of q grouped by cost; the group of q = 0 first.
  std::vector<std::pair<CostPoint, std::vector<int64_t>>> Large;
  for (int64_t R = 0; R < P; ++R) {
    auto It = std::find_if(Large.begin(), Large.end(),
                           [&](const auto &G) { return G.first == T.Periodic[R]; });
    if (It == Large.end())
      Large.push_back({T.Periodic[R], {R}});
    else
      It->second.push_back(R);
  }
  // From where each group's cost holds for all of its residues.
  std::vector<int64_t> Since(Large.size(), T.Lo);
  std::vector<bool> Covered(static_cast<size_t>(T.From - T.Lo), false);
  for (size_t G = 0; G < Large.size(); ++G) {
    const std::vector<int64_t> &Rs = Large[G].second;
    int64_t Q = T.From;
    while (Q > T.Lo) {
      const int64_t Prev = Q - 1;
      const bool In = std::find(Rs.begin(), Rs.end(), floorMod(Prev, P)) != Rs.end();
      if (In && T.at(Prev) != Large[G].first)
        break;
      Q = Prev;
    }
    // The first value of the group's residues from there ("D >= 16", not
    // "D >= 9", for the multiples of 8).
    while (std::find(Rs.begin(), Rs.end(), floorMod(Q, P)) == Rs.end())
      ++Q;
    Since[G] = Q;
    for (int64_t V = Q; V < T.From; ++V)
      if (std::find(Rs.begin(), Rs.end(), floorMod(V, P)) != Rs.end())
        Covered[static_cast<size_t>(V - T.Lo)] = true;
  }
  const int64_t M = Step * P;
  Out.LargeMin = Out.LargeMax = Large.front().first.Cost;
  for (size_t G = 0; G < Large.size(); ++G) {
    ParamCase C;
    C.Cost = Large[G].first;
    // Its range over alignments: over every size it covers (the residues of
    // every period from Since[G] on).
    for (int64_t Q = Since[G]; Q < T.From + T.Period; ++Q)
      if (std::find(Large[G].second.begin(), Large[G].second.end(), floorMod(Q, P)) !=
          Large[G].second.end())
        widen(C.Cost, T.at(Q));
    C.When.Min = Value(Since[G]);
    if (M > 1) {
      C.When.Modulus = M;
      for (int64_t R : Large[G].second)
        C.When.Residues.push_back(floorMod(Value(R), M));
      std::sort(C.When.Residues.begin(), C.When.Residues.end());
    }
    const bool Bounded = Since[G] > 0 || T.Lo > 0;
    const std::string From = Name + " >= " + std::to_string(C.When.Min);
    if (P == 1)
      C.Text = Bounded ? "for every " + From : "for every " + Name;
    else
      C.Text = "when " + residueText(Name, M, C.When.Residues) + (Bounded ? " and " + From : "");
    if (P == 1 && Step > 1)
      C.Text += " (" + residueText(Name, M, C.When.Residues) + ")";
    Out.LargeMin = std::min(Out.LargeMin, C.Cost.Cost);
    Out.LargeMax = std::max(Out.LargeMax, C.Cost.Cost);
    Out.Cases.push_back(std::move(C));
  }
  // The small values no large case covers, as runs of equal cost.
  for (int64_t Q = T.Lo; Q < T.From;) {
    if (Covered[static_cast<size_t>(Q - T.Lo)]) {
      ++Q;
      continue;
    }
    int64_t E = Q;
    while (E + 1 < T.From && !Covered[static_cast<size_t>(E + 1 - T.Lo)] &&
           T.at(E + 1) == T.at(Q))
      ++E;
    ParamCase C;
    C.Cost = T.at(Q);
    for (int64_t V = Q + 1; V <= E; ++V)
      widen(C.Cost, T.at(V));
    C.When.Min = Value(Q);
    C.When.Max = Value(E);
    if (Step > 1) {
      C.When.Modulus = Step;
      C.When.Residues = {floorMod(Offset, Step)};
    }
    C.Text = Q == E ? "when " + Name + " == " + std::to_string(Value(Q))
                    : "when " + Name + " is from " + std::to_string(Value(Q)) + " to " +
                          std::to_string(Value(E)) +
                          (Step > 1 ? " (" + residueText(Name, Step, C.When.Residues) + ")" : "");
    Out.Cases.push_back(std::move(C));
    Q = E + 1;
  }
  for (int64_t Q = T.Lo; Q < T.From + P; ++Q)
    Out.Table.push_back({Value(Q), T.at(Q)});
  Out.PeriodicFrom = Value(T.From);
  Out.Period = M;
  return Out;
}

} // namespace coalesce
