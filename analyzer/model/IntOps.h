//===- IntOps.h - Division, remainder, bit operations and comparisons -----===//
//
// Design note: exact per-lane results for the non-linear integer operations
// that index code uses, on values of the form  v(lane) = S + c(lane)  where S
// is a warp-uniform polynomial and c(lane) is known for each lane (see Poly.h).
//
// Division and remainder by a positive constant C. Let h = gcd(symbolic
// coefficients of S, C), so S is a multiple of h. If h = C, S/C is exact and
//     (S + c) / C = S/C + floor(c / C),   (S + c) % C = c mod C.
// Otherwise, if all c(lane) lie in one window [k*h, (k+1)*h), adding them to
// the multiple of h S + k*h never crosses a multiple of C (h divides C), so the
// quotient is the same warp-uniform value for every lane (a derived symbol) and
// the remainder is a uniform multiple of h plus c(lane) - k*h. This is what
// makes `i / K` and `i % K` exact for i = 4 * (blockIdx.x * 256 + threadIdx.x)
// and K = 4096: S is a multiple of 128 and the lanes span 0..124.
// When lanes straddle such a window the result depends on S and is unknown.
//
// Assumption: index values are non-negative, so C's truncating division and
// remainder agree with floor division (stated in the tool's documentation).
//
// Bit operations with constants reduce to the above (x & (2^k - 1) = x % 2^k,
// x >> k = x / 2^k, x << k = x * 2^k); xor and or of values whose unknown parts
// are multiples of 2^j and whose known parts are below 2^j act on the known
// parts. Comparisons are decided per lane when the difference is known per
// lane, or found warp-uniform (the same unknown outcome for all lanes), or
// else reported as lane-varying-but-unknown (a bounds guard such as i < n).
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_SUPPORT_INTOPS_H
#define COALESCE_ANALYZER_SUPPORT_INTOPS_H

#include "model/Poly.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coalesce {

/// Why a result is not known per lane: a kind of model/IntFailures.def, part
/// of the one list of reasons (report/Reasons.def renders it:
/// makeReason(const IntResult &)).
enum class IntFail {
  None,
#define INT_FAIL(Id, Name, Text) Id,
#include "model/IntFailures.def"
};

struct IntFailure {
  IntFail Kind = IntFail::None;
  std::vector<std::string> Args; // the template's {0}, {1}, ...
};
/// "division-by-zero" or "low-bits-unknown('&')", for test messages.
std::ostream &operator<<(std::ostream &OS, const IntFailure &F);

struct IntResult {
  bool Ok = false;
  Poly P;
  IntFailure Why; // when !Ok: why the result is not known per lane

  static IntResult ok(Poly P) { return {true, std::move(P), {}}; }
  static IntResult fail(IntFail K, std::vector<std::string> Args = {}) {
    return {false, Poly(), {K, std::move(Args)}};
  }
};

IntResult divConst(const Poly &A, int64_t C, LaneMask Active, SymbolTable &Syms);
IntResult remConst(const Poly &A, int64_t C, LaneMask Active, SymbolTable &Syms);
/// A / B and A % B where B may be any value: concrete per lane, or a constant.
IntResult divPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult remPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult shlPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult shrPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult andPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult orPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult xorPoly(const Poly &A, const Poly &B, LaneMask Active, SymbolTable &Syms);
IntResult notPoly(const Poly &A, LaneMask Active);
IntResult minMaxPoly(const Poly &A, const Poly &B, bool IsMax, LaneMask Active,
                     SymbolTable &Syms);
/// The high half of the product of A and B as Bits-bit integers (CUDA's
/// __umulhi, __mulhi for 32; __umul64hi, __mul64hi for 64): per lane when
/// both are known per lane; a warp-uniform value (a derived symbol) when
/// both are warp-uniform; otherwise not known per lane.
IntResult mulHiPoly(const Poly &A, const Poly &B, unsigned Bits, bool Signed, LaneMask Active,
                    SymbolTable &Syms);

enum class CmpOp { LT, LE, GT, GE, EQ, NE };
CmpOp swapCmp(CmpOp Op);   // a < b  <=>  b > a
CmpOp negateCmp(CmpOp Op); // !(a < b) <=> a >= b
const char *cmpSpelling(CmpOp Op);

struct CmpResult {
  enum Kind {
    Lanes,   // known for each lane: True holds the lanes where it holds
    Uniform, // the same (unknown) outcome on every active lane
    Varying  // differs between lanes in a way that depends on unknown values
  } K = Varying;
  LaneMask True = 0;
  /// Uniform: True holds the lanes where it holds when the unknown outcome
  /// is "holds"; TrueOtherwise those where it still holds when the outcome
  /// is "fails" (`2*n + (lane & 1) != 0` fails only on the even lanes).
  LaneMask TrueOtherwise = 0;
};

CmpResult comparePoly(const Poly &L, const Poly &R, CmpOp Op, LaneMask Active);

/// The inclusive range [first, last] a symbol takes, if known.
using SymbolRange =
    std::function<std::optional<std::pair<int64_t, int64_t>>(SymbolId)>;

/// `L OP R` where every symbol of L - R has a known range and appears alone
/// in its terms (blockIdx.x over the blocks of a launch being run): either
/// the lanes on which it holds for every value in the ranges (Decided), or
/// where to cut the ranges so that it becomes decided on each part (Split):
/// `256 * blockIdx.x + lane < 1000` over blocks [0, 4) holds on every lane
/// of blocks 0..2 and on lanes 0..7 of warp 7 of block 3, so the cut is at
/// blockIdx.x = 3. Unsupported: some term is not of that form.
struct RangeCmp {
  enum Kind { Decided, Split, Unsupported } K = Unsupported;
  LaneMask True = 0;
  /// Split: (symbol, v): cut its range into [first, v) and [v, last].
  std::vector<std::pair<SymbolId, int64_t>> Cuts;
};

RangeCmp compareOverRanges(const Poly &L, const Poly &R, CmpOp Op,
                           LaneMask Active, const SymbolRange &RangeOf);

} // namespace coalesce

#endif // COALESCE_ANALYZER_SUPPORT_INTOPS_H
