//===- SwizzleProvenance.h - Does an address pass through an XOR? ---------===//
//
// A reader of a tile that a TMA copy wrote with a swizzle must apply the
// same swizzle to its offsets (model/TensorMap.h). Whether a shared load's
// address is computed with an XOR at all is read from the source: the
// expressions it is made of, followed through the local variables it reads
// (their initializers and every assignment to them in the function) and
// into the bodies of the functions it calls.
//
//   NoXor    every value the address is made of is a constant, a built-in
//            index (threadIdx, blockIdx, ...), a kernel parameter, or a
//            local variable computed from those without `^` or `^=` (a
//            helper's parameter: the argument of the call on the stack);
//   HasXor   an XOR is on the way (the reader may apply a swizzle: which
//            one is not read here);
//   Unknown  a value comes from memory, a variable whose address escapes, a
//            parameter of a function that is not the kernel (its caller
//            decides), or the search went deeper than its budget.
//
// Only NoXor is a claim ("this address applies no swizzle").
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AST_SWIZZLEPROVENANCE_H
#define COALESCE_ANALYZER_AST_SWIZZLEPROVENANCE_H

#include <functional>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class BinaryOperator;
class Expr;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace coalesce {

enum class XorProvenance { NoXor, HasXor, Unknown };

/// The argument a parameter of a function on the call stack was given, and
/// the function the call is in (null: not known; the caller decides).
using ArgumentOf = std::function<std::pair<const clang::Expr *, const clang::FunctionDecl *>(
    const clang::ParmVarDecl *)>;

/// How the address of the access at Site (in function Where) is computed;
/// the accessed array or pointer itself is the base, not a value read. A
/// parameter of a helper is followed to the argument ArgOf names.
XorProvenance addressXorProvenance(clang::ASTContext &Ctx, const clang::Expr *Site,
                                   const clang::FunctionDecl *Where, const ArgumentOf &ArgOf = {});

/// The same search, with the XORs it met: the `a ^ b` expressions on the
/// address's way (Xors), and whether any other XOR was (`^=`, an
/// `operator^`, one inside a helper's body: Others).
struct AddressXors {
  XorProvenance P = XorProvenance::Unknown;
  std::vector<const clang::BinaryOperator *> Xors;
  bool Others = false;
  /// The search saw every value the address is made of, each computed one
  /// way (no value from memory, no `?:`, no variable assigned twice): the
  /// XORs met are all there are, each evaluated for this address.
  bool Complete = false;
};
AddressXors addressXors(clang::ASTContext &Ctx, const clang::Expr *Site,
                        const clang::FunctionDecl *Where, const ArgumentOf &ArgOf = {});

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_SWIZZLEPROVENANCE_H
