//===- ModelsFuzzer.cpp - libFuzzer harness for the models as algebra ------===//
//
// Turns the fuzzer's bytes into per-lane values and checks the models of
// analyzer/model/ against invariants that hold by construction:
//
//  - countSectors: 1 <= ideal <= sectors <= what the lanes' spans allow,
//    lines <= sectors <= 4 * lines, the ideal is min(sectors, packed lanes x
//    width) and at least the distinct bytes packed,
//    inactive lanes do not matter, a shift by a multiple of 32 bytes (sectors,
//    ideal) or 128 bytes (lines too) and a permutation of the lanes change
//    nothing;
//  - countWavefronts: 1 <= ideal <= wavefronts, max ways <= wavefronts,
//    a broadcast of <= 4 bytes is one wavefront, inactive lanes and a shift by
//    a multiple of 128 bytes change nothing;
//  - countConstantRequests: ideal 1 <= requests <= active lanes, equal to the
//    distinct addresses; a broadcast is one request; inactive lanes, any
//    shift and a permutation of the lanes change nothing;
//  - countLocalSectors: 1 <= ideal <= sectors <= the active lanes' words,
//    the ideal is the cost of every lane at the first one's offset, capped
//    at the sectors (so a broadcast costs its ideal), a full warp at one 4-byte-aligned offset
//    costs 4 sectors per word, inactive lanes and a shift by a multiple of 4
//    bytes change nothing;
//  - residuesOf: the weights are a distribution, equal to the one enumerated
//    from the symbols' ranges, and the unknown step divides the modulus;
//    averageOverResidues stays within its own bounds;
//  - Poly: + - * scaled select permuted substitute atLane symbolicPart agree
//    with evaluation at a concrete assignment of the symbols (computed in
//    128-bit arithmetic) unless the result says it overflowed;
//  - IntOps: when a result is Ok it equals C's semantics on every active lane
//    for any non-negative assignment, up to the warp-uniform value of the
//    derived symbols it introduced; comparePoly's lanes are exact, and a
//    Uniform outcome is one of {no lane, the True lanes} on every assignment.
//
// A violated invariant aborts with its name. Names listed (comma-separated) in
// the environment variable COALESCE_FUZZ_KNOWN are not checked, so a known,
// reported finding does not stop the search for new ones (docs/fuzzing.md);
// wide-sectors, wide-banks, wide-residues and wide-intops there keep that
// model's inputs in the index range.
//===----------------------------------------------------------------------===//

#include "model/Alignment.h"
#include "model/BankModel.h"
#include "model/ConstantModel.h"
#include "model/LocalModel.h"
#include "model/IntOps.h"
#include "model/Poly.h"
#include "model/SectorModel.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

using Int128 = __int128;

bool isKnown(const char *Name) {
  static const std::set<std::string> Known = [] {
    std::set<std::string> S;
    if (const char *E = std::getenv("COALESCE_FUZZ_KNOWN")) {
      std::string All = E, Part;
      for (char C : All + ",") {
        if (C == ',') {
          if (!Part.empty())
            S.insert(Part);
          Part.clear();
        } else {
          Part += C;
        }
      }
    }
    return S;
  }();
  return Known.count(Name) != 0;
}

#define CHECK_INVARIANT(Cond, Name)                                            \
  do {                                                                         \
    if (!(Cond) && !isKnown(Name)) {                                           \
      std::fprintf(stderr, "invariant '%s' violated: %s (%s:%d)\n", Name,      \
                   #Cond, __FILE__, __LINE__);                                 \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

/// How large the generated numbers may be. Index: what index code produces
/// (offsets below 2^40), where every invariant must hold. Wide: anything an
/// int64_t holds, where only the absence of undefined behaviour is checked.
enum class Range { Index, Wide };

int64_t pickInt(FuzzedDataProvider &FDP, Range R, int64_t Small = 4096) {
  switch (FDP.ConsumeIntegralInRange<int>(0, 7)) {
  case 0:
  case 1:
  case 2:
    return FDP.ConsumeIntegralInRange<int64_t>(-Small, Small);
  case 3: // powers of two and their neighbours
    return (int64_t(1) << FDP.ConsumeIntegralInRange<int>(0, 40)) +
           FDP.ConsumeIntegralInRange<int>(-1, 1);
  case 4:
    return FDP.ConsumeIntegralInRange<int64_t>(0, 127);
  default:
    if (R == Range::Wide)
      return FDP.ConsumeIntegral<int64_t>();
    return FDP.ConsumeIntegralInRange<int64_t>(-(int64_t(1) << 40),
                                               int64_t(1) << 40);
  }
}

LaneMask pickMask(FuzzedDataProvider &FDP) {
  switch (FDP.ConsumeIntegralInRange<int>(0, 4)) {
  case 0:
    return AllLanes;
  case 1: // a prefix (bounds guard on the last warp)
    return AllLanes >> FDP.ConsumeIntegralInRange<unsigned>(0, 31);
  case 2: // a single lane
    return 1u << FDP.ConsumeIntegralInRange<unsigned>(0, 31);
  default:
    return FDP.ConsumeIntegral<uint32_t>();
  }
}

/// Two's complement arithmetic for building inputs (the harness's own
/// arithmetic must not be undefined where the Wide range reaches).
int64_t wrap(int64_t A, int64_t B, int64_t C) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) +
                              static_cast<uint64_t>(B) * static_cast<uint64_t>(C));
}

/// Lane values: strided, strided with a per-lane twist, or arbitrary.
LaneInts pickLanes(FuzzedDataProvider &FDP, Range R) {
  LaneInts V{};
  switch (FDP.ConsumeIntegralInRange<int>(0, 3)) {
  case 0:
  case 1: {
    const int64_t Base = pickInt(FDP, R), Stride = pickInt(FDP, Range::Index, 256);
    for (unsigned L = 0; L < WarpSize; ++L)
      V[L] = wrap(Base, Stride, L);
    break;
  }
  case 2: {
    const int64_t Base = pickInt(FDP, R), Stride = pickInt(FDP, Range::Index, 256);
    const unsigned Mod = FDP.ConsumeIntegralInRange<unsigned>(1, 32);
    const int64_t Row = pickInt(FDP, Range::Index, 8192);
    for (unsigned L = 0; L < WarpSize; ++L)
      V[L] = wrap(wrap(Base, Stride, L % Mod), Row, L / Mod);
    break;
  }
  default:
    for (unsigned L = 0; L < WarpSize; ++L)
      V[L] = pickInt(FDP, R);
  }
  return V;
}

unsigned pickWidth(FuzzedDataProvider &FDP) {
  static const unsigned Common[] = {1, 2, 4, 8, 16};
  if (FDP.ConsumeBool())
    return Common[FDP.ConsumeIntegralInRange<unsigned>(0, 4)];
  return FDP.ConsumeIntegralInRange<unsigned>(1, 64);
}

/// True if every active lane's [addr, addr + width + Slack) fits in int64_t.
bool fits(const LaneInts &A, LaneMask Active, unsigned Width, int64_t Slack) {
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L)) {
      Int128 Lo = Int128(A[L]) - Slack, Hi = Int128(A[L]) + Width + Slack;
      if (Lo < INT64_MIN || Hi > INT64_MAX)
        return false;
    }
  return true;
}

LaneInts shifted(const LaneInts &A, int64_t By) {
  LaneInts R = A;
  for (int64_t &V : R)
    V = wrap(V, By, 1);
  return R;
}

//===----------------------------------------------------------------------===//
// Sector and bank models
//===----------------------------------------------------------------------===//

void fuzzSectors(FuzzedDataProvider &FDP, Range R) {
  const LaneInts Addr = pickLanes(FDP, R);
  const LaneMask Active = pickMask(FDP);
  const unsigned Width = pickWidth(FDP);
  if (R == Range::Index && !fits(Addr, Active, Width, 1 << 20))
    return;
  const SectorCount C = countSectors(Addr, Active, Width);
  if (R == Range::Wide)
    return;
  if (!Active) {
    CHECK_INVARIANT(C.Sectors == 0 && C.Ideal == 0, "sectors-empty");
    return;
  }
  const unsigned Lanes = popcount(Active);
  CHECK_INVARIANT(C.Ideal >= 1, "sectors-ideal-positive");
  CHECK_INVARIANT(C.Ideal <= C.Sectors, "sectors-ideal-le-sectors");
  CHECK_INVARIANT(C.Ideal <= idealSectors(Lanes, Width), "sectors-ideal-le-packed");
  CHECK_INVARIANT(C.Sectors <= Lanes * ((Width + 31) / 32 + 1), "sectors-le-spans");
  CHECK_INVARIANT(C.Lines >= 1 && C.Lines <= C.Sectors && C.Sectors <= 4 * C.Lines,
                  "sectors-lines");
  // The ideal: the requested bytes packed (duplicates included), capped at
  // the sectors; and never below the distinct bytes, packed.
  CHECK_INVARIANT(C.Ideal == std::min(C.Sectors, idealSectors(Lanes, Width)),
                  "sectors-ideal-packed-capped");
  if (Width <= 16) {
    std::set<int64_t> Bytes;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L))
        for (unsigned B = 0; B < Width; ++B)
          Bytes.insert(Addr[L] + B);
    CHECK_INVARIANT(C.Ideal >= (Bytes.size() + 31) / 32, "sectors-ideal-ge-distinct-bytes");
  }
  // Inactive lanes do not count.
  LaneInts Other = Addr;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (!laneActive(Active, L))
      Other[L] = pickInt(FDP, Range::Index);
  const SectorCount D = countSectors(Other, Active, Width);
  CHECK_INVARIANT(D.Sectors == C.Sectors && D.Ideal == C.Ideal && D.Lines == C.Lines,
                  "sectors-inactive-lanes");
  // Whole sectors and lines move together.
  const int64_t K = FDP.ConsumeIntegralInRange<int64_t>(-1000, 1000);
  const SectorCount S32 = countSectors(shifted(Addr, 32 * K), Active, Width);
  CHECK_INVARIANT(S32.Sectors == C.Sectors && S32.Ideal == C.Ideal, "sectors-shift-32");
  const SectorCount S128 = countSectors(shifted(Addr, 128 * K), Active, Width);
  CHECK_INVARIANT(S128.Lines == C.Lines, "sectors-shift-128");
  // Which lane asks for which bytes does not matter.
  const unsigned Rot = FDP.ConsumeIntegralInRange<unsigned>(0, 31);
  LaneInts Rotated{};
  LaneMask RotMask = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    Rotated[(L + Rot) % WarpSize] = Addr[L];
    if (laneActive(Active, L))
      RotMask |= 1u << ((L + Rot) % WarpSize);
  }
  const SectorCount P = countSectors(Rotated, RotMask, Width);
  CHECK_INVARIANT(P.Sectors == C.Sectors && P.Ideal == C.Ideal, "sectors-permutation");
}

void fuzzConstant(FuzzedDataProvider &FDP, Range R) {
  const LaneInts Addr = pickLanes(FDP, R);
  const LaneMask Active = pickMask(FDP);
  const unsigned Width = pickWidth(FDP);
  const ConstantCount C = countConstantRequests(Addr, Active, Width);
  if (R == Range::Wide)
    return;
  if (!Active) {
    CHECK_INVARIANT(C.Requests == 0 && C.Ideal == 0, "constant-empty");
    return;
  }
  CHECK_INVARIANT(C.Ideal == 1, "constant-ideal");
  CHECK_INVARIANT(C.Requests >= 1 && C.Requests <= popcount(Active), "constant-range");
  std::set<int64_t> Distinct;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L))
      Distinct.insert(Addr[L]);
  CHECK_INVARIANT(C.Requests == Distinct.size(), "constant-distinct");
  CHECK_INVARIANT(
      countConstantRequests(laneFill(Addr[firstLane(Active)]), Active, Width).Requests == 1,
      "constant-broadcast");
  LaneInts Other = Addr;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (!laneActive(Active, L))
      Other[L] = pickInt(FDP, Range::Index);
  CHECK_INVARIANT(countConstantRequests(Other, Active, Width).Requests == C.Requests,
                  "constant-inactive-lanes");
  const int64_t K = FDP.ConsumeIntegralInRange<int64_t>(-1000000, 1000000);
  CHECK_INVARIANT(countConstantRequests(shifted(Addr, K), Active, Width).Requests == C.Requests,
                  "constant-shift");
  const unsigned Rot = FDP.ConsumeIntegralInRange<unsigned>(0, 31);
  LaneInts Rotated{};
  LaneMask RotMask = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    Rotated[(L + Rot) % WarpSize] = Addr[L];
    if (laneActive(Active, L))
      RotMask |= 1u << ((L + Rot) % WarpSize);
  }
  CHECK_INVARIANT(countConstantRequests(Rotated, RotMask, Width).Requests == C.Requests,
                  "constant-permutation");
}

void fuzzLocal(FuzzedDataProvider &FDP, Range R) {
  const LaneInts Addr = pickLanes(FDP, R);
  const LaneMask Active = pickMask(FDP);
  const unsigned Width = pickWidth(FDP);
  const LocalCount C = countLocalSectors(Addr, Active, Width);
  if (R == Range::Wide)
    return;
  if (!Active) {
    CHECK_INVARIANT(C.Sectors == 0 && C.Ideal == 0, "local-empty");
    return;
  }
  const unsigned Words = (Width + 2 * LocalWordBytes - 2) / LocalWordBytes; // at most
  CHECK_INVARIANT(C.Ideal >= 1 && C.Ideal <= C.Sectors, "local-ideal-range");
  CHECK_INVARIANT(C.Sectors <= popcount(Active) * Words, "local-at-most-a-sector-per-word");
  const LaneInts Same = laneFill(Addr[firstLane(Active)]);
  const LocalCount B = countLocalSectors(Same, Active, Width);
  CHECK_INVARIANT(B.Ideal == B.Sectors && C.Ideal == std::min(C.Sectors, B.Sectors),
                  "local-ideal-is-broadcast");
  if (Active == AllLanes && floorMod(Addr[0], LocalWordBytes) == 0 &&
      Width % LocalWordBytes == 0)
    CHECK_INVARIANT(B.Sectors == 4 * (Width / LocalWordBytes), "local-uniform-lines");
  LaneInts Other = Addr;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (!laneActive(Active, L))
      Other[L] = pickInt(FDP, Range::Index);
  const LocalCount O = countLocalSectors(Other, Active, Width);
  CHECK_INVARIANT(O.Sectors == C.Sectors && O.Ideal == C.Ideal, "local-inactive-lanes");
  const int64_t K = LocalWordBytes * FDP.ConsumeIntegralInRange<int64_t>(-100000, 100000);
  const LocalCount S = countLocalSectors(shifted(Addr, K), Active, Width);
  CHECK_INVARIANT(S.Sectors == C.Sectors && S.Ideal == C.Ideal, "local-word-shift");
}

void fuzzBanks(FuzzedDataProvider &FDP, Range R) {
  const LaneInts Addr = pickLanes(FDP, R);
  const LaneMask Active = pickMask(FDP);
  const unsigned Width = pickWidth(FDP);
  if (R == Range::Index && !fits(Addr, Active, Width, 1 << 20))
    return;
  const BankCount C = countWavefronts(Addr, Active, Width);
  if (R == Range::Wide)
    return;
  if (!Active) {
    CHECK_INVARIANT(C.Wavefronts == 0 && C.Ideal == 0, "banks-empty");
    return;
  }
  const unsigned Phase = lanesPerPhase(Width);
  CHECK_INVARIANT(C.Ideal >= 1 && C.Ideal <= WarpSize / Phase, "banks-ideal-range");
  CHECK_INVARIANT(C.Ideal <= C.Wavefronts, "banks-ideal-le-wavefronts");
  CHECK_INVARIANT(C.MaxWays >= 1 && C.MaxWays <= C.Wavefronts, "banks-max-ways");
  CHECK_INVARIANT(C.MaxWays <= WarpSize * ((Width + 3) / 4 + 1), "banks-ways-le-words");
  // One word (or two neighbouring words) for everyone: one wavefront.
  if (Width <= 4) {
    LaneInts Same = laneFill(Addr[firstLane(Active)]);
    CHECK_INVARIANT(countWavefronts(Same, Active, Width).Wavefronts == 1,
                    "banks-broadcast");
  }
  LaneInts Other = Addr;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (!laneActive(Active, L))
      Other[L] = pickInt(FDP, Range::Index);
  const BankCount D = countWavefronts(Other, Active, Width);
  CHECK_INVARIANT(D.Wavefronts == C.Wavefronts && D.Ideal == C.Ideal &&
                      D.MaxWays == C.MaxWays,
                  "banks-inactive-lanes");
  const int64_t K = FDP.ConsumeIntegralInRange<int64_t>(-1000, 1000);
  const BankCount S = countWavefronts(shifted(Addr, 128 * K), Active, Width);
  CHECK_INVARIANT(S.Wavefronts == C.Wavefronts && S.Ideal == C.Ideal &&
                      S.MaxWays == C.MaxWays,
                  "banks-shift-128");
}

//===----------------------------------------------------------------------===//
// Polynomials over symbols, and their values at an assignment
//===----------------------------------------------------------------------===//

struct World {
  SymbolTable Syms;
  std::vector<int64_t> Value; // a concrete value of each base symbol
};

World pickWorld(FuzzedDataProvider &FDP) {
  World W;
  const unsigned N = FDP.ConsumeIntegralInRange<unsigned>(0, 4);
  for (unsigned I = 0; I < N; ++I) {
    SymbolInfo Info;
    Info.Name = "s" + std::to_string(I);
    Info.Kind = FDP.ConsumeBool() ? SymbolKind::BlockIdx : SymbolKind::Param;
    if (FDP.ConsumeBool())
      Info.UniformRange = FDP.ConsumeIntegralInRange<int64_t>(1, 300);
    W.Syms.add(Info);
    const int64_t Hi = Info.UniformRange ? Info.UniformRange - 1 : 100000;
    W.Value.push_back(FDP.ConsumeIntegralInRange<int64_t>(0, Hi));
  }
  return W;
}

Poly pickPoly(FuzzedDataProvider &FDP, const World &W, Range R) {
  Poly P;
  if (FDP.ConsumeBool())
    P = Poly::lanes(pickLanes(FDP, R));
  else
    P = Poly::constant(pickInt(FDP, R));
  const unsigned NSyms = static_cast<unsigned>(W.Value.size());
  if (!NSyms)
    return P;
  const unsigned Terms = FDP.ConsumeIntegralInRange<unsigned>(0, 3);
  for (unsigned T = 0; T < Terms; ++T) {
    const SymbolId S = FDP.ConsumeIntegralInRange<unsigned>(0, NSyms - 1);
    Poly Sym = Poly::symbol(S, pickInt(FDP, R));
    switch (FDP.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: // a lane-dependent coefficient (threadIdx.x * n)
      Sym = Sym * Poly::lanes(pickLanes(FDP, Range::Index));
      break;
    case 1: // a product of two symbols
      Sym = Sym * Poly::symbol(FDP.ConsumeIntegralInRange<unsigned>(0, NSyms - 1));
      break;
    default:
      break;
    }
    P = P + Sym;
  }
  return P;
}

/// The value of P on lane L when every symbol below Known.size() has its
/// value; nullopt if P mentions another symbol or 128 bits overflow.
std::optional<Int128> evalAt(const Poly &P, unsigned L,
                             const std::vector<int64_t> &Known) {
  Int128 Sum = 0;
  for (const Poly::Term &T : P.terms()) {
    Int128 V = T.C[L];
    for (SymbolId S : T.M.Syms) {
      if (S >= Known.size())
        return std::nullopt;
      if (__builtin_mul_overflow(V, Int128(Known[S]), &V))
        return std::nullopt;
    }
    if (__builtin_add_overflow(Sum, V, &Sum))
      return std::nullopt;
  }
  return Sum;
}

bool inInt64(Int128 V) { return V >= INT64_MIN && V <= INT64_MAX; }

/// The value of P on every active lane, if all fit in int64_t.
std::optional<LaneInts> evalLanes(const Poly &P, LaneMask Active,
                                  const std::vector<int64_t> &Known) {
  LaneInts R{};
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    std::optional<Int128> V = evalAt(P, L, Known);
    if (!V || !inInt64(*V))
      return std::nullopt;
    R[L] = static_cast<int64_t>(*V);
  }
  return R;
}

/// Checks that Got, a polynomial in the base symbols and in symbols it
/// introduced (ids >= Base.size()), equals Want on every active lane up to a
/// warp-uniform value of the introduced symbols.
void checkUpToUniform(const Poly &Got, const LaneInts &Want, LaneMask Active,
                      const std::vector<int64_t> &Base, const char *Name) {
  if (!Active || Got.overflowed())
    return;
  Poly Known, Fresh;
  for (const Poly::Term &T : Got.terms()) {
    bool New = false;
    for (SymbolId S : T.M.Syms)
      New |= S >= Base.size();
    // The term again: its per-lane coefficients times its monomial.
    Poly One = Poly::lanes(T.C);
    for (SymbolId S : T.M.Syms)
      One = One * Poly::symbol(S);
    Poly &Part = New ? Fresh : Known;
    Part = Part + One;
  }
  if (!Fresh.hasUniformSymbolicPart(Active))
    return; // not claimed to be exact per lane
  std::optional<Int128> Offset;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    std::optional<Int128> K = evalAt(Known, L, Base);
    if (!K)
      return;
    const Int128 Rest = Int128(Want[L]) - *K;
    if (!Offset)
      Offset = Rest;
    CHECK_INVARIANT(*Offset == Rest, Name);
  }
}

void fuzzPoly(FuzzedDataProvider &FDP) {
  World W = pickWorld(FDP);
  const Poly A = pickPoly(FDP, W, Range::Index), B = pickPoly(FDP, W, Range::Index);
  const LaneMask M = pickMask(FDP);
  const int64_t K = pickInt(FDP, Range::Index);
  std::array<unsigned, WarpSize> Src;
  for (unsigned &S : Src)
    S = FDP.ConsumeIntegralInRange<unsigned>(0, 31);

  auto Check = [&](const Poly &Got, auto Want, const char *Name) {
    if (Got.overflowed())
      return;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::optional<Int128> G = evalAt(Got, L, W.Value), X = Want(L);
      if (G && X)
        CHECK_INVARIANT(*G == *X, Name);
    }
  };
  auto At = [&](const Poly &P) {
    return [&P, &W](unsigned L) { return evalAt(P, L, W.Value); };
  };
  auto Bin = [](auto FA, auto FB, auto Op) {
    return [=](unsigned L) -> std::optional<Int128> {
      std::optional<Int128> X = FA(L), Y = FB(L);
      Int128 R;
      if (!X || !Y || !Op(*X, *Y, R))
        return std::nullopt;
      return R;
    };
  };
  Check(A + B, Bin(At(A), At(B), [](Int128 X, Int128 Y, Int128 &R) {
          return !__builtin_add_overflow(X, Y, &R);
        }), "poly-add");
  Check(A - B, Bin(At(A), At(B), [](Int128 X, Int128 Y, Int128 &R) {
          return !__builtin_sub_overflow(X, Y, &R);
        }), "poly-sub");
  Check(A * B, Bin(At(A), At(B), [](Int128 X, Int128 Y, Int128 &R) {
          return !__builtin_mul_overflow(X, Y, &R);
        }), "poly-mul");
  Check(A.scaled(K), [&](unsigned L) -> std::optional<Int128> {
    std::optional<Int128> X = evalAt(A, L, W.Value);
    Int128 R;
    if (!X || __builtin_mul_overflow(*X, Int128(K), &R))
      return std::nullopt;
    return R;
  }, "poly-scaled");
  Check(A.select(M, B), [&](unsigned L) {
    return evalAt(laneActive(M, L) ? A : B, L, W.Value);
  }, "poly-select");
  Check(A.permuted(Src), [&](unsigned L) { return evalAt(A, Src[L], W.Value); },
        "poly-permuted");
  Check(A.atLane(Src[0]), [&](unsigned) { return evalAt(A, Src[0], W.Value); },
        "poly-at-lane");
  // symbolicPart + the lane's constant is the lane's value.
  const unsigned L0 = Src[1];
  const std::optional<Int128> SP = evalAt(A.symbolicPart(L0), 0, W.Value),
                              Whole = evalAt(A, L0, W.Value);
  if (SP && Whole && !A.overflowed())
    CHECK_INVARIANT(*SP + A.laneConstants()[L0] == *Whole, "poly-symbolic-part");
  // substitute: s0 := B's value on lane 0 (uniform).
  if (!W.Value.empty()) {
    const Poly R = B.atLane(0);
    std::optional<Int128> RV = evalAt(R, 0, W.Value);
    if (RV && inInt64(*RV)) {
      std::vector<int64_t> V2 = W.Value;
      V2[0] = static_cast<int64_t>(*RV);
      Check(A.substitute(0, R), [&](unsigned L) { return evalAt(A, L, V2); },
            "poly-substitute");
    }
  }
  // Structural queries agree with the coefficients.
  if (!A.overflowed()) {
    const int64_t G = A.symbolicGcd(M);
    for (const Poly::Term &T : A.terms())
      for (unsigned L = 0; L < WarpSize; ++L)
        if (!T.M.isConstant() && laneActive(M, L))
          CHECK_INVARIANT(T.C[L] == 0 || (G != 0 && T.C[L] % G == 0),
                          "poly-symbolic-gcd");
    CHECK_INVARIANT(A.isConcrete(M) == (G == 0), "poly-concrete-gcd");
    CHECK_INVARIANT(!A.isUniform(M) || A.hasUniformSymbolicPart(M),
                    "poly-uniform-implies-uniform-symbolic");
    CHECK_INVARIANT((A == B) == (A.key() == B.key()) || B.overflowed(), "poly-key");
    (void)A.str(W.Syms, L0);
  }
}

//===----------------------------------------------------------------------===//
// Integer operations
//===----------------------------------------------------------------------===//

/// C semantics of the operation on one lane; nullopt where C has none (or
/// the model does not claim it, e.g. negative operands of division).
std::optional<int64_t> cSemantics(int Op, int64_t X, int64_t Y) {
  switch (Op) {
  case 0: // /
    if (Y == 0 || X < 0 || (X == INT64_MIN && Y == -1))
      return std::nullopt;
    return X / Y;
  case 1: // %
    if (Y == 0 || X < 0 || (X == INT64_MIN && Y == -1))
      return std::nullopt;
    return X % Y;
  case 2: { // <<
    if (Y < 0 || Y > 62 || X < 0)
      return std::nullopt;
    int64_t R;
    if (__builtin_mul_overflow(X, int64_t(1) << Y, &R))
      return std::nullopt;
    return R;
  }
  case 3: // >>
    if (Y < 0 || Y > 62 || X < 0)
      return std::nullopt;
    return X >> Y;
  case 4:
    return X & Y;
  case 5:
    return X | Y;
  case 6:
    return X ^ Y;
  case 7:
    return ~X;
  case 8:
    return std::min(X, Y);
  case 9:
    return std::max(X, Y);
  }
  return std::nullopt;
}

void fuzzIntOps(FuzzedDataProvider &FDP, Range R) {
  World W = pickWorld(FDP);
  const int Op = FDP.ConsumeIntegralInRange<int>(0, 10);
  const Poly A = pickPoly(FDP, W, R);
  Poly B;
  if (FDP.ConsumeBool())
    B = Poly::constant(pickInt(FDP, R, 64)); // the common case: a constant
  else
    B = pickPoly(FDP, W, R);
  const LaneMask Active = pickMask(FDP);
  // Every op runs on a fresh copy: symbols it introduces are the new ids.
  SymbolTable Syms = W.Syms;
  IntResult Res;
  switch (Op) {
  case 0: Res = divPoly(A, B, Active, Syms); break;
  case 1: Res = remPoly(A, B, Active, Syms); break;
  case 2: Res = shlPoly(A, B, Active, Syms); break;
  case 3: Res = shrPoly(A, B, Active, Syms); break;
  case 4: Res = andPoly(A, B, Active, Syms); break;
  case 5: Res = orPoly(A, B, Active, Syms); break;
  case 6: Res = xorPoly(A, B, Active, Syms); break;
  case 7: Res = notPoly(A, Active); break;
  case 8: Res = minMaxPoly(A, B, /*IsMax=*/false, Active, Syms); break;
  case 9: Res = minMaxPoly(A, B, /*IsMax=*/true, Active, Syms); break;
  default: {
    const CmpOp C = static_cast<CmpOp>(FDP.ConsumeIntegralInRange<int>(0, 5));
    const CmpResult CR = comparePoly(A, B, C, Active);
    if (R == Range::Wide)
      return;
    CHECK_INVARIANT((CR.True & ~Active) == 0, "cmp-true-within-active");
    std::optional<LaneInts> VA = evalLanes(A, Active, W.Value),
                            VB = evalLanes(B, Active, W.Value);
    if (!VA || !VB || CR.K == CmpResult::Varying)
      return;
    LaneMask Actual = 0;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!laneActive(Active, L))
        continue;
      const int64_t X = (*VA)[L], Y = (*VB)[L];
      bool H = C == CmpOp::LT   ? X < Y
               : C == CmpOp::LE ? X <= Y
               : C == CmpOp::GT ? X > Y
               : C == CmpOp::GE ? X >= Y
               : C == CmpOp::EQ ? X == Y
                                : X != Y;
      if (H)
        Actual |= 1u << L;
    }
    if (std::getenv("COALESCE_FUZZ_VERBOSE")) {
      std::fprintf(stderr, "compare: (%s) %s (%s), active %08x, values:",
                   A.str(W.Syms, firstLane(Active)).c_str(), cmpSpelling(C),
                   B.str(W.Syms, firstLane(Active)).c_str(), Active);
      for (size_t I = 0; I < W.Value.size(); ++I)
        std::fprintf(stderr, " s%zu=%lld", I, static_cast<long long>(W.Value[I]));
      std::fprintf(stderr, "\n  kind %d, true %08x, actual %08x\n", int(CR.K),
                   CR.True, Actual);
      for (unsigned L = 0; L < WarpSize; ++L)
        if (laneActive(Active, L))
          std::fprintf(stderr, "  lane %u: %s = %lld vs %s = %lld\n", L,
                       A.str(W.Syms, L).c_str(), static_cast<long long>((*VA)[L]),
                       B.str(W.Syms, L).c_str(), static_cast<long long>((*VB)[L]));
    }
    if (CR.K == CmpResult::Lanes)
      CHECK_INVARIANT(Actual == CR.True, "cmp-lanes-exact");
    else
      CHECK_INVARIANT(Actual == CR.True || Actual == CR.TrueOtherwise, "cmp-uniform-outcome");
    return;
  }
  }
  if (R == Range::Wide || !Res.Ok || !Active)
    return;
  CHECK_INVARIANT(Res.Why.empty(), "intops-ok-without-why");
  std::optional<LaneInts> VA = evalLanes(A, Active, W.Value),
                          VB = evalLanes(B, Active, W.Value);
  if (!VA || !VB)
    return;
  LaneInts Want{};
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    std::optional<int64_t> V = cSemantics(Op, (*VA)[L], (*VB)[L]);
    if (!V)
      return;
    Want[L] = *V;
  }
  static const char *Names[] = {"intops-div", "intops-rem", "intops-shl",
                                "intops-shr", "intops-and", "intops-or",
                                "intops-xor", "intops-not", "intops-min",
                                "intops-max"};
  checkUpToUniform(Res.P, Want, Active, W.Value, Names[Op]);
}

//===----------------------------------------------------------------------===//
// Residues and averaging
//===----------------------------------------------------------------------===//

void fuzzResidues(FuzzedDataProvider &FDP, Range R) {
  World W = pickWorld(FDP);
  const Poly Value = pickPoly(FDP, W, R);
  const unsigned Lane = FDP.ConsumeIntegralInRange<unsigned>(0, 31);
  static const int64_t Common[] = {32, 128, 4, 1};
  const int64_t M = FDP.ConsumeBool()
                        ? Common[FDP.ConsumeIntegralInRange<unsigned>(0, 3)]
                        : FDP.ConsumeIntegralInRange<int64_t>(1, 512);
  const ResidueDistribution D = residuesOf(Value, Lane, M, W.Syms);
  const LaneInts Offsets = pickLanes(FDP, Range::Index);
  const LaneMask Active = pickMask(FDP) | 1u;
  const unsigned Width = pickWidth(FDP);
  const bool Shared = FDP.ConsumeBool();
  LaneInts Rel{};
  for (unsigned L = 0; L < WarpSize; ++L)
    Rel[L] = wrap(Offsets[L], Offsets[0], -1) % (int64_t(1) << 30);
  const Cost C = averageOverResidues(D, [&](int64_t Res) {
    LaneInts A = shifted(Rel, Res);
    if (Shared) {
      BankCount B = countWavefronts(A, Active, Width);
      return std::make_pair(double(B.Wavefronts), double(B.Ideal));
    }
    SectorCount S = countSectors(A, Active, Width);
    return std::make_pair(double(S.Sectors), double(S.Ideal));
  });
  if (R == Range::Wide)
    return;
  CHECK_INVARIANT(D.Modulus == M && D.Weight.size() == size_t(M), "residues-size");
  double Sum = 0;
  for (double X : D.Weight) {
    CHECK_INVARIANT(X >= 0, "residues-non-negative");
    Sum += X;
  }
  CHECK_INVARIANT(std::fabs(Sum - 1) < 1e-9, "residues-sum-to-one");
  CHECK_INVARIANT(D.UnknownStep >= 0 && D.UnknownStep < M &&
                      (D.UnknownStep == 0 || M % D.UnknownStep == 0),
                  "residues-unknown-step");
  CHECK_INVARIANT((D.UnknownStep == 0) == D.UnknownSymbols.empty(),
                  "residues-unknown-symbols");
  const double Eps = 1e-6 * (1 + C.Highest);
  CHECK_INVARIANT(C.Lowest <= C.Value + Eps && C.Value <= C.Highest + Eps,
                  "average-within-lowest-highest");
  CHECK_INVARIANT(C.Min <= C.Value + Eps && C.Value <= C.Max + Eps,
                  "average-within-min-max");
  CHECK_INVARIANT(!D.exact() || (C.Exact && C.Min == C.Max), "average-exact");
  CHECK_INVARIANT(C.Ideal <= C.Value + Eps, "average-ideal-le-value");

  // The exact part, enumerated: each ranged symbol of a linear term takes
  // every value of its range equally often.
  if (!D.exact())
    return;
  std::vector<double> Want(M, 0.0);
  Want[floorMod(Value.laneConstants()[Lane], M)] = 1.0;
  for (const Poly::Term &T : Value.terms()) {
    if (T.M.isConstant() || T.C[Lane] == 0 || floorMod(T.C[Lane], M) == 0)
      continue;
    CHECK_INVARIANT(T.M.Syms.size() == 1, "residues-exact-linear");
    const int64_t N = W.Syms.get(T.M.Syms[0]).UniformRange;
    CHECK_INVARIANT(N > 0, "residues-exact-ranged");
    std::vector<double> Next(M, 0.0);
    for (int64_t X = 0; X < N; ++X) {
      const int64_t Step = floorMod(static_cast<int64_t>(
                                        (Int128(floorMod(T.C[Lane], M)) * X) % M),
                                    M);
      for (int64_t Rr = 0; Rr < M; ++Rr)
        Next[(Rr + Step) % M] += Want[Rr] / double(N);
    }
    Want = std::move(Next);
  }
  for (int64_t Rr = 0; Rr < M; ++Rr)
    CHECK_INVARIANT(std::fabs(Want[Rr] - D.Weight[Rr]) < 1e-9, "residues-enumerated");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider FDP(Data, Size);
  const uint8_t Head = FDP.ConsumeIntegral<uint8_t>();
  // One input in eight uses any int64_t: there only undefined behaviour and
  // crashes are looked for.
  // A known finding there is listed in COALESCE_FUZZ_KNOWN as wide-<model>
  // to keep looking elsewhere.
  const bool Wide = (Head & 0x70) == 0x70;
  auto RangeFor = [&](const char *Known) {
    return Wide && !isKnown(Known) ? Range::Wide : Range::Index;
  };
  switch (Head & 7) {
  case 0:
  case 1:
    fuzzSectors(FDP, RangeFor("wide-sectors"));
    break;
  case 2:
    if (Head & 8)
      fuzzConstant(FDP, RangeFor("wide-constant"));
    else
      fuzzBanks(FDP, RangeFor("wide-banks"));
    break;
  case 3:
    if (Head & 8)
      fuzzLocal(FDP, RangeFor("wide-local"));
    else
      fuzzResidues(FDP, RangeFor("wide-residues"));
    break;
  case 4:
  case 5:
    fuzzIntOps(FDP, RangeFor("wide-intops"));
    break;
  default:
    fuzzPoly(FDP);
    break;
  }
  return 0;
}
