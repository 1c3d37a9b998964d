//===- Groups.cpp - Cooperative groups as builtins ------------------------===//
//
// cooperative_groups' thread block, grid and tiles are everyday CUDA:
// `cg::this_thread_block()`, `cta.thread_rank()`, `cg::tiled_partition<32>`,
// `tile.thread_rank()`, `tile.meta_group_rank()`, `cg::sync(cta)`. Their
// implementations in the toolkit read special registers through builtins the
// interpreter does not follow, so they are modelled here by what the CUDA
// Programming Guide defines them to be:
//   thread block: rank = threadIdx.x + threadIdx.y * bx + threadIdx.z * bx * by,
//                 size = bx * by * bz;
//   grid:         rank = linear block index * block size + block rank;
//   tile of N partitioned from a group G: rank = G.rank % N,
//                 meta_group_rank = G.rank / N, size = N,
//                 meta_group_size = ceil(G.size / N).
// A group object is a per-frame side table entry (Frame::Groups), made where
// a variable or parameter of a group type is initialised.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

bool inGroupsNamespace(const Decl *D) {
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (auto *NS = dyn_cast<NamespaceDecl>(C))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

} // namespace

bool WarpInterp::isGroupType(QualType T) const {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && inGroupsNamespace(RD);
}

Value WarpInterp::arith(BinaryOperatorKind Op, const Value &A, const Value &B) {
  return evalArith(Op, A, B, nullptr, nullptr, Ctx.UnsignedIntTy);
}

GroupInfo WarpInterp::threadBlockGroup() {
  GroupInfo G;
  const Value Bx = *builtinIndex("blockDim", 0), By = *builtinIndex("blockDim", 1),
              Bz = *builtinIndex("blockDim", 2);
  const Value Tx = *builtinIndex("threadIdx", 0), Ty = *builtinIndex("threadIdx", 1),
              Tz = *builtinIndex("threadIdx", 2);
  const Value BxBy = arith(BO_Mul, Bx, By);
  G.Rank = arith(BO_Add, Tx, arith(BO_Add, arith(BO_Mul, Ty, Bx), arith(BO_Mul, Tz, BxBy)));
  G.Size = arith(BO_Mul, BxBy, Bz);
  G.Meta = Value::constant(0);
  G.MetaSize = Value::constant(1);
  return G;
}

std::optional<GroupInfo> WarpInterp::groupOf(const Expr *E, unsigned Depth) {
  if (!E || Depth > 16)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    // Copies, and conversions (a tile or block to thread_group).
    if (CC->getNumArgs() >= 1)
      return groupOf(CC->getArg(0), Depth + 1);
    return std::nullopt;
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return std::nullopt;
    auto It = frame().Groups.find(VD);
    if (It != frame().Groups.end())
      return It->second;
    return std::nullopt;
  }
  // A conversion between group types (a tile of a thread_block to a tile).
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
      return groupOf(MC->getImplicitObjectArgument(), Depth + 1);
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !inGroupsNamespace(FD))
    return std::nullopt;
  const std::string Name = FD->getName().str();
  if (Name == "this_thread_block")
    return threadBlockGroup();
  if (Name == "this_grid") {
    GroupInfo Block = threadBlockGroup();
    const Value Gx = *builtinIndex("gridDim", 0), Gy = *builtinIndex("gridDim", 1);
    const Value BlockId = arith(
        BO_Add, *builtinIndex("blockIdx", 0),
        arith(BO_Add, arith(BO_Mul, *builtinIndex("blockIdx", 1), Gx),
              arith(BO_Mul, *builtinIndex("blockIdx", 2), arith(BO_Mul, Gx, Gy))));
    GroupInfo G;
    G.Rank = arith(BO_Add, arith(BO_Mul, BlockId, Block.Size), Block.Rank);
    G.Size = Value::unknown(ReasonKind::GridSizeUnknown);
    G.Meta = Value::constant(0);
    G.MetaSize = Value::constant(1);
    return G;
  }
  if (Name == "tiled_partition" && CE->getNumArgs() >= 1) {
    std::optional<GroupInfo> Parent = groupOf(CE->getArg(0), Depth + 1);
    if (!Parent)
      return std::nullopt;
    Value N = Value::unknown(ReasonKind::TileSizeUnknown);
    if (const TemplateArgumentList *TA = FD->getTemplateSpecializationArgs()) {
      for (const TemplateArgument &A : TA->asArray())
        if (A.getKind() == TemplateArgument::Integral) {
          N = Value::constant(A.getAsIntegral().getExtValue());
          break;
        }
    }
    if (CE->getNumArgs() >= 2)
      N = eval(CE->getArg(1));
    GroupInfo G;
    G.Rank = arith(BO_Rem, Parent->Rank, N);
    G.Meta = arith(BO_Div, Parent->Rank, N);
    G.Size = N;
    // ceil(parent size / N)
    G.MetaSize = arith(BO_Div, arith(BO_Sub, arith(BO_Add, Parent->Size, N), Value::constant(1)), N);
    return G;
  }
  return std::nullopt;
}

Value WarpInterp::evalGroupCall(const CallExpr *CE, const FunctionDecl *FD, bool &Handled) {
  Handled = false;
  if (!inGroupsNamespace(FD))
    return Value::opaque();
  const std::string Name = FD->getName().str();
  auto Unknown = [&](const Reason &Why) {
    for (const Expr *A : CE->arguments())
      eval(A);
    Handled = true;
    return Value::unknown(Why);
  };
  // The group a method is called on: `cta.thread_rank()` calls a static
  // member through an object (a plain call whose callee is a member).
  const Expr *Obj = nullptr;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Obj = MC->getImplicitObjectArgument();
  else if (auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase();
  if (Obj && isa<CXXMethodDecl>(FD)) {
    const std::string Text = exprText(Ctx, Obj);
    if (Name == "sync" || Name == "barrier_arrive" || Name == "barrier_wait" ||
        isa<CXXConversionDecl>(FD)) {
      Handled = true;
      return Value::opaque();
    }
    static const std::set<std::string> Ints = {"thread_rank", "size", "num_threads",
                                               "meta_group_rank", "meta_group_size"};
    if (Ints.count(Name)) {
      Handled = true;
      std::optional<GroupInfo> G = groupOf(Obj);
      if (!G)
        return Value::unknown(ReasonKind::GroupNotFollowed, {Text});
      if (Name == "thread_rank")
        return G->Rank;
      if (Name == "meta_group_rank")
        return G->Meta;
      if (Name == "meta_group_size")
        return G->MetaSize;
      return G->Size;
    }
    // Exchanges between lanes (shfl, any, all, ballot, match): data.
    static const std::set<std::string> Exchanges = {
        "shfl", "shfl_up", "shfl_down", "shfl_xor", "any", "all", "ballot",
        "match_any", "match_all"};
    if (Exchanges.count(Name))
      return Unknown(makeReason(ReasonKind::GroupExchange, {Text + "." + Name}));
    return Value::opaque(); // not handled: enter the toolkit's code
  }
  if (Name == "sync") {
    Handled = true;
    return Value::opaque();
  }
  if (Name == "this_thread_block" || Name == "this_grid" || Name == "tiled_partition") {
    // The object's meaning is kept in Frame::Groups where it is stored.
    for (const Expr *A : CE->arguments())
      if (!isGroupType(A->getType()))
        eval(A);
    Handled = true;
    return Value::opaque();
  }
  if (Name == "reduce" || Name == "inclusive_scan" || Name == "exclusive_scan")
    return Unknown(makeReason(ReasonKind::GroupCollective, {Name}));
  return Value::opaque();
}

void WarpInterp::bindGroup(unsigned FrameIdx, const VarDecl *VD, const Expr *Init) {
  if (!Init || !isGroupType(VD->getType()))
    return;
  if (std::optional<GroupInfo> G = groupOf(Init))
    Frames[FrameIdx].Groups[VD] = *G;
}

} // namespace interp
} // namespace coalesce
