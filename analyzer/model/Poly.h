//===- Poly.h - Per-lane polynomials over warp-uniform symbols -----------===//
//
// Design note: the value of an integer expression in one warp.
//
// A kernel's index expressions mix values that differ between the 32 lanes of a
// warp (threadIdx, anything derived from it) with values that are the same for
// every lane but unknown to us (blockIdx, kernel parameters, loop iteration
// counters, warp-uniform loads). We represent such a value exactly as
//
//     v(lane) = sum over monomials m of  C_m[lane] * m
//
// where each monomial m is a product of warp-uniform symbols (the empty product
// is the constant 1) and each coefficient C_m is a vector of 32 integers, one
// per lane. For example, with blockDim = (256, 1, 1), in warp 1:
//
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     i  ==  256 * B  +  (32 + lane)          B = blockIdx.x
//     in[i * W]  (W a kernel parameter)  ->  byte offset 1024*B*W + 4*(32+lane)*W
//
// Sums, differences and products stay in this form exactly. Lane selects
// (`c ? a : b` with a lane-dependent c) too: they pick coefficients per lane.
// Division, remainder and bit operations are handled by the evaluator, which
// asks for the split "uniform symbolic part + per-lane constants" (see
// `symbolicPart`, `laneConstants`) and for the divisibility of the symbolic
// part (`symbolicGcd`). Divisibility facts about symbols (blockDim.x is a
// multiple of 32) are expressed by coefficients: the symbol stands for the
// quotient, so `32 * BX` is a multiple of 32 by construction.
//
// Assumptions: symbols are integers; arithmetic is done in int64_t and any
// overflow poisons the value (`overflowed()`), which the evaluator reports as
// unknown rather than computing with a wrong number.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_SUPPORT_POLY_H
#define COALESCE_ANALYZER_SUPPORT_POLY_H

#include <array>
#include <unordered_map>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

constexpr unsigned WarpSize = 32;
using LaneMask = uint32_t;
constexpr LaneMask AllLanes = 0xffffffffu;
using LaneInts = std::array<int64_t, WarpSize>;

inline bool laneActive(LaneMask M, unsigned Lane) { return (M >> Lane) & 1u; }
unsigned popcount(LaneMask M);
/// Lowest active lane; WarpSize if none.
unsigned firstLane(LaneMask M);

LaneInts laneIota();                 // 0, 1, ..., 31
LaneInts laneFill(int64_t V);        // V, V, ..., V

using SymbolId = uint32_t;

/// A product of warp-uniform symbols, kept sorted; empty means the constant 1.
struct Monomial {
  std::vector<SymbolId> Syms;

  bool isConstant() const { return Syms.empty(); }
  bool operator<(const Monomial &O) const { return Syms < O.Syms; }
  bool operator==(const Monomial &O) const { return Syms == O.Syms; }
  bool operator!=(const Monomial &O) const { return Syms != O.Syms; }
  Monomial times(const Monomial &O) const;
};

class SymbolTable;

class Poly {
public:
  struct Term {
    Monomial M;
    LaneInts C;
  };

  Poly() = default; // the constant 0
  static Poly constant(int64_t C);
  static Poly lanes(const LaneInts &V);
  static Poly symbol(SymbolId S, int64_t Coeff = 1);
  static Poly poisoned();

  Poly operator+(const Poly &O) const;
  Poly operator-(const Poly &O) const;
  Poly operator-() const;
  Poly operator*(const Poly &O) const;
  Poly scaled(int64_t K) const;
  /// Lanes in M take this value, the others take Other's.
  Poly select(LaneMask M, const Poly &Other) const;
  /// Lane L takes the value of lane Src[L] (a warp shuffle).
  Poly permuted(const std::array<unsigned, WarpSize> &Src) const;
  /// Divides every coefficient by K; only valid when all are multiples of K.
  Poly dividedExactly(int64_t K) const;

  bool overflowed() const { return Overflow; }
  bool operator==(const Poly &O) const;
  bool operator!=(const Poly &O) const { return !(*this == O); }

  /// True if the value has no symbolic monomial (on the given lanes).
  bool isConcrete(LaneMask Active = AllLanes) const;
  /// True if every lane in Active has the same value (symbolically).
  bool isUniform(LaneMask Active) const;
  /// True if every symbolic monomial has the same coefficient on all Active
  /// lanes: the lanes then differ by known constants.
  bool hasUniformSymbolicPart(LaneMask Active) const;
  /// The per-lane coefficients of the constant monomial.
  LaneInts laneConstants() const;
  /// The symbolic monomials (with the coefficients of lane `Lane`) as a
  /// uniform polynomial, without the constant term.
  Poly symbolicPart(unsigned Lane) const;
  /// gcd of all symbolic coefficients on Active lanes (0 if there are none).
  int64_t symbolicGcd(LaneMask Active) const;
  /// The value on one lane as a uniform polynomial.
  Poly atLane(unsigned Lane) const;
  /// Symbols that appear with a coefficient that differs across Active lanes.
  std::vector<SymbolId> laneVaryingSymbols(LaneMask Active) const;
  std::vector<SymbolId> symbols() const;
  bool mentions(SymbolId S) const;
  /// Replaces symbol S by the polynomial R (which must be uniform).
  Poly substitute(SymbolId S, const Poly &R) const;
  /// Subtracts from each term the same multiple of M times its monomial on
  /// every lane, so that the first active lane's coefficient lies in
  /// [0, M): every lane's value moves by one multiple of M (the symbols
  /// being integers), whatever the symbols are. Costs periodic in M (a
  /// sector, a line, the banks) are the same for both.
  Poly reducedModulo(int64_t M, LaneMask Active) const;

  const std::vector<Term> &terms() const { return Terms; }

  /// Human-readable form of lane `Lane`, e.g. "1024*blockIdx.x + 36".
  std::string str(const SymbolTable &Syms, unsigned Lane) const;
  /// Canonical key of the whole value, for hashing derived symbols.
  std::string key() const;

private:
  void normalize();
  static Poly merged(const Poly &A, const Poly &B, bool Subtract);
  std::vector<Term> Terms; // sorted by monomial, no all-zero coefficients
  bool Overflow = false;
};

/// What we know about a warp-uniform symbol.
enum class SymbolKind {
  BlockIdx,      // blockIdx.{x,y,z}
  GridDim,       // gridDim.{x,y,z} when the launch is unknown
  BlockDim,      // blockDim.{x,y,z} (quotient by 32 for .x) when unknown
  ThreadBase,    // warp-uniform part of threadIdx when the block shape is unknown
  Param,         // a kernel parameter whose value is not known
  LoopIteration, // iteration counter of a loop analysed symbolically
  UniformLoad,   // a value loaded from a warp-uniform address
  Derived,       // floor(S / c), S mod c, ... of a uniform polynomial
  Opaque         // anything else that is warp-uniform but unknown
};

struct SymbolInfo {
  std::string Name; // internal (unique per source construct, for debugging)
  SymbolKind Kind = SymbolKind::Opaque;
  /// If > 0: over the executions the prediction averages (the blocks of a
  /// known grid, the iterations of a loop with a known trip count), the
  /// symbol takes each value RangeStart..RangeStart+Range-1 equally often.
  int64_t UniformRange = 0;
  /// The first value of that range: a run over part of a grid (blocks
  /// RangeStart.. of blockIdx.x) starts above 0.
  int64_t RangeStart = 0;
  /// Known lower bound (symbols are indices: >= 0 unless stated).
  bool NonNegative = true;
  /// The symbol takes only the values 0 and 1 (the parity of a loop's
  /// iteration): any operation of it with known values is exact, as the
  /// line through its results at 0 and 1.
  bool Binary = false;
  /// How messages name the symbol, in the user's terms ("the iteration of
  /// the loop at line 5 (which steps 'j')"); empty: the name, quoted, is the user's spelling (a
  /// parameter, `blockIdx.x`).
  std::string Spelling;
  /// A stated fact (--assume) about a kernel parameter: the symbol is the q
  /// in `Source = Step * q + Offset`, and q >= Min. Source is empty when the
  /// symbol is the value itself (Step 1, Offset 0).
  std::string Source = "";
  int64_t Step = 1, Offset = 0;
  int64_t Min = 0;
  /// A Derived symbol floor((A * P + B) / C) of one kernel parameter P (a
  /// Param symbol) with 0 < A <= C and A * P.Min + B >= 0: as P takes
  /// every value from its lower bound on, the quotient takes every integer
  /// from Min on (each step of P moves it by 0 or 1), so it is as free as a
  /// parameter and a cost may be given as a function of it. P's id.
  std::optional<SymbolId> QuotientOf;
};

/// True for a symbol that takes every integer from its Min on, independently
/// of the other symbols: a kernel parameter, or a quotient of one
/// (SymbolInfo::QuotientOf).
bool isFreeSize(const SymbolInfo &I);

class SymbolTable {
public:
  SymbolId add(SymbolInfo Info);
  const SymbolInfo &get(SymbolId S) const { return Syms[S]; }
  SymbolInfo &get(SymbolId S) { return Syms[S]; }
  size_t size() const { return Syms.size(); }
  /// Returns the symbol registered under Key, creating it with Info if new.
  SymbolId intern(const std::string &Key, SymbolInfo Info);

private:
  std::vector<SymbolInfo> Syms;
  std::unordered_map<std::string, SymbolId> Interned;
};

int64_t gcd64(int64_t A, int64_t B);
/// Floor division and the matching non-negative remainder (for D > 0).
int64_t floorDiv(int64_t A, int64_t D);
int64_t floorMod(int64_t A, int64_t D);

/// The units of UnitBytes bytes (sectors, bank words) that the bytes
/// [Byte, Byte + Width) touch: the first and the last, numbered from address 0.
struct UnitSpan {
  int64_t First = 0, Last = 0;
};
UnitSpan unitsTouched(int64_t Byte, unsigned Width, int64_t UnitBytes);

} // namespace coalesce

#endif // COALESCE_ANALYZER_SUPPORT_POLY_H
