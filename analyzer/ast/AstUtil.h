//===- AstUtil.h - Small helpers over clang's AST, shared by all stages ---===//
//
// Source positions and text for messages, the ways of looking through
// implicit nodes, and the walker that finds which variables a statement
// modifies. Every stage that reads the AST (launch/, interp/, cost/) uses
// these, so that each question has one answer.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AST_ASTUTIL_H
#define COALESCE_ANALYZER_AST_ASTUTIL_H

#include "report/Report.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"

#include <set>
#include <string>

namespace clang {
class ASTContext;
class Stmt;
class VarDecl;
} // namespace clang

namespace coalesce {

/// Source text of a range, trimmed, whitespace runs collapsed (for messages).
std::string exprText(const clang::ASTContext &Ctx, const clang::Expr *E);
/// Where a location is, as the user spelled the file, with its line's text.
SourcePos sourcePos(const clang::ASTContext &Ctx, clang::SourceLocation Begin,
                    clang::SourceLocation End = {});
/// "42": the line of a location, for messages.
std::string lineOf(const clang::ASTContext &Ctx, clang::SourceLocation L);
/// "f.cu:42": the file's base name and line.
std::string fileLine(const clang::ASTContext &Ctx, clang::SourceLocation L);

/// Looks through parentheses, implicit casts and full-expression wrappers:
/// the expression as written.
const clang::Expr *skipCastsAndParens(const clang::Expr *E);
/// Also through the nodes that carry a value unchanged (temporaries,
/// default arguments, substituted template parameters, the constructor call
/// of a functional cast such as `dim3(n)`): the expression that computes it.
const clang::Expr *skipToValue(const clang::Expr *E);
/// The variable an lvalue is part of (`v`, `v.x`, `v[i]`), if any.
const clang::VarDecl *rootVar(const clang::Expr *E);
/// Whether two lvalues are written alike (clang's structural profile, with
/// parentheses and implicit casts ignored): the test nvcc's value numbering
/// can pass at compile time, unlike the same address in one warp.
bool sameLValue(const clang::ASTContext &Ctx, const clang::Expr *A, const clang::Expr *B);
/// A call that orders memory or threads, or exchanges data between lanes:
/// barriers, fences, atomics, warp shuffles, votes and matches, clocks,
/// printf and traps (by the callee's name, as CUDA's headers spell them).
/// nvcc does not move or merge memory accesses across one.
bool ordersMemory(const clang::FunctionDecl *FD);

bool isIntegral(clang::QualType T);
/// True if S contains a return, break or continue that retires lanes.
bool retiresLanes(const clang::Stmt *S);

/// True if the body of a loop can leave the loop before its condition ends
/// it: a `break` of this loop, a `return` or a `goto` in it.
bool leavesLoopEarly(const clang::Stmt *Body);

/// Variables whose value S may change in any way: assigned whole or in
/// part, passed by non-const reference, bound to a non-const reference, or
/// (integers) whose address is taken. The one answer to "what does this
/// code change" for the host evaluator (launch/) and for the loops of the
/// interpreter (the candidates for induction variables).
void collectModifiedVars(const clang::Stmt *S, std::set<const clang::VarDecl *> &Out);

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_ASTUTIL_H
