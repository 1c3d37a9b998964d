//===- Padding.cpp - Padding a shared tile's innermost dimension ----------===//

#include "cost/Padding.h"
#include "ast/AstUtil.h"

#include "interp/Interpreter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>

using namespace clang;

namespace coalesce {

namespace {

constexpr int64_t StaticSharedLimit = 48 * 1024;

const Expr *stripParens(const Expr *E) {
  while (true) {
    if (auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (auto *IC = dyn_cast<ImplicitCastExpr>(E);
             IC && IC->getCastKind() == CK_ArrayToPointerDecay)
      E = IC->getSubExpr();
    else
      return E;
  }
}

/// Every use of VD under S is a full subscript chain of depth Rank whose
/// result is not address-taken.
bool onlyFullySubscripted(const Stmt *Root, const VarDecl *VD, unsigned Rank,
                          std::string &Why) {
  std::vector<const Stmt *> Parents;
  bool Ok = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == VD) {
      // Climb: (decay)(paren)* ArraySubscript whose base is the current node.
      const Stmt *Cur = DR;
      size_t P = Parents.size();
      unsigned Depth = 0;
      while (P > 0 && Depth < Rank) {
        const Stmt *Up = Parents[--P];
        if (isa<ParenExpr>(Up) ||
            (isa<ImplicitCastExpr>(Up) &&
             cast<ImplicitCastExpr>(Up)->getCastKind() == CK_ArrayToPointerDecay)) {
          Cur = Up;
          continue;
        }
        auto *AS = dyn_cast<ArraySubscriptExpr>(Up);
        if (!AS || stripParens(AS->getBase()) != stripParens(cast<Expr>(Cur)))
          break;
        ++Depth;
        Cur = Up;
      }
      if (Depth != Rank) {
        Ok = false;
        Why = "'" + VD->getName().str() +
              "' is used other than through full subscripts";
        return;
      }
      if (P > 0)
        if (auto *UO = dyn_cast<UnaryOperator>(Parents[P - 1]);
            UO && UO->getOpcode() == UO_AddrOf) {
          Ok = false;
          Why = "the address of an element of '" + VD->getName().str() + "' is taken";
          return;
        }
      return;
    }
    Parents.push_back(S);
    for (const Stmt *C : S->children())
      Walk(C);
    Parents.pop_back();
  };
  Walk(Root);
  return Ok;
}

int64_t sharedBytesDeclaredIn(const Stmt *Body, ASTContext &Ctx) {
  int64_t Total = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *V = dyn_cast<VarDecl>(D))
          if (V->hasAttr<CUDASharedAttr>() && !V->hasExternalStorage() &&
              !V->getType()->isIncompleteType())
            Total += Ctx.getTypeSizeInChars(V->getType()).getQuantity();
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Total;
}

} // namespace

PaddingPlan planPadding(ASTContext &Ctx, const VarDecl *VD,
                        const FunctionDecl *Kernel) {
  PaddingPlan Plan;
  QualType T = VD->getType();
  const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T);
  while (CAT) {
    Plan.Dims.push_back(static_cast<int64_t>(CAT->getZExtSize()));
    T = CAT->getElementType();
    CAT = Ctx.getAsConstantArrayType(T);
  }
  if (Plan.Dims.size() < 2 || T->isIncompleteType())
    return Plan;
  Plan.ElemSize = Ctx.getTypeSizeInChars(T).getQuantity();
  if (Plan.ElemSize <= 0)
    return Plan;
  Plan.Pad = Plan.ElemSize >= 4 ? 1 : 4 / Plan.ElemSize;
  Plan.Possible = true;
  // The padded shape in numbers, until the declaration's own text is known.
  Plan.Declaration = VD->getName().str();
  for (size_t I = 0; I < Plan.Dims.size(); ++I)
    Plan.Declaration +=
        "[" + std::to_string(Plan.Dims[I] + (I + 1 == Plan.Dims.size() ? Plan.Pad : 0)) + "]";

  // Safety: every use is a full subscript, in the kernel (function-scope
  // arrays) or anywhere in the translation unit (file-scope ones).
  const Stmt *Root = nullptr;
  if (VD->isLocalVarDecl()) {
    Root = Kernel ? Kernel->getBody() : nullptr;
    if (auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()))
      Root = FD->getBody();
  }
  bool Safe = true;
  if (Root) {
    Safe = onlyFullySubscripted(Root, VD, Plan.Dims.size(), Plan.WhyNot);
  } else {
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody() && Safe)
        Safe = onlyFullySubscripted(FD->getBody(), VD, Plan.Dims.size(), Plan.WhyNot);
  }
  if (!Safe)
    return Plan;

  int64_t Rows = 1;
  for (size_t I = 0; I + 1 < Plan.Dims.size(); ++I)
    Rows *= Plan.Dims[I];
  const int64_t Extra = Rows * Plan.Pad * Plan.ElemSize;
  const int64_t Now = Kernel && Kernel->getBody()
                          ? sharedBytesDeclaredIn(Kernel->getBody(), Ctx)
                          : Ctx.getTypeSizeInChars(VD->getType()).getQuantity();
  if (Now + Extra > StaticSharedLimit) {
    Plan.WhyNot = "padding would need " + std::to_string(Now + Extra) +
                  " bytes of static shared memory (the limit is 48 KiB)";
    return Plan;
  }

  // Where to write the pad: after the innermost size expression.
  const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  if (!TSI)
    return Plan;
  TypeLoc TL = TSI->getTypeLoc();
  std::vector<const Expr *> Sizes;
  while (auto ATL = TL.getAs<ArrayTypeLoc>()) {
    Sizes.push_back(ATL.getSizeExpr());
    TL = ATL.getElementLoc();
  }
  if (Sizes.size() != Plan.Dims.size() || !Sizes.back()) {
    Plan.WhyNot = "the dimensions of '" + VD->getName().str() +
                  "' are not written as array bounds";
    return Plan;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Sizes.back()->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid() || SM.isInSystemHeader(R.getBegin())) {
    Plan.WhyNot = "the innermost size of '" + VD->getName().str() +
                  "' comes from a macro body";
    return Plan;
  }
  // A literal size is rewritten (32 -> 33); an expression gets " + 1".
  const auto *Lit = dyn_cast<IntegerLiteral>(Sizes.back()->IgnoreParenImpCasts());
  const std::string Last = exprText(Ctx, Sizes.back());
  std::string NewLast;
  if (Lit && !Sizes.back()->getBeginLoc().isMacroID() &&
      Last.find_first_not_of("0123456789") == std::string::npos) {
    Plan.InsertPos = sourcePos(Ctx, R.getBegin());
    Plan.RemoveLength = static_cast<unsigned>(Last.size());
    Plan.InsertText = std::to_string(Plan.Dims.back() + Plan.Pad);
    NewLast = Plan.InsertText;
  } else {
    Plan.InsertPos = sourcePos(Ctx, R.getEnd());
    Plan.InsertText = " + " + std::to_string(Plan.Pad);
    NewLast = Last + Plan.InsertText;
  }
  Plan.Declaration = VD->getName().str();
  for (size_t I = 0; I < Sizes.size(); ++I)
    Plan.Declaration +=
        "[" + (I + 1 == Sizes.size() ? NewLast : exprText(Ctx, Sizes[I])) + "]";
  Plan.Editable = true;
  return Plan;
}

Poly paddedOffset(const std::vector<Poly> &Subscripts, const PaddingPlan &Plan) {
  const size_t K = Plan.Dims.size();
  std::vector<int64_t> Stride(K, Plan.ElemSize);
  if (K >= 2)
    Stride[K - 2] = (Plan.Dims[K - 1] + Plan.Pad) * Plan.ElemSize;
  for (size_t D = K >= 2 ? K - 2 : 0; D-- > 0;)
    Stride[D] = Plan.Dims[D + 1] * Stride[D + 1];
  Poly Off;
  for (size_t D = 0; D < K && D < Subscripts.size(); ++D)
    Off = Off + Subscripts[D].scaled(Stride[D]);
  return Off;
}

} // namespace coalesce
