//===- AffineLoop.h - Loops whose iterations differ only by a shift -------===//
//
// A loop run iteration by iteration issues, in iteration k, the requests of
// iteration 0 moved by k times a fixed distance when nothing it decides
// depends on k: no condition it evaluates reads a value that changes from
// one iteration to the next, and such values reach addresses only through
// sums, products with values that do not change, and left shifts by them.
// Then the walker may run a few iterations, check that they are alike, and
// issue the others without running them (interp/LoopSummary.cpp): exact,
// and the answer for a loop of 768 iterations costs what 40 cost.
//
// This file decides the syntactic half, once per loop: which variables
// change between iterations (the loop's own counters and everything
// computed from them), and whether every use of them is one of the above.
// The walker checks the other half on the values it sees.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AST_AFFINELOOP_H
#define COALESCE_ANALYZER_AST_AFFINELOOP_H

#include <string>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace coalesce {

/// Whether every iteration of the loop with this body and increment runs
/// the same statements on the same lanes, with integer and pointer values
/// affine in the iteration (see above). Why (when given) says what stops it,
/// for the tests: "the condition at line 7 reads 'j'".
bool iterationsAlike(const clang::Stmt *Body, const clang::Stmt *Inc,
                     const clang::ASTContext &Ctx, std::string *Why = nullptr);

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_AFFINELOOP_H
