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

// A walk standing for the warps of a block (interp/AlikeWarps.cpp): its
// addresses hold the warp symbol W (threadIdx.x = 32 W + lane). Each
// warp's event is the walk's with W replaced; a request moves from warp to
// warp by a fixed number of bytes only where W enters its address alone,
// with one coefficient on every lane.
TEST(AlikeWarps, EventsAtAWarpAndTheirSteps) {
  const SymbolId W = 7, N = 8;
  LaneInts Lanes = laneIota();
  // out[idx * 768] with idx = 256 b + 32 W + lane: 98,304 bytes a warp.
  const Poly Row = (Poly::symbol(W, 32) + Poly::lanes(Lanes)).scaled(768 * 4);
  EXPECT_EQ(warpStep(Row, W, AllLanes), std::optional<int64_t>(98304));
  EXPECT_EQ(warpStep(Poly::lanes(Lanes), W, AllLanes), std::optional<int64_t>(0));
  // W times a size not known, W squared: no fixed step.
  EXPECT_FALSE(warpStep(Poly::symbol(W, 32) * Poly::symbol(N), W, AllLanes));
  EXPECT_FALSE(warpStep(Poly::symbol(W) * Poly::symbol(W), W, AllLanes));
  // A coefficient of W that differs between lanes (lane * W): none.
  EXPECT_FALSE(warpStep(Poly::lanes(Lanes) * Poly::symbol(W), W, AllLanes));
  // ... unless only one lane is active.
  EXPECT_EQ(warpStep(Poly::lanes(Lanes) * Poly::symbol(W), W, LaneMask(1) << 3),
            std::optional<int64_t>(3));

  AccessEvent E;
  E.Offset = Row;
  E.Subscripts = {Poly::symbol(W, 32) + Poly::lanes(Lanes), Poly::constant(5)};
  E.Active = AllLanes;
  E.Width = 4;
  E.SecondSide = AccessSide{AccessOp::Store, MemorySpace::Shared, std::nullopt,
                            Poly::symbol(W, 128), 4, {Poly::symbol(W)}, nullptr};
  const AccessEvent At3 = eventAtWarp(E, W, 3);
  EXPECT_EQ(At3.Offset, (Poly::constant(96) + Poly::lanes(Lanes)).scaled(768 * 4));
  EXPECT_EQ(At3.Subscripts[0], Poly::constant(96) + Poly::lanes(Lanes));
  EXPECT_EQ(At3.Subscripts[1], Poly::constant(5));
  EXPECT_EQ(At3.SecondSide->Offset, Poly::constant(384));
  EXPECT_EQ(At3.SecondSide->Subscripts[0], Poly::constant(3));
  EXPECT_FALSE(At3.Offset.mentions(W));

  // The same in every part, then one part apart.
  EXPECT_TRUE(sameEvent(At3, eventAtWarp(E, W, 3)));
  EXPECT_FALSE(sameEvent(At3, eventAtWarp(E, W, 4)));
  AccessEvent Other = At3;
  Other.Because = "`row * 768`";
  EXPECT_FALSE(sameEvent(At3, Other));
  Other = At3;
  Other.SecondSide->Subscripts[0] = Poly::constant(4);
  EXPECT_FALSE(sameEvent(At3, Other));
  Other = At3;
  Other.Uncounted = true;
  EXPECT_FALSE(sameEvent(At3, Other));
}

// A request recorded again (AccessAggregator::recordAgain(), for the warps
// a walk of several stands for) adds to the sums exactly what recording
// the copy in full adds, in the same order: the records are the same to
// the last bit, with weights that are not whole (a part of a grid).
TEST(AlikeWarps, ARequestRecordedAgainIsTheCopyRecordedInFull) {
  Parsed P = parseCopy();
  ASSERT_TRUE(P.AST && P.K && P.Site);
  ASTContext &Ctx = P.AST->getASTContext();
  LaunchFacts Facts;
  Facts.Config.Block = {256, 1, 1};
  Facts.Config.BlockKnown = true;
  Facts.Config.Source = "--block";
  const SymbolId W = 0;
  auto Records = [&](bool Again) {
    KernelRun R(Ctx, P.K, Facts, InterpreterLimits());
    MemRegion G;
    G.K = MemRegion::Global;
    G.Name = "g";
    G.Align = 256;
    const RegionId GId = R.addRegion(G);
    // Two requests of a warp: 12 bytes apart on its lanes (12 sectors, at
    // a varying offset), and a load whose address is not known.
    AccessEvent A;
    A.Site = P.Site;
    A.Op = AccessOp::Load;
    A.Space = MemorySpace::Global;
    A.Region = GId;
    A.Offset = (Poly::symbol(W, 32) + Poly::lanes(laneIota())).scaled(12) +
               Poly::constant(8);
    A.Width = 4;
    A.Active = AllLanes;
    A.AccessType = Ctx.FloatTy;
    A.Weight = 1.0 / 3.0;
    AccessEvent U = A;
    U.Site = cast<Expr>(P.Site->getLHS());
    U.UnknownWhy = makeReason(ReasonKind::PointerUnknown);
    std::vector<AccessEvent> Warp = {A, U};
    AccessAggregator Agg(R);
    std::vector<AccessAggregator::Repeat> Kept(Warp.size());
    for (int64_t Wi = 0; Wi < 8; ++Wi)
      for (size_t I = 0; I < Warp.size(); ++I) {
        if (Again && Wi > 0 && Kept[I].S)
          Agg.recordAgain(Kept[I], Warp[I]);
        else
          Agg.record(eventAtWarp(Warp[I], W, Wi), Again && Wi == 0 ? &Kept[I] : nullptr);
      }
    if (Again) {
      EXPECT_TRUE(Kept[0].S && Kept[0].M); // costed: kept with its cost
      EXPECT_TRUE(Kept[1].S && !Kept[1].M); // unknown: its weight alone
    }
    return Agg.finish("copy", 8);
  };
  const std::vector<AccessRecord> Full = Records(false), Fast = Records(true);
  ASSERT_EQ(Full.size(), 2u);
  ASSERT_EQ(Fast.size(), 2u);
  for (size_t I = 0; I < Full.size(); ++I) {
    EXPECT_EQ(Full[I].Ans, Fast[I].Ans);
    EXPECT_EQ(Full[I].RequestsPerWarp, Fast[I].RequestsPerWarp); // bit for bit
  }
  EXPECT_EQ(Full[0].verdict(), Verdict::Uncoalesced);
  EXPECT_EQ(Full[1].verdict(), Verdict::Unknown);
}
