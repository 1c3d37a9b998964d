//===- AnswerTest.cpp - The answer for one access (report/Answer.h) -------===//

#include "model/Spaces.h"
#include "report/Answer.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

Cost request(double Value, double Ideal, bool Exact = true, double Min = -1, double Max = -1) {
  Cost C;
  C.Value = Value;
  C.Ideal = Ideal;
  C.Exact = Exact;
  C.Min = Min < 0 ? Value : Min;
  C.Max = Max < 0 ? Value : Max;
  C.Lowest = C.Min;
  C.Highest = C.Max;
  return C;
}

} // namespace

TEST(Answer, ExactMergeIsTheRequestWeightedMean) {
  AnswerSum S;
  S.add(request(4, 4), 3, 1);
  S.add(request(8, 4), 1, 2);
  Answer A = S.answer(4);
  EXPECT_EQ(A.kind(), Answer::Kind::Exact);
  EXPECT_DOUBLE_EQ(A.cost(), 5);
  EXPECT_DOUBLE_EQ(A.ideal(), 4);
  EXPECT_DOUBLE_EQ(A.lines(), 1.25);
  EXPECT_TRUE(A.alignmentKnown());
  EXPECT_FALSE(A.alignmentRange());
  EXPECT_FALSE(A.rangeToShow());
  // Single requests of 4 and 8: they differ, and not by alignment.
  EXPECT_TRUE(A.requestsDiffer());
  EXPECT_EQ(A.requests(), (CostSpan{4, 8}));
  EXPECT_FALSE(A.alignmentVaries());
  EXPECT_TRUE(A.excessOver(1));
  EXPECT_TRUE(A.excessOver(1.2));
  EXPECT_FALSE(A.excessOver(1.25)) << "5 is not more than 4 * 1.25";
  EXPECT_DOUBLE_EQ(A.ratio(), 1.25);
}

TEST(Answer, AlignmentRangeIsOverAlignmentsOnly) {
  AnswerSum S;
  S.add(request(4, 4, /*Exact=*/false, 4, 5), 1);
  Answer A = S.answer(1);
  EXPECT_EQ(A.kind(), Answer::Kind::OverAlignments);
  EXPECT_FALSE(A.alignmentKnown());
  ASSERT_TRUE(A.alignmentRange());
  EXPECT_EQ(*A.alignmentRange(), (CostSpan{4, 5}));
  EXPECT_TRUE(A.rangeToShow());
  EXPECT_FALSE(A.excessOver(1)) << "the likely value is the ideal";
  // A range of one point is stated (the assumption holds) but not shown.
  Answer Point = Answer::overAlignments(4, 4, {4, 4});
  EXPECT_TRUE(Point.alignmentRange());
  EXPECT_FALSE(Point.rangeToShow());
}

TEST(Answer, ParametricKeepsTheSizeSpanApartFromTheAlignmentRange) {
  ParametricCost P;
  P.Name = "cols";
  ParamCase Head;
  Head.Cost = CostPoint{8, 4, /*Exact=*/false, true, 8, 16};
  Head.Text = "when cols is a multiple of 4 and cols >= 8";
  ParamCase Odd;
  Odd.Cost = CostPoint{14, 4, false, true, 14, 16};
  P.Cases = {Head, Odd};
  P.LargeMin = 8;
  P.LargeMax = 14;
  Answer A = Answer::parametric(P);
  EXPECT_EQ(A.kind(), Answer::Kind::Parametric);
  EXPECT_DOUBLE_EQ(A.cost(), 8);
  ASSERT_TRUE(A.alignmentRange());
  EXPECT_EQ(*A.alignmentRange(), (CostSpan{8, 16})) << "the first case's, over alignments";
  ASSERT_TRUE(A.sizeSpan());
  EXPECT_EQ(*A.sizeSpan(), (CostSpan{8, 14}));
  ASSERT_TRUE(A.parametric());
  EXPECT_EQ(A.parametric()->Cases.size(), 2u);
  // An exact first case: no alignment range, the size span stays.
  P.Cases[0].Cost = CostPoint{8, 4, true, true, 8, 8};
  Answer B = Answer::parametric(P);
  EXPECT_TRUE(B.alignmentKnown());
  EXPECT_TRUE(B.sizeSpan());
}

TEST(Answer, NoInstructionAndUnknownHaveNoNumber) {
  Answer R = Answer::noInstruction(makeReason(ReasonKind::LoadReused, {"a[i]", "3"}));
  EXPECT_TRUE(R.noInstruction());
  EXPECT_FALSE(R.known());
  EXPECT_FALSE(R.excessOver(1));
  EXPECT_FALSE(R.requestsDiffer());
  EXPECT_EQ(R.why().Kind, ReasonKind::LoadReused);
  EXPECT_STREQ(Answer::kindName(R.kind()), "no-instruction");
  Answer U = Answer::unknown(makeReason(ReasonKind::ConditionOnData));
  EXPECT_EQ(U.kind(), Answer::Kind::Unknown);
  EXPECT_FALSE(U.noInstruction());
  EXPECT_FALSE(U.known());
  // Unknown lanes keep the alignment the hypothetical cost rests on.
  Answer L = Answer::unknownLanes(makeReason(ReasonKind::ConditionOnData),
                                  Answer::overAlignments(4, 4, {4, 5}));
  EXPECT_FALSE(L.known());
  EXPECT_FALSE(L.alignmentKnown());
}

TEST(Answer, OneTolerance) {
  EXPECT_FALSE(Answer::differ(1, 1 + 1e-12));
  EXPECT_TRUE(Answer::differ(1, 1.001));
  EXPECT_TRUE(Answer::exceeds(4.5, 4));
  EXPECT_FALSE(Answer::exceeds(4 + 1e-12, 4));
  EXPECT_FALSE((CostSpan{4, 4 + 1e-12}.wide()));
}

TEST(Spaces, TheTableSaysHowEachSpaceIsReported) {
  ASSERT_EQ(allSpaces().size(), 4u);
  EXPECT_EQ(spaceModel(MemorySpace::Global).Excess, Verdict::Uncoalesced);
  EXPECT_EQ(spaceModel(MemorySpace::Shared).Excess, Verdict::BankConflict);
  EXPECT_EQ(spaceModel(MemorySpace::Constant).Excess, Verdict::Serialised);
  EXPECT_EQ(spaceModel(MemorySpace::Local).Excess, Verdict::Uncoalesced);
  EXPECT_TRUE(spaceModel(MemorySpace::Constant).PerInstruction);
  EXPECT_FALSE(spaceModel(MemorySpace::Global).PerInstruction);
  EXPECT_STREQ(spaceModel(MemorySpace::Shared).Keys.JsonCost, "wavefronts_per_request");
  EXPECT_STREQ(spaceModel(MemorySpace::Local).Keys.JsonCost, "sectors_per_request");
  EXPECT_EQ(spaceModel(MemorySpace::Shared).Picture, SpacePicture::Banks);
  EXPECT_EQ(spaceModel(MemorySpace::Local).Picture, SpacePicture::None);
  EXPECT_STREQ(spaceModel(MemorySpace::Global).Metrics.CostColumn,
               "L2 Theoretical Sectors Global");
  for (const SpaceModel &M : allSpaces())
    EXPECT_STREQ(spaceModel(M.Space).Name, M.Name);
}
