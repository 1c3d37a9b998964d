// The cost stage (cost/Aggregate.h) on events made by hand: an instruction
// with two sides (interp/Interpreter.h AccessSide; an asynchronous copy
// reads global memory and writes shared memory) is two records at its
// site, each costed in its own space.
#include "cost/Aggregate.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;
using namespace coalesce;

namespace {

const char *Code = R"(
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
__global__ void copy(const float *g, int i) {
  __shared__ float tile[256];
  tile[i] = g[i];
}
)";

struct FirstAssign : RecursiveASTVisitor<FirstAssign> {
  const BinaryOperator *Found = nullptr;
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && !Found)
      Found = B;
    return true;
  }
};

/// Code parsed: its kernel and the kernel's first assignment (the site the
/// events below are made at).
struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *K = nullptr;
  const BinaryOperator *Site = nullptr;
};

Parsed parseCopy() {
  Parsed P;
  P.AST = tooling::buildASTFromCodeWithArgs(
      Code, {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
             "--cuda-gpu-arch=sm_90", "-std=c++17"},
      "copy.cu");
  if (!P.AST)
    return P;
  for (const Decl *D : P.AST->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
      P.K = FD;
  if (!P.K)
    return P;
  FirstAssign V;
  V.TraverseDecl(const_cast<FunctionDecl *>(P.K));
  P.Site = V.Found;
  return P;
}

} // namespace

TEST(Aggregate, AnInstructionWithTwoSidesIsARecordPerSide) {
  Parsed P = parseCopy();
  ASSERT_TRUE(P.AST && P.K && P.Site);
  ASTContext &Ctx = P.AST->getASTContext();
  const FunctionDecl *K = P.K;

  LaunchFacts Facts;
  Facts.Config.Block = {32, 1, 1};
  Facts.Config.BlockKnown = true;
  Facts.Config.Source = "--block";
  KernelRun Run(Ctx, K, Facts, InterpreterLimits());
  MemRegion G;
  G.K = MemRegion::Global;
  G.Name = "g";
  G.Align = 256;
  MemRegion S;
  S.K = MemRegion::Shared;
  S.Name = "tile";
  S.Align = 16;
  const RegionId GId = Run.addRegion(G), SId = Run.addRegion(S);

  // Lane l reads g[2 l] (4-byte floats 8 bytes apart: 8 sectors, ideal 4)
  // and writes tile[l] (one wavefront).
  LaneInts Read{}, Write{};
  for (unsigned L = 0; L < WarpSize; ++L) {
    Read[L] = 8 * L;
    Write[L] = 4 * L;
  }
  AccessEvent E;
  E.Site = P.Site;
  E.Op = AccessOp::Load;
  E.Space = *G.space();
  E.Region = GId;
  E.Offset = Poly::lanes(Read);
  E.Width = 4;
  E.Active = AllLanes;
  E.AccessType = Ctx.FloatTy;
  E.SecondSide = AccessSide{AccessOp::Store, *S.space(), SId, Poly::lanes(Write), 4, {}, nullptr};

  AccessAggregator Agg(Run);
  Agg.record(E);
  std::vector<AccessRecord> Out = Agg.finish("copy", 1);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[0].Op, AccessOp::Load);
  EXPECT_STREQ(spaceName(Out[0].Space), "global");
  EXPECT_EQ(Out[0].Array, "g");
  EXPECT_DOUBLE_EQ(Out[0].Ans.cost(), 8);
  EXPECT_DOUBLE_EQ(Out[0].Ans.ideal(), 4);
  EXPECT_EQ(Out[0].verdict(), Verdict::Uncoalesced);
  EXPECT_EQ(Out[1].Op, AccessOp::Store);
  EXPECT_STREQ(spaceName(Out[1].Space), "shared");
  EXPECT_EQ(Out[1].Array, "tile");
  EXPECT_DOUBLE_EQ(Out[1].Ans.cost(), 1);
  EXPECT_EQ(Out[1].verdict(), Verdict::Ok);
  // Both at the instruction's site.
  EXPECT_EQ(Out[0].Pos.Line, Out[1].Pos.Line);
  EXPECT_EQ(Out[0].Pos.Column, Out[1].Pos.Column);

  // The second side alone is the same event in the other space.
  AccessEvent Second = E.secondSide();
  EXPECT_FALSE(Second.SecondSide);
  EXPECT_EQ(Second.Op, AccessOp::Store);
  EXPECT_EQ(*Second.Region, SId);
  EXPECT_EQ(Second.Active, E.Active);
}

// A chance of one wider instruction (AccessEvent::Chance, set by the
// compiler witness): its record gets the sectors per warp of the separate
// instructions together and of the one instead, costed from the lead's
// lanes; an event of the record without the chance (and not counted by
// another's) drops it, a member's does not.
TEST(Aggregate, AVectorChanceIsCostedBeforeAndAfter) {
  Parsed P = parseCopy();
  ASSERT_TRUE(P.AST && P.K && P.Site);
  ASTContext &Ctx = P.AST->getASTContext();
  const FunctionDecl *K = P.K;
  LaunchFacts Facts;
  Facts.Config.Block = {32, 1, 1};
  Facts.Config.BlockKnown = true;
  Facts.Config.Source = "--block";

  auto Run = [&](bool WithMember, bool Missing) {
    KernelRun R(Ctx, K, Facts, InterpreterLimits());
    MemRegion G;
    G.K = MemRegion::Global;
    G.Name = "g";
    G.Align = 256;
    const RegionId GId = R.addRegion(G);
    // Lane l reads the float at 16 l: 16 sectors a request; the four
    // floats of its 16 bytes as four instructions are 64 sectors, one
    // 16-byte instruction 16.
    LaneInts Read{};
    for (unsigned L = 0; L < WarpSize; ++L)
      Read[L] = 16 * L;
    AccessEvent E;
    E.Site = P.Site;
    E.Op = AccessOp::Load;
    E.Space = *G.space();
    E.Region = GId;
    E.Offset = Poly::lanes(Read);
    E.Width = 4;
    E.Active = AllLanes;
    E.AccessType = Ctx.FloatTy;
    VectorChanceEvent C;
    C.Width = 16;
    C.Members = {0, 4, 8, 12};
    C.Start = 0;
    C.FirstLine = 3;
    C.LastLine = 6;
    C.Emitted = "4 LDG.E";
    C.Pointer = "g";
    C.PointerType = "const float *";
    C.ProvenAlign = 4;
    AccessEvent Lead = E;
    Lead.Chance = C;
    AccessAggregator Agg(R);
    Agg.record(Lead);
    if (WithMember) {
      AccessEvent M = E; // the same site again (a loop): counted by the lead
      M.Offset = Poly::lanes(Read) + Poly::constant(4);
      M.ChanceMember = true;
      Agg.record(M);
    }
    if (Missing)
      Agg.record(E);
    return Agg.finish("copy", 1);
  };
  std::vector<AccessRecord> Out = Run(true, false);
  ASSERT_EQ(Out.size(), 1u);
  ASSERT_TRUE(Out[0].Chance);
  EXPECT_EQ(Out[0].Chance->Width, 16u);
  EXPECT_EQ(Out[0].Chance->Accesses, 4u);
  EXPECT_DOUBLE_EQ(Out[0].Chance->SectorsBefore, 64);
  EXPECT_DOUBLE_EQ(Out[0].Chance->SectorsAfter, 16);
  EXPECT_EQ(Out[0].Chance->Emitted, "4 LDG.E");
  // A warp of the record whose accesses are not in such a block: no chance.
  Out = Run(false, true);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_FALSE(Out[0].Chance);
}
