//===- LayoutEdits.cpp - Where a shared array's layout is written ---------===//

#include "cost/LayoutEdits.h"
#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <set>

using namespace clang;

namespace coalesce {

namespace {

const Expr *skipParensAndDecay(const Expr *E) {
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

/// T needs no parentheses around it: a name or a number, or a text in
/// parentheses that close at its end (`(c * 4 + 1)`).
bool simpleText(const std::string &T) {
  if (T.empty())
    return false;
  if (T.front() == '(' && T.back() == ')') {
    int Depth = 0;
    for (size_t I = 0; I < T.size(); ++I) {
      Depth += T[I] == '(' ? 1 : T[I] == ')' ? -1 : 0;
      if (Depth == 0 && I + 1 < T.size())
        return false;
    }
    return Depth == 0;
  }
  for (char C : T)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_' && C != '.')
      return false;
  return true;
}

/// The source range of E in the file, when it is the user's text.
CharSourceRange userRange(ASTContext &Ctx, const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid() || SM.isInSystemHeader(R.getBegin()))
    return CharSourceRange();
  return R;
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

bool usesCute(ASTContext &Ctx) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (auto *NS = dyn_cast<NamespaceDecl>(D); NS && NS->getName() == "cute")
      return true;
  return false;
}

/// Records the uses of VD under Root in Plan: the subscripts of each, and
/// what keeps a layout edit from being correct.
class UseWalker {
public:
  UseWalker(ASTContext &Ctx, const VarDecl *VD, ArrayEditPlan &Plan)
      : Ctx(Ctx), VD(VD), Plan(Plan),
        Rank(Plan.RowLength ? 1u : static_cast<unsigned>(Plan.Shape.Dims.size())) {}

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == VD) {
      use(DR);
      return;
    }
    Parents.push_back(S);
    for (const Stmt *C : S->children())
      walk(C);
    Parents.pop_back();
  }

private:
  void notEditable(const std::string &Why) {
    if (Plan.PadWhyNot.empty())
      Plan.PadWhyNot = Why;
    if (Plan.SwizzleWhyNot.empty())
      Plan.SwizzleWhyNot = Why;
  }
  std::string lineOf(const Stmt *S) const {
    return std::to_string(Ctx.getSourceManager().getPresumedLineNumber(S->getBeginLoc()));
  }
  /// The parent of the node at Parents[P] (P counts from the top of the
  /// stack: the node's own parent is Parents[Parents.size() - 1]).
  void use(const DeclRefExpr *DR) {
    const std::string Name = "'" + VD->getName().str() + "'";
    const Expr *Cur = DR;
    size_t P = Parents.size();
    unsigned Depth = 0;
    std::vector<const ArraySubscriptExpr *> Chain;
    while (P > 0 && Depth < Rank) {
      const Stmt *Up = Parents[P - 1];
      if (isa<ParenExpr>(Up) ||
          (isa<ImplicitCastExpr>(Up) &&
           cast<ImplicitCastExpr>(Up)->getCastKind() == CK_ArrayToPointerDecay)) {
        Cur = cast<Expr>(Up);
        --P;
        continue;
      }
      auto *AS = dyn_cast<ArraySubscriptExpr>(Up);
      if (!AS || skipParensAndDecay(AS->getBase()) != skipParensAndDecay(Cur))
        break;
      Chain.push_back(AS);
      ++Depth;
      Cur = AS;
      --P;
    }
    if (Depth != Rank) {
      notEditable(Name + " is used other than through full subscripts (line " + lineOf(DR) + ")");
      return;
    }
    // What the element is used for: a value, or an address reached as it is.
    size_t Q = P;
    while (Q > 0 && isa<ParenExpr>(Parents[Q - 1]))
      --Q;
    if (Q > 0)
      if (auto *UO = dyn_cast<UnaryOperator>(Parents[Q - 1]);
          UO && UO->getOpcode() == UO_AddrOf) {
        const Expr *Ptr = UO;
        size_t R = Q - 1;
        while (R > 0 && (isa<ParenExpr>(Parents[R - 1]) || isa<CastExpr>(Parents[R - 1]))) {
          Ptr = cast<Expr>(Parents[R - 1]);
          --R;
        }
        const Stmt *User = R > 0 ? Parents[R - 1] : nullptr;
        bool AtElement = false;
        if (auto *D = dyn_cast_or_null<UnaryOperator>(User))
          AtElement = D->getOpcode() == UO_Deref;
        else if (auto *M = dyn_cast_or_null<MemberExpr>(User))
          AtElement = M->isArrow();
        else if (auto *S = dyn_cast_or_null<ArraySubscriptExpr>(User)) {
          Expr::EvalResult V;
          AtElement = S->getBase()->IgnoreParenCasts() == Ptr->IgnoreParenCasts() &&
                      !S->getIdx()->isValueDependent() &&
                      S->getIdx()->EvaluateAsInt(V, Ctx) && V.Val.getInt() == 0;
        }
        if (!AtElement) {
          const Stmt *Shown = User ? User : UO;
          notEditable("line " + lineOf(UO) + " uses the address of an element of " + Name +
                      " as a pointer (`" +
                      (isa<Expr>(Shown) ? exprText(Ctx, cast<Expr>(Shown)) : std::string()) +
                      "`), which a new layout would not move: subscript the element it "
                      "reaches instead (`&" + VD->getName().str() + "[...][...]`, dereferenced)");
          return;
        }
      }
    if (Plan.RowLength) {
      useOneDim(Chain.back());
      return;
    }
    // The innermost subscript is Chain.back(), the row's the one before.
    const ArraySubscriptExpr *Col = Chain.back(), *Row = Chain[Chain.size() - 2];
    CharSourceRange CR = userRange(Ctx, Col->getIdx());
    if (CR.isInvalid() || Col->getBeginLoc().isMacroID()) {
      if (Plan.SwizzleWhyNot.empty())
        Plan.SwizzleWhyNot = "the subscripts of " + Name + " at line " + lineOf(Col) +
                             " are written by a macro";
      return;
    }
    if (Row->getIdx()->HasSideEffects(Ctx)) {
      if (Plan.SwizzleWhyNot.empty())
        Plan.SwizzleWhyNot = "the row subscript of " + Name + " at line " + lineOf(Row) +
                             " has side effects (a swizzle would repeat it)";
      return;
    }
    ArrayEditPlan::Use U;
    U.ColPos = sourcePos(Ctx, CR.getBegin());
    const SourceManager &SM = Ctx.getSourceManager();
    U.ColLength = SM.getFileOffset(CR.getEnd()) - SM.getFileOffset(CR.getBegin());
    U.ColText = exprText(Ctx, Col->getIdx());
    U.RowText = exprText(Ctx, Row->getIdx());
    U.ColSimple = simpleText(U.ColText);
    U.RowSimple = simpleText(U.RowText);
    U.ColTerms = columnTerms(additiveTerms(Col->getIdx()));
    Plan.Uses.push_back(std::move(U));
  }

  /// The terms of a column with what is proven of their values
  /// (ArrayEditPlan::Use::Term).
  std::vector<ArrayEditPlan::Use::Term> columnTerms(const std::vector<const Expr *> &Terms) const {
    std::vector<ArrayEditPlan::Use::Term> Out;
    for (const Expr *T : Terms) {
      ArrayEditPlan::Use::Term W;
      W.Text = exprText(Ctx, T);
      W.Align = termAlign(T, 0);
      W.Max = termMax(T);
      Out.push_back(std::move(W));
    }
    return Out;
  }

  /// The largest power of two (up to 2^20) every value of E is proven a
  /// multiple of: from constants, products, shifts by constants, sums,
  /// bitwise operations and constant locals' initialisers.
  int64_t termAlign(const Expr *E, unsigned Depth) const {
    constexpr int64_t Cap = int64_t(1) << 20;
    E = E->IgnoreParens();
    // Integer conversions keep the low bits.
    while (auto *CE = dyn_cast<CastExpr>(E)) {
      if (!isIntegral(CE->getType()) || !isIntegral(CE->getSubExpr()->getType()))
        return 1;
      E = CE->getSubExpr()->IgnoreParens();
    }
    if (Depth > 16 || E->isValueDependent() || !isIntegral(E->getType()))
      return 1;
    Expr::EvalResult V;
    if (E->EvaluateAsInt(V, Ctx)) {
      const uint64_t C = V.Val.getInt().getZExtValue();
      return C == 0 ? Cap : std::min<int64_t>(Cap, int64_t(C & (~C + 1)));
    }
    if (auto *BO = dyn_cast<BinaryOperator>(E)) {
      const int64_t A = termAlign(BO->getLHS(), Depth + 1);
      switch (BO->getOpcode()) {
      case BO_Shl: {
        Expr::EvalResult K;
        if (!BO->getRHS()->isValueDependent() && BO->getRHS()->EvaluateAsInt(K, Ctx) &&
            K.Val.getInt().getSExtValue() >= 0 && K.Val.getInt().getSExtValue() < 32)
          return std::min(Cap, A << K.Val.getInt().getSExtValue());
        return 1;
      }
      case BO_Mul:
        return std::min(Cap, A * termAlign(BO->getRHS(), Depth + 1));
      case BO_Add:
      case BO_Sub:
      case BO_Or:
      case BO_Xor:
        return std::min(A, termAlign(BO->getRHS(), Depth + 1));
      case BO_And:
        return std::max(A, termAlign(BO->getRHS(), Depth + 1));
      default:
        return 1;
      }
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E))
      if (auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->hasLocalStorage() && V->getType().isConstQualified() && V->getInit())
        return termAlign(V->getInit(), Depth + 1);
    return 1;
  }

  /// The largest value of E when it only takes values in [0, Max]: a
  /// constant, or the counter of an enclosing loop `for (T i = A; i < N;
  /// ++i)` (or `i <= N`, `i += C`; A >= 0, N and C > 0 constants) that its
  /// body does not change; -1 otherwise.
  int64_t termMax(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (E->isValueDependent() || !isIntegral(E->getType()))
      return -1;
    Expr::EvalResult V;
    if (E->EvaluateAsInt(V, Ctx))
      return V.Val.getInt().isSigned() && V.Val.getInt().isNegative()
                 ? -1
                 : int64_t(std::min<uint64_t>(V.Val.getInt().getZExtValue(), INT32_MAX));
    auto *DR = dyn_cast<DeclRefExpr>(E);
    auto *Var = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!Var || !Var->getInit())
      return -1;
    auto Constant = [&](const Expr *X) -> std::optional<int64_t> {
      Expr::EvalResult R;
      if (!X || X->isValueDependent() || !X->EvaluateAsInt(R, Ctx))
        return std::nullopt;
      return R.Val.getInt().getSExtValue();
    };
    for (const Stmt *P : Parents) {
      auto *For = dyn_cast<ForStmt>(P);
      auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
      if (!Init || !Init->isSingleDecl() || Init->getSingleDecl() != Var)
        continue;
      const std::optional<int64_t> Start = Constant(Var->getInit());
      auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
      if (!Start || *Start < 0 || !Cond ||
          (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
        return -1;
      auto *L = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
      const std::optional<int64_t> End = Constant(Cond->getRHS());
      if (!L || L->getDecl() != Var || !End)
        return -1;
      const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
      bool Steps = false;
      if (auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
        Steps = UO->isIncrementOp() && isa<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()) &&
                cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts())->getDecl() == Var;
      else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
        auto *T = dyn_cast<DeclRefExpr>(CA->getLHS()->IgnoreParenImpCasts());
        const std::optional<int64_t> Step = Constant(CA->getRHS());
        Steps = CA->getOpcode() == BO_AddAssign && T && T->getDecl() == Var && Step && *Step > 0;
      }
      std::set<const VarDecl *> Changed;
      collectModifiedVars(For->getBody(), Changed);
      if (!Steps || Changed.count(Var))
        return -1;
      const int64_t Last = Cond->getOpcode() == BO_LT ? *End - 1 : *End;
      return std::max(*Start, Last);
    }
    return -1;
  }

  /// A use of a one-dimensional array: its index must split as `row * K +
  /// rest` with the plan's K, in the user's text.
  void useOneDim(const ArraySubscriptExpr *AS) {
    const std::string Name = "'" + VD->getName().str() + "'";
    const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
    std::optional<RowSplit> Split =
        splitRowIndex(Ctx, AS->getIdx(), static_cast<int64_t>(CAT->getZExtSize()));
    if (!Split || Split->K != Plan.RowLength) {
      notEditable("the index of " + Name + " at line " + lineOf(AS) + " is not written `row * " +
                  std::to_string(Plan.RowLength) + " + column`");
      return;
    }
    CharSourceRange IR = userRange(Ctx, AS->getIdx()), FR = userRange(Ctx, Split->Factor);
    // The factor may be a whole macro (`TILE`): its name is rewritten.
    if (IR.isInvalid() || FR.isInvalid() || AS->getIdx()->getBeginLoc().isMacroID()) {
      notEditable("the index of " + Name + " at line " + lineOf(AS) + " is written by a macro");
      return;
    }
    if (Split->Row->HasSideEffects(Ctx)) {
      notEditable("the row of " + Name + " at line " + lineOf(AS) +
                  " has side effects (a layout would repeat it)");
      return;
    }
    const SourceManager &SM = Ctx.getSourceManager();
    ArrayEditPlan::Use U;
    U.IndexPos = sourcePos(Ctx, IR.getBegin());
    U.IndexLength = SM.getFileOffset(IR.getEnd()) - SM.getFileOffset(IR.getBegin());
    U.FactorPos = sourcePos(Ctx, FR.getBegin());
    U.FactorLength = SM.getFileOffset(FR.getEnd()) - SM.getFileOffset(FR.getBegin());
    U.FactorText = exprText(Ctx, Split->Factor);
    U.RowTermText = exprText(Ctx, Split->RowTerm);
    U.RowText = exprText(Ctx, Split->Row);
    U.RowSimple = simpleText(U.RowText);
    for (const Expr *T : Split->Rest)
      U.ColText += (U.ColText.empty() ? "" : " + ") + exprText(Ctx, T);
    U.ColSimple = Split->Rest.size() <= 1 && simpleText(U.ColText);
    U.ColTerms = columnTerms(Split->Rest);
    Plan.Uses.push_back(std::move(U));
  }

  ASTContext &Ctx;
  const VarDecl *VD;
  ArrayEditPlan &Plan;
  unsigned Rank;
  std::vector<const Stmt *> Parents;
};

} // namespace

bool layoutSearchable(ASTContext &Ctx, const VarDecl *VD) {
  if (!VD || !VD->hasAttr<CUDASharedAttr>() || VD->hasExternalStorage())
    return false;
  QualType T = VD->getType();
  const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T);
  if (!CAT)
    return false;
  while (CAT) {
    T = CAT->getElementType();
    CAT = Ctx.getAsConstantArrayType(T);
  }
  return !T->isIncompleteType() && !T->isDependentType();
}

std::optional<ArrayShape> sharedArrayShape(ASTContext &Ctx, const VarDecl *VD,
                                           int64_t RowLength) {
  if (!layoutSearchable(Ctx, VD))
    return std::nullopt;
  ArrayShape S;
  QualType T = VD->getType();
  const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T);
  while (CAT) {
    S.Dims.push_back(static_cast<int64_t>(CAT->getZExtSize()));
    T = CAT->getElementType();
    CAT = Ctx.getAsConstantArrayType(T);
  }
  if (S.Dims.size() == 1 && RowLength > 1 && S.Dims[0] % RowLength == 0)
    S.Dims = {S.Dims[0] / RowLength, RowLength};
  if (S.Dims.size() < 2)
    return std::nullopt;
  S.ElemSize = Ctx.getTypeSizeInChars(T).getQuantity();
  if (S.ElemSize <= 0)
    return std::nullopt;
  return S;
}

std::shared_ptr<const ArrayEditPlan> planLayoutEdits(ASTContext &Ctx, const VarDecl *VD,
                                                     const FunctionDecl *Kernel,
                                                     int64_t RowLength) {
  std::optional<ArrayShape> Shape = sharedArrayShape(Ctx, VD, RowLength);
  if (!Shape)
    return nullptr;
  auto Plan = std::make_shared<ArrayEditPlan>();
  if (Ctx.getAsConstantArrayType(VD->getType()) &&
      !Ctx.getAsConstantArrayType(Ctx.getAsConstantArrayType(VD->getType())->getElementType()))
    Plan->RowLength = Shape->Dims.back();
  Plan->Name = VD->getName().str();
  Plan->DeclPos = sourcePos(Ctx, VD->getLocation());
  Plan->Key = Plan->DeclPos.str() + " " + Plan->Name;
  Plan->Shape = *Shape;
  Plan->UsesCute = usesCute(Ctx);

  // The uses: in the function that declares the array, or anywhere in the
  // translation unit for a file-scope one.
  UseWalker W(Ctx, VD, *Plan);
  if (VD->isLocalVarDecl()) {
    if (auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()))
      W.walk(FD->getBody());
  } else {
    std::function<void(const DeclContext *)> Each = [&](const DeclContext *DC) {
      for (const Decl *D : DC->decls()) {
        if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
          W.walk(FD->getBody());
        else if (auto *FT = dyn_cast<FunctionTemplateDecl>(D); FT && FT->getTemplatedDecl()->hasBody())
          W.walk(FT->getTemplatedDecl()->getBody());
        else if (auto *NS = dyn_cast<NamespaceDecl>(D))
          Each(NS);
      }
    };
    Each(Ctx.getTranslationUnitDecl());
  }
  Plan->StaticSharedBytes = VD->isLocalVarDecl() && Kernel && Kernel->getBody()
                                ? sharedBytesDeclaredIn(Kernel->getBody(), Ctx)
                                : Ctx.getTypeSizeInChars(VD->getType()).getQuantity();

  // The declaration's sizes, as written.
  const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  std::vector<const Expr *> Sizes;
  if (TSI) {
    TypeLoc TL = TSI->getTypeLoc();
    while (auto ATL = TL.getAs<ArrayTypeLoc>()) {
      Sizes.push_back(ATL.getSizeExpr());
      TL = ATL.getElementLoc();
    }
  }
  bool SizeIsFactor = false;
  if (Plan->RowLength) {
    // One dimension: the size is a literal, or a product with the factor K
    // (`BM * BK`), which padding rewrites.
    Plan->DimTexts = {std::to_string(Plan->Shape.Dims[0]), std::to_string(Plan->RowLength)};
    const Expr *Size = Sizes.size() == 1 ? Sizes[0] : nullptr;
    if (Size && !isa<IntegerLiteral>(Size->IgnoreParenImpCasts())) {
      Size = nullptr;
      if (auto *BO = dyn_cast<BinaryOperator>(Sizes[0]->IgnoreParenImpCasts());
          BO && BO->getOpcode() == BO_Mul)
        for (const Expr *F : {BO->getLHS(), BO->getRHS()}) {
          Expr::EvalResult V;
          if (!F->isValueDependent() && F->EvaluateAsInt(V, Ctx) &&
              V.Val.getInt().getExtValue() == Plan->RowLength) {
            Size = F;
            break;
          }
        }
    }
    if (!Size && Plan->PadWhyNot.empty())
      Plan->PadWhyNot = "the size of '" + Plan->Name + "' is not written as a number or as " +
                        std::to_string(Plan->RowLength) + " times the number of rows";
    if (Size && Sizes[0] && Size != Sizes[0]) {
      Plan->DimTexts.back() = exprText(Ctx, Size);
      Plan->DeclSizeText = exprText(Ctx, Sizes[0]);
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange Whole = userRange(Ctx, Sizes[0]), Part = userRange(Ctx, Size);
      if (Whole.isValid() && Part.isValid())
        Plan->FactorOffset = SM.getFileOffset(Part.getBegin()) - SM.getFileOffset(Whole.getBegin());
    }
    SizeIsFactor = Size && Sizes[0] && Size != Sizes[0];
    Sizes = {Size};
  } else {
    for (size_t I = 0; I < Plan->Shape.Dims.size(); ++I)
      Plan->DimTexts.push_back(I < Sizes.size() && Sizes[I] ? exprText(Ctx, Sizes[I])
                                                            : std::to_string(Plan->Shape.Dims[I]));
  }
  {
    CharSourceRange R;
    const size_t Rank = Plan->RowLength ? 1 : Plan->Shape.Dims.size();
    if (Sizes.size() == Rank && Sizes.back())
      R = userRange(Ctx, Sizes.back());
    std::string Why;
    if (Sizes.size() != Rank || !Sizes.back())
      Why = "the dimensions of '" + Plan->Name + "' are not written as array bounds";
    else if (R.isInvalid())
      Why = "the innermost size of '" + Plan->Name + "' comes from a macro body";
    else {
      const SourceManager &SM = Ctx.getSourceManager();
      Plan->SizePos = sourcePos(Ctx, R.getBegin());
      Plan->SizeEnd = sourcePos(Ctx, R.getEnd());
      Plan->SizeLength = SM.getFileOffset(R.getEnd()) - SM.getFileOffset(R.getBegin());
      const auto *Lit = dyn_cast<IntegerLiteral>(Sizes.back()->IgnoreParenImpCasts());
      const std::string &Last = Plan->DimTexts.back();
      // A literal factor of a product (`256 * 16`) is rewritten as a
      // factor, `256 * (16 + 4)`, not as the whole size.
      Plan->SizeLiteral = Lit && !SizeIsFactor && !Sizes.back()->getBeginLoc().isMacroID() &&
                          Last.find_first_not_of("0123456789") == std::string::npos;
    }
    if (Plan->PadWhyNot.empty())
      Plan->PadWhyNot = Why;
    Plan->PadEditable = Plan->PadWhyNot.empty();
  }
  if (Plan->SwizzleWhyNot.empty())
    Plan->SwizzleEditable = true;
  return Plan;
}

} // namespace coalesce
