//===- HostValue.h - Values of the host-code evaluator ---------------------===//
//
// The host evaluator (HostInterp.h) runs the host code of a .cu file
// abstractly, to learn what each kernel launch passes. Its values:
//
//   Int     a known integer of any C++ integer type, held as __int128 so that
//           every int64 and uint64 value fits; conversions wrap or check as
//           the target type does (signed overflow is undefined: unknown).
//   Float   a known float or double, computed in the precision of its type.
//   Sym     an affine function Mul * S + I of one unknown integer S, valid
//           while the result stays inside [Lo, Hi] (the ranges of the integer
//           types it passed through; outside them the program's value wraps,
//           and the form says nothing). An unknown integer read from a
//           variable becomes a fresh symbol that is stored back, so copies of
//           it stay tied to it: `dim3 b(threads); switch (threads) { case 512:`
//           binds S = 512 on that path, and b.x resolves to 512 there.
//   Ptr     a pointer to memory the program allocated (cudaMalloc, malloc, a
//           pointer of unknown origin, as a kernel's pointer parameters are
//           assumed to be), at a known byte offset I from its start.
//   Addr    the address of (a part of) a host variable: a Loc.
//   Agg     a struct (fields in declaration order) or an array, element-wise.
//   Func    a function (a kernel: `(void *)kernel`, a function pointer).
//   Lambda  a closure: its by-copy captures (Elems) and by-reference ones (Refs).
//   Unknown anything else, with the reason (Why) for messages.
//
// Worked example: `int t = argc > 1 ? 256 : 128; dim3 b(t);` -- t is a join
// of 256 and 128, unknown; the first read of t makes it S0; b = {S0 in
// [0, INT_MAX], 1, 1}; inside `if (t == 128)`, S0 = 128 and b = (128, 1, 1).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCH_HOSTVALUE_H
#define COALESCE_ANALYZER_LAUNCH_HOSTVALUE_H

#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class VarDecl;
}

namespace coalesce {
namespace host {

using Wide = __int128;
using SymId = uint32_t;
/// Index into the evaluator's table of reasons (0: none given).
using WhyId = uint32_t;

/// An integer type: its width in bits and signedness (bool: width 1).
struct IntType {
  unsigned Width = 32;
  bool Signed = true;
  bool Bool = false;
  Wide min() const;
  Wide max() const;
  bool fits(Wide V) const { return V >= min() && V <= max(); }
  /// V converted to this type (modulo 2^Width; bool: V != 0).
  Wide wrap(Wide V) const;
};

/// One step into an aggregate: element Index of Count (fields of a struct in
/// declaration order, or elements of an array: Elem, where pointer
/// arithmetic may move along).
struct PathStep {
  uint32_t Index = 0, Count = 0;
  bool Elem = false;
  bool operator==(const PathStep &O) const {
    return Index == O.Index && Count == O.Count && Elem == O.Elem;
  }
};

/// Where a host object lives: a cell of the walk's stack, or a global
/// variable, and the path to the part of it.
struct Loc {
  uint32_t Cell = 0;
  const clang::VarDecl *Global = nullptr;
  llvm::SmallVector<PathStep, 2> Path;
  bool operator==(const Loc &O) const {
    return Cell == O.Cell && Global == O.Global && Path == O.Path;
  }
  bool operator!=(const Loc &O) const { return !(*this == O); }
};

struct HVal {
  enum Kind : uint8_t { Unknown, Int, Float, Sym, Ptr, Addr, Agg, Func, Lambda };
  Kind K = Unknown;
  Wide I = 0;    // Int: the value; Sym: the constant term; Ptr: byte offset
  double F = 0;  // Float
  SymId S = 0;   // Sym
  Wide Mul = 1;  // Sym
  Wide Lo = 0, Hi = 0; // Sym: where the affine form is valid
  WhyId Why = 0; // Unknown, Sym: where the unknown comes from
  Loc A;         // Addr
  std::vector<HVal> Elems; // Agg; Lambda: by-copy captures
  std::vector<Loc> Refs;   // Lambda: by-reference captures
  const void *Decl = nullptr; // Func: FunctionDecl; Lambda: LambdaExpr

  static HVal unknown(WhyId Why = 0) {
    HVal V;
    V.Why = Why;
    return V;
  }
  static HVal integer(Wide I) {
    HVal V;
    V.K = Int;
    V.I = I;
    return V;
  }
  static HVal floating(double F) {
    HVal V;
    V.K = Float;
    V.F = F;
    return V;
  }
  static HVal symbol(SymId S, const IntType &T, WhyId Why) {
    HVal V;
    V.K = Sym;
    V.S = S;
    V.Lo = T.min();
    V.Hi = T.max();
    V.Why = Why;
    return V;
  }
  static HVal pointer(Wide Offset) {
    HVal V;
    V.K = Ptr;
    V.I = Offset;
    return V;
  }
  static HVal address(Loc L) {
    HVal V;
    V.K = Addr;
    V.A = std::move(L);
    return V;
  }
  static HVal function(const void *FD) {
    HVal V;
    V.K = Func;
    V.Decl = FD;
    return V;
  }
  static HVal aggregate(size_t N, WhyId Why = 0) {
    HVal V;
    V.K = Agg;
    V.Elems.assign(N, unknown(Why));
    return V;
  }

  bool isInt() const { return K == Int; }
  bool isUnknown() const { return K == Unknown; }
  bool operator==(const HVal &O) const;
  bool operator!=(const HVal &O) const { return !(*this == O); }
};

/// Values of the symbols a path has learnt (`case 512:` binds S = 512).
using Bindings = std::map<SymId, Wide>;

/// V with every bound symbol replaced by its value (an Int where the affine
/// form is valid for it, else unknown).
HVal resolve(const HVal &V, const Bindings &B);

/// V converted to the integer type T: Int wraps, Sym narrows its valid range,
/// Float truncates toward zero (unknown when out of range).
HVal toInt(const HVal &V, const IntType &T);
/// V converted to float (Single) or double.
HVal toFloat(const HVal &V, bool Single);

/// L op R for integer operands already converted to their common type T (the
/// result of a comparison is 0 or 1 in Result). Unknown when an operand is,
/// on signed overflow, division by zero or an out-of-range shift.
HVal intBinary(clang::BinaryOperatorKind Op, const HVal &L, const HVal &R,
               const IntType &T, const IntType &Result, WhyId Fallback);
HVal floatBinary(clang::BinaryOperatorKind Op, const HVal &L, const HVal &R, bool Single,
                 WhyId Fallback);

/// The join of two values at a merge of paths: the value if both agree,
/// else unknown for Why.
HVal join(const HVal &A, const HVal &B, WhyId Why);

/// The symbol value a Sym must take for V == C, if V is such a form and C is
/// inside its valid range.
std::optional<std::pair<SymId, Wide>> solveEquals(const HVal &V, Wide C);

} // namespace host
} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCH_HOSTVALUE_H
