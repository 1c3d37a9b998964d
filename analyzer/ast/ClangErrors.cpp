//===- ClangErrors.cpp - Which functions a clang error touches ------------===//

#include "ast/ClangErrors.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <deque>
#include <set>

using namespace clang;

namespace coalesce {

namespace {

/// The functions a body calls (directly, through constructors, operators and
/// lambdas), and the first thing in it that clang could not compile.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  std::vector<const FunctionDecl *> Callees;
  const Expr *BadExpr = nullptr;
  const ValueDecl *BadDecl = nullptr;
  SourceLocation BadDeclUse;

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitExpr(Expr *E) {
    if (!BadExpr && E->containsErrors())
      BadExpr = E; // the outermost one: visited before its children
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const ValueDecl *D = DR->getDecl(); !BadDecl && D->isInvalidDecl()) {
      BadDecl = D;
      BadDeclUse = DR->getLocation();
    }
    if (auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()))
      Callees.push_back(FD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (!BadDecl && VD->isInvalidDecl()) {
      BadDecl = VD;
      BadDeclUse = VD->getLocation();
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      Callees.push_back(FD);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    Callees.push_back(CE->getConstructor());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    Callees.push_back(LE->getCallOperator());
    return true;
  }
};

SourceRange fileRange(const SourceManager &SM, SourceRange R) {
  return {SM.getExpansionLoc(R.getBegin()), SM.getExpansionRange(R.getEnd()).getEnd()};
}

} // namespace

struct CodeErrors::Scan : BodyScan {};

CodeErrors::CodeErrors(ASTContext &Ctx, const std::vector<ClangError> *Errors)
    : Ctx(Ctx), Errors(Errors ? *Errors : std::vector<ClangError>()),
      Any(!Errors || !Errors->empty()) {}

CodeErrors::~CodeErrors() = default;

const CodeErrors::Scan &CodeErrors::scan(const FunctionDecl *Def) {
  std::unique_ptr<Scan> &S = Scans[Def];
  if (!S) {
    S = std::make_unique<Scan>();
    S->TraverseDecl(const_cast<FunctionDecl *>(Def));
  }
  return *S;
}

std::optional<ErrorInCode> CodeErrors::firstErrorIn(const FunctionDecl *Kernel) {
  if (!Any)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  // The kernel and everything it calls, nearest first.
  std::vector<std::pair<const FunctionDecl *, const Scan *>> Fns;
  std::set<const FunctionDecl *> Seen;
  std::deque<const FunctionDecl *> Work{Kernel};
  constexpr size_t MaxFunctions = 4096;
  while (!Work.empty() && Fns.size() < MaxFunctions) {
    const FunctionDecl *FD = Work.front();
    Work.pop_front();
    const FunctionDecl *Def = nullptr;
    if (!FD)
      continue;
    if (!FD->getBody(Def) || !Def) {
      // A template instantiation clang gave up on has no body: its error
      // lies in the template's code, which the instantiation's extent spans.
      if (FD->isInvalidDecl() && FD->getTemplateInstantiationPattern() &&
          Seen.insert(FD).second)
        Fns.emplace_back(FD, nullptr);
      continue;
    }
    if (!Seen.insert(Def).second)
      continue;
    const Scan &S = scan(Def);
    Fns.emplace_back(Def, &S);
    for (const FunctionDecl *C : S.Callees)
      Work.push_back(C);
  }

  auto Make = [&](SourceLocation L, std::string Msg, const FunctionDecl *FD) {
    ErrorInCode E;
    E.Pos = sourcePos(Ctx, L);
    E.Message = std::move(Msg);
    E.Function = FD->getNameAsString();
    return E;
  };
  // An error clang reported inside one of them (the function's whole
  // extent: a bad parameter type counts too).
  for (const auto &[FD, S] : Fns) {
    const SourceRange R = fileRange(SM, FD->getSourceRange());
    const ClangError *First = nullptr;
    for (const ClangError &E : Errors) {
      if (E.Loc.isInvalid())
        continue;
      SourceLocation L = SM.getExpansionLoc(E.Loc);
      if (!SM.isPointWithin(L, R.getBegin(), R.getEnd()))
        continue;
      if (!First || SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(First->Loc)))
        First = &E;
    }
    if (First)
      return Make(SM.getExpansionLoc(First->Loc), First->Message, FD);
  }
  // What clang left where it recovered from an error it did not report to
  // us (another front end, or after a fatal error).
  for (const auto &[FD, S] : Fns) {
    if (FD->isInvalidDecl())
      return Make(FD->getLocation(),
                  "invalid declaration of '" + FD->getNameAsString() + "'", FD);
    if (!S)
      continue;
    if (S->BadDecl)
      return Make(S->BadDeclUse,
                  "invalid declaration of '" + S->BadDecl->getNameAsString() + "'", FD);
    if (S->BadExpr)
      return Make(S->BadExpr->getBeginLoc(),
                  "clang could not compile `" + exprText(Ctx, S->BadExpr) + "`", FD);
  }
  return std::nullopt;
}

} // namespace coalesce
