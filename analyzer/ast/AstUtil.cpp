//===- AstUtil.cpp - Small helpers over clang's AST ----------------------===//

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>

using namespace clang;

namespace coalesce {

std::string exprText(const ASTContext &Ctx, const Expr *E) {
  if (!E)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  std::string S;
  if (R.isValid())
    S = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  if (S.empty()) {
    // Fall back to printing the expression.
    llvm::raw_string_ostream OS(S);
    E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  }
  // Collapse whitespace runs (multi-line expressions).
  std::string Out;
  bool Space = false;
  for (char C : S) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

void moveToLine(const ASTContext &Ctx, SourceLocation Loc, unsigned Line, SourcePos &P) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FileID FID = SM.getFileID(SM.getFileLoc(Loc));
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Line == 0)
    return;
  size_t Start = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Start = Buf.find('\n', Start);
    if (Start == llvm::StringRef::npos)
      return;
    ++Start;
  }
  size_t Stop = Buf.find('\n', Start);
  if (Stop == llvm::StringRef::npos)
    Stop = Buf.size();
  llvm::StringRef Text = Buf.substr(Start, Stop - Start);
  if (Text.ends_with("\r"))
    Text = Text.drop_back();
  const size_t Col = Text.find_first_not_of(" \t");
  P.Line = Line;
  P.Column = static_cast<unsigned>(Col == llvm::StringRef::npos ? 0 : Col) + 1;
  P.EndColumn = 0;
  P.LineText = Text.str();
  P.RawLoc = SM.getComposedLoc(FID, static_cast<unsigned>(Start + P.Column - 1)).getRawEncoding();
}

SourcePos sourcePos(const ASTContext &Ctx, SourceLocation Begin,
                    SourceLocation End) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourcePos P;
  if (Begin.isInvalid())
    return P;
  SourceLocation B = SM.getFileLoc(Begin);
  PresumedLoc PL = SM.getPresumedLoc(B);
  if (PL.isInvalid())
    return P;
  P.File = PL.getFilename();
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  P.RawLoc = B.getRawEncoding();
  P.InMainFile = SM.isInMainFile(B);
  P.InSystemHeader = SM.isInSystemHeader(B);
  bool Invalid = false;
  std::pair<FileID, unsigned> Dec = SM.getDecomposedLoc(B);
  llvm::StringRef Buf = SM.getBufferData(Dec.first, &Invalid);
  if (!Invalid) {
    size_t Start = Buf.rfind('\n', Dec.second == 0 ? 0 : Dec.second - 1);
    Start = (Start == llvm::StringRef::npos || Dec.second == 0) ? 0 : Start + 1;
    if (Dec.second == 0)
      Start = 0;
    size_t Stop = Buf.find('\n', Dec.second);
    if (Stop == llvm::StringRef::npos)
      Stop = Buf.size();
    P.LineText = Buf.substr(Start, Stop - Start).str();
    if (!P.LineText.empty() && P.LineText.back() == '\r')
      P.LineText.pop_back();
  }
  if (End.isValid()) {
    SourceLocation E = SM.getFileLoc(End);
    E = Lexer::getLocForEndOfToken(E, 0, SM, Ctx.getLangOpts());
    if (E.isValid() && SM.getFileID(E) == SM.getFileID(B)) {
      PresumedLoc EL = SM.getPresumedLoc(E);
      if (EL.isValid() && EL.getLine() == P.Line && EL.getColumn() > P.Column)
        P.EndColumn = EL.getColumn();
    }
  }
  return P;
}

/// True if S contains a statement that retires lanes from what follows.
bool retiresLanes(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *C : S->children())
    if (retiresLanes(C))
      return true;
  return false;
}

static bool leavesEarly(const Stmt *S, bool InInnerLoop) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InInnerLoop;
  const bool Inner = InInnerLoop || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                     isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) || isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (leavesEarly(C, Inner))
      return true;
  return false;
}

bool leavesLoopEarly(const Stmt *Body) { return leavesEarly(Body, false); }

bool isIntegral(QualType T) {
  T = T.getCanonicalType();
  return T->isIntegralOrEnumerationType();
}

namespace {
bool isConstantVar(const ASTContext &Ctx, const VarDecl *VD) {
  if (VD->hasLocalStorage() || VD->hasAttr<CUDASharedAttr>())
    return false;
  if (!VD->isConstexpr() && !VD->getType().isConstQualified())
    return false;
  return VD->isUsableInConstantExpressions(Ctx) ||
         (VD->isConstexpr() && VD->getInit() && !VD->getInit()->isValueDependent());
}
} // namespace

const InitListExpr *rangeOverBracedList(const CXXForRangeStmt *RF) {
  const Expr *Range = RF ? RF->getRangeInit() : nullptr;
  if (!Range)
    return nullptr;
  Range = skipToValue(Range);
  if (auto *SIL = dyn_cast<CXXStdInitializerListExpr>(Range))
    Range = skipToValue(SIL->getSubExpr());
  return dyn_cast<InitListExpr>(Range);
}

bool isConstantMemoryVar(const VarDecl *VD) {
  const auto *A = VD->getAttr<CUDAConstantAttr>();
  return A && (!A->isImplicit() || !VD->hasAttr<CUDADeviceAttr>());
}

bool isCompileTimeConstant(const ASTContext &Ctx, const Expr *E) {
  E = skipToValue(E);
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DR->getDecl()))
      return true;
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    return VD && isConstantVar(Ctx, VD);
  }
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    if (auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
      return isConstantVar(Ctx, VD);
    if (isa<EnumConstantDecl>(ME->getMemberDecl()))
      return true;
    return isa<FieldDecl>(ME->getMemberDecl()) && !ME->isArrow() &&
           isCompileTimeConstant(Ctx, ME->getBase());
  }
  if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = skipToValue(AS->getBase());
    return Base->getType()->isArrayType() && isCompileTimeConstant(Ctx, Base) &&
           !AS->getIdx()->isValueDependent() && AS->getIdx()->isIntegerConstantExpr(Ctx);
  }
  return false;
}

std::string lineOf(const ASTContext &Ctx, SourceLocation L) {
  SourcePos P = sourcePos(Ctx, L);
  return std::to_string(P.Line);
}

std::string fileLine(const ASTContext &Ctx, SourceLocation L) {
  SourcePos P = sourcePos(Ctx, L);
  std::string F = P.File;
  size_t Slash = F.rfind('/');
  if (Slash != std::string::npos)
    F = F.substr(Slash + 1);
  return F + ":" + std::to_string(P.Line);
}

const Expr *skipCastsAndParens(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      E = IC->getSubExpr();
      continue;
    }
    if (auto *FE = dyn_cast<FullExpr>(E)) {
      E = FE->getSubExpr();
      continue;
    }
    return E;
  }
}

const Expr *skipToValue(const Expr *E) {
  while (true) {
    E = skipCastsAndParens(E);
    if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
      continue;
    }
    // dim3(n): the constructor call inside the functional cast.
    if (auto *FC = dyn_cast<CXXFunctionalCastExpr>(E);
        FC && FC->getCastKind() == CK_ConstructorConversion) {
      E = FC->getSubExpr();
      continue;
    }
    if (auto *BT = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = BT->getSubExpr();
      continue;
    }
    if (auto *DA = dyn_cast<CXXDefaultArgExpr>(E)) {
      E = DA->getExpr();
      continue;
    }
    if (auto *ST = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
      E = ST->getReplacement();
      continue;
    }
    return E;
  }
}

bool sameLValue(const ASTContext &Ctx, const Expr *A, const Expr *B) {
  if (A == B)
    return true;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

bool ordersMemory(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return true;
  const std::string Name = FD->getName().lower();
  for (const char *Orders : {"sync", "fence", "barrier", "atomic", "shfl", "vote", "ballot",
                             "match", "activemask", "clock", "printf", "trap"})
    if (Name.find(Orders) != std::string::npos)
      return true;
  return false;
}

const VarDecl *rootVar(const Expr *E) {
  E = skipToValue(E);
  while (true) {
    if (auto *ME = dyn_cast<MemberExpr>(E)) {
      E = skipToValue(ME->getBase());
      continue;
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = skipToValue(AS->getBase());
      continue;
    }
    break;
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

const VarDecl *assignedVar(const Expr *E, const VarDecl **ThroughPtr) {
  *ThroughPtr = nullptr;
  E = skipToValue(E);
  while (true) {
    if (auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow()) {
        *ThroughPtr = rootVar(ME->getBase());
        return nullptr;
      }
      E = skipToValue(ME->getBase());
      continue;
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = skipToValue(AS->getBase());
      // The element of an array is part of the array's variable; the
      // element a pointer designates is memory the pointer points to.
      if (!Base->getType()->isArrayType()) {
        *ThroughPtr = rootVar(Base);
        return nullptr;
      }
      E = Base;
      continue;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref) {
      *ThroughPtr = rootVar(UO->getSubExpr());
      return nullptr;
    }
    break;
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

void collectModifiedVars(const Stmt *S, std::set<const VarDecl *> &Out,
                         std::set<const VarDecl *> *Through) {
  if (!S)
    return;
  auto Assigned = [&](const Expr *LHS) {
    const VarDecl *Ptr = nullptr;
    if (const VarDecl *V = assignedVar(LHS, &Ptr))
      Out.insert(V);
    else if (Ptr && Through)
      Through->insert(Ptr);
  };
  if (auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Assigned(BO->getLHS());
  } else if (auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      Assigned(UO->getSubExpr());
    // Taking the address of an integer lets anyone change it; a pointer's
    // address is taken to allocate it (cudaMalloc(&p)), which keeps it the
    // start of an allocation.
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = rootVar(UO->getSubExpr()))
        if (!V->getType()->isPointerType())
          Out.insert(V);
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    if ((OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus ||
         OC->getOperator() == OO_MinusMinus) &&
        OC->getNumArgs() > 0)
      Assigned(OC->getArg(0));
  } else if (auto *CE = dyn_cast<CallExpr>(S)) {
    // A non-const method changes its object (`it.advance()`).
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && !MD->isConst() && !MD->isStatic())
        if (const Expr *Obj = MC->getImplicitObjectArgument()) {
          if (Obj->getType()->isPointerType()) {
            if (Through)
              if (const VarDecl *P = rootVar(Obj))
                Through->insert(P);
          } else {
            Assigned(Obj);
          }
        }
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I) {
        QualType PT = FD->getParamDecl(I)->getType();
        if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified())
          Assigned(CE->getArg(I));
      }
    }
  } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D))
        if (VD->getType()->isReferenceType() &&
            !VD->getType()->getPointeeType().isConstQualified() && VD->getInit())
          Assigned(VD->getInit());
  } else if (auto *LE = dyn_cast<LambdaExpr>(S)) {
    collectModifiedVars(LE->getBody(), Out, Through);
  }
  for (const Stmt *C : S->children())
    collectModifiedVars(C, Out, Through);
}

int64_t assumedAlignment(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return 0;
  auto *CE = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  if (!CE || CE->getBuiltinCallee() != Builtin::BI__builtin_assume_aligned ||
      CE->getNumArgs() < 2 || CE->getArg(1)->isValueDependent())
    return 0;
  if (std::optional<llvm::APSInt> N = CE->getArg(1)->getIntegerConstantExpr(Ctx))
    return N->getExtValue() > 0 ? N->getExtValue() : 0;
  return 0;
}

int64_t statedAlignment(const VarDecl *VD, const FunctionDecl *FD, ASTContext &Ctx) {
  int64_t A = 1;
  QualType PT = VD->getType()->getPointeeType();
  if (!PT.isNull() && !PT->isIncompleteType() && !PT->isDependentType())
    A = Ctx.getTypeAlignInChars(PT).getQuantity();
  A = std::max(A, assumedAlignment(VD->getInit(), Ctx));
  if (!FD || !FD->getBody())
    return A;
  llvm::SmallVector<const Stmt *, 64> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
          DR && DR->getDecl() == VD)
        A = std::max(A, assumedAlignment(BO->getRHS(), Ctx));
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return A;
}

std::vector<const Expr *> additiveTerms(const Expr *E) {
  std::vector<const Expr *> Terms;
  std::vector<const Expr *> Work{E};
  while (!Work.empty()) {
    const Expr *T = Work.back()->IgnoreParenImpCasts();
    Work.pop_back();
    if (auto *BO = dyn_cast<BinaryOperator>(T); BO && BO->getOpcode() == BO_Add) {
      Work.push_back(BO->getRHS());
      Work.push_back(BO->getLHS());
      continue;
    }
    Terms.push_back(T);
  }
  return Terms;
}

std::optional<RowSplit> splitRowIndex(const ASTContext &Ctx, const Expr *Index, int64_t Size) {
  if (!Index || Index->isValueDependent() || Size <= 1)
    return std::nullopt;
  const std::vector<const Expr *> Terms = additiveTerms(Index);
  RowSplit Best;
  for (const Expr *T : Terms) {
    auto *BO = dyn_cast<BinaryOperator>(T);
    if (!BO || BO->getOpcode() != BO_Mul)
      continue;
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *F = Side ? BO->getLHS() : BO->getRHS();
      const Expr *X = Side ? BO->getRHS() : BO->getLHS();
      Expr::EvalResult V, W;
      if (F->isValueDependent() || !F->EvaluateAsInt(V, Ctx))
        continue;
      if (!X->isValueDependent() && X->EvaluateAsInt(W, Ctx))
        continue; // a constant times a constant: no row
      const int64_t K = V.Val.getInt().getExtValue();
      if (K > 1 && K < Size && Size % K == 0 && K > Best.K) {
        Best.Row = X;
        Best.RowTerm = T;
        Best.Factor = F;
        Best.K = K;
      }
    }
  }
  if (!Best.Row)
    return std::nullopt;
  for (const Expr *T : Terms)
    if (T != Best.RowTerm)
      Best.Rest.push_back(T);
  return Best;
}

bool readsNoMemory(const ASTContext &Ctx, const Expr *E) {
  if (!E || E->HasSideEffects(Ctx))
    return false;
  bool Ok = true;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool InBuiltin) {
    if (!S || !Ok)
      return;
    if (isa<ArraySubscriptExpr>(S) || isa<CXXOperatorCallExpr>(S))
      Ok = false;
    else if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_Deref)
      Ok = false;
    else if (auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
      Ok = false;
    else if (isa<CallExpr>(S) && !InBuiltin)
      Ok = false;
    else if (auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        if (VD->hasGlobalStorage() && !VD->getType().isConstQualified())
          Ok = false;
    }
    // threadIdx.x and its kin are property reads through a getter call.
    const bool Builtin = InBuiltin || isa<PseudoObjectExpr>(S);
    for (const Stmt *C : S->children())
      Walk(C, Builtin);
  };
  Walk(E, false);
  return Ok;
}

} // namespace coalesce
