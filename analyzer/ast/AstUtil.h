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

#include <optional>
#include <set>
#include <vector>
#include <string>

namespace clang {
class ASTContext;
class CXXForRangeStmt;
class Stmt;
class VarDecl;
} // namespace clang

namespace coalesce {

/// Source text of a range, trimmed, whitespace runs collapsed (for messages).
std::string exprText(const clang::ASTContext &Ctx, const clang::Expr *E);
/// Where a location is, as the user spelled the file, with its line's text.
SourcePos sourcePos(const clang::ASTContext &Ctx, clang::SourceLocation Begin,
                    clang::SourceLocation End = {});
/// P (a position in the file of Loc) moved to another line of that file:
/// its first non-blank column, that line's text (the compiler witness puts
/// a record on the line nvcc attributes its instruction to).
void moveToLine(const clang::ASTContext &Ctx, clang::SourceLocation Loc, unsigned Line,
                SourcePos &P);
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

/// Whether reading the lvalue E reads a compile-time constant, which the
/// compiler folds into the instruction that uses it: a constexpr variable
/// (a namespace-scope or static member one, `inline constexpr` objects and
/// variable templates included), a const variable with a constant
/// initializer, a static data member of either kind named through an
/// object (`t.I`), a field of such an object (`kCfg.b`), an element of
/// such an array at a constant subscript. Never a memory access, though
/// clang makes such variables implicitly __constant__ in device code.
/// __shared__ variables, and variables of the function being run (Local:
/// the caller knows them), are not.
bool isCompileTimeConstant(const clang::ASTContext &Ctx, const clang::Expr *E);

/// The braced list a range-for runs over (`for (int s : {32, 16, 8})`),
/// if it is one: its elements are values, and the loop's reads of them
/// (`*__begin`) are no memory accesses, as nvcc unrolls it.
const clang::InitListExpr *rangeOverBracedList(const clang::CXXForRangeStmt *RF);

/// Whether VD lives in constant memory: declared __constant__, or made so
/// by clang (a const or constexpr variable used in device code) without a
/// __device__ of its own. A `static const __device__` table (ggml's
/// GGML_TABLE_BEGIN) is in global memory, as nvcc places it, though clang
/// adds an implicit __constant__ to it.
bool isConstantMemoryVar(const clang::VarDecl *VD);
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
///
/// A store through a pointer (`p[i] = v`, `p->x = v`, `*p = v`) changes the
/// memory p points to, never p: p goes to Through (when given), for the
/// caller to decide what that memory is (a local variable whose address p
/// holds, or memory no variable names).
void collectModifiedVars(const clang::Stmt *S, std::set<const clang::VarDecl *> &Out,
                         std::set<const clang::VarDecl *> *Through = nullptr);
/// The variable an assignment to the lvalue E changes (`v`, `v.x`, `a[i]`
/// of a local array `a`), or, when E designates memory reached through a
/// pointer (`p[i]`, `p->x`, `*p`, `a[i][j]` of an array of pointers), null
/// with *ThroughPtr the pointer's own variable (if it has one).
const clang::VarDecl *assignedVar(const clang::Expr *E, const clang::VarDecl **ThroughPtr);

/// N where E is (casts of) __builtin_assume_aligned(p, N), else 0.
int64_t assumedAlignment(const clang::Expr *E, clang::ASTContext &Ctx);
/// The alignment the compiler can prove of a pointer variable's value: its
/// element type's, or the largest __builtin_assume_aligned states where the
/// variable is initialised or assigned in FD (the larger: a merge the
/// compiler may make is not missed).
int64_t statedAlignment(const clang::VarDecl *VD, const clang::FunctionDecl *FD,
                        clang::ASTContext &Ctx);

/// The terms of E's chain of `+` (any nesting, parentheses and implicit
/// casts skipped), left to right: `a + (b + c)` gives a, b, c.
std::vector<const clang::Expr *> additiveTerms(const clang::Expr *E);

/// An index into a one-dimensional array written as a row and a column:
/// the terms of a chain of `+` (any order), one of them `Row * K` or
/// `K * Row` with K an integer constant that divides the array's Size
/// (`As[dotIdx * BM + threadRow * TM + i]`: Row `dotIdx`, K `BM`, the rest
/// `threadRow * TM` and `i`). Of several such products, the largest K.
struct RowSplit {
  const clang::Expr *Row = nullptr;     // X
  const clang::Expr *RowTerm = nullptr; // X * K
  const clang::Expr *Factor = nullptr;  // K as written
  int64_t K = 0;
  std::vector<const clang::Expr *> Rest; // the column's terms
};
std::optional<RowSplit> splitRowIndex(const clang::ASTContext &Ctx, const clang::Expr *Index,
                                      int64_t Size);
/// E reads no memory and has no side effects: evaluating it again changes
/// nothing (locals, parameters, constants, threadIdx and its kin).
bool readsNoMemory(const clang::ASTContext &Ctx, const clang::Expr *E);

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_ASTUTIL_H
