// One layout fix per shared array (cost/LayoutChoice.h): the choice over
// every access and launch, on records made by hand.
#include "cost/LayoutChoice.h"

#include <cmath>

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

std::shared_ptr<ArrayEditPlan> plan(ArrayShape S) {
  auto P = std::make_shared<ArrayEditPlan>();
  P->Name = "tile";
  P->Key = "k.cu:2:20 tile";
  P->Shape = S;
  P->DimTexts = {std::to_string(S.Dims[0]), std::to_string(S.Dims[1])};
  P->PadEditable = P->SwizzleEditable = true;
  P->SizeLiteral = true;
  P->SizePos = {"k.cu", 2, 29, 0, ""};
  P->SizeLength = 2;
  P->StaticSharedBytes = S.bytes();
  P->Uses.push_back({{"k.cu", 4, 10, 0, ""}, 2, "tx", "ty", true, true});
  return P;
}

/// An access of the array costing Now (ideal Ideal) whose costs under the
/// candidates are Costs.
AccessRecord access(std::shared_ptr<const LayoutSearch> S, double Now, double Ideal,
                    std::vector<double> Costs, unsigned Width = 4) {
  AccessRecord R;
  R.Space = MemorySpace::Shared;
  R.Array = "tile";
  R.Kernel = "k";
  R.Launch.BlockKnown = true;
  R.Launch.Block = {32, 8, 1};
  R.BytesPerLane = Width;
  R.RequestsPerWarp = 1;
  R.Ans = Answer::exact(Now, Ideal);
  R.Layouts = std::move(S);
  R.LayoutCosts = std::move(Costs);
  return R;
}

} // namespace

TEST(LayoutChoiceTest, NoAccessMayGetDearer) {
  auto S = std::make_shared<LayoutSearch>();
  S->Plan = plan({{32, 32}, 4});
  S->Candidates = {SharedLayout::pad(4), SharedLayout::swizzle(4, 5, 0)};
  std::vector<AccessRecord> R;
  // The padding fixes the load and breaks the store; the swizzle does
  // less for the load and nothing to the store.
  R.push_back(access(S, 32, 1, {1, 2}));
  R.push_back(access(S, 1, 1, {2, 1}));
  chooseLayoutFixes(R);
  ASSERT_TRUE(R[0].Fix);
  EXPECT_EQ(R[0].Fix->Layout.K, SharedLayout::Swizzle);
  EXPECT_EQ(R[0].Fix->After, 2);
  EXPECT_EQ(R[0].Fix->ArrayBefore, 33);
  EXPECT_EQ(R[0].Fix->ArrayAfter, 3);
  EXPECT_EQ(R[0].Fix->Condition, "for blockDim (32, 8, 1)");
  ASSERT_EQ(R[0].Fix->Edits.size(), 1u);
  EXPECT_EQ(R[0].Fix->Edits[0].Insert, "tx ^ (ty & 31)");
  ASSERT_TRUE(R[1].Fix) << "every access of the array carries the fix";
}

TEST(LayoutChoiceTest, TiesGoToPaddingForElementsAndToSwizzlesForVectors) {
  for (unsigned Width : {4u, 16u}) {
    auto S = std::make_shared<LayoutSearch>();
    S->Plan = plan({{32, 32}, 4});
    S->Candidates = {SharedLayout::pad(16), SharedLayout::swizzle(16, 3, 0)};
    std::vector<AccessRecord> R;
    R.push_back(access(S, 32, 4, {4, 4}, Width));
    R.push_back(access(S, 4, 4, {4, 4}, Width));
    chooseLayoutFixes(R);
    ASSERT_TRUE(R[0].Fix);
    EXPECT_EQ(R[0].Fix->Layout.K, Width == 4 ? SharedLayout::Pad : SharedLayout::Swizzle);
    EXPECT_NE(R[0].Fix->Alternative, "") << "the other family is as good";
  }
}

TEST(LayoutChoiceTest, NothingWhenALaunchCannotBeRecosted) {
  auto S = std::make_shared<LayoutSearch>();
  S->Plan = plan({{32, 32}, 4});
  S->Candidates = {SharedLayout::pad(4)};
  auto Other = std::make_shared<LayoutSearch>(*S);
  std::vector<AccessRecord> R;
  R.push_back(access(S, 32, 1, {1}));
  // The same array in another launch, where the padded cost is not exact.
  R.push_back(access(Other, 32, 1, {NAN}));
  R[1].Launch.Block = {16, 16, 1};
  chooseLayoutFixes(R);
  EXPECT_FALSE(R[0].Fix);
  EXPECT_NE(R[0].NoFixWhy.find("no padding or XOR swizzle of 'tile' (1 layouts tried)"),
            std::string::npos);
  // A launch where the array has no conflict and was not re-costed (too
  // many requests to re-cost for nothing): nothing either, and why.
  auto Quiet = std::make_shared<LayoutSearch>();
  Quiet->Plan = S->Plan;
  Quiet->NotSearched = true;
  std::vector<AccessRecord> Q;
  Q.push_back(access(S, 32, 1, {1}));
  Q.push_back(access(Quiet, 1, 1, {}));
  Q[1].Launch.Block = {1, 1, 1};
  chooseLayoutFixes(Q);
  EXPECT_FALSE(Q[0].Fix);
  EXPECT_NE(Q[0].NoFixWhy.find("it has no conflict in the launch with blockDim (1, 1, 1)"),
            std::string::npos);
  // Past 48 KiB of static shared memory, no padding.
  auto Big = std::make_shared<LayoutSearch>();
  auto P = plan({{96, 128}, 4});
  Big->Plan = P;
  Big->Candidates = {SharedLayout::pad(4), SharedLayout::swizzle(4, 5, 0)};
  std::vector<AccessRecord> B;
  B.push_back(access(Big, 32, 1, {1, 1}));
  chooseLayoutFixes(B);
  ASSERT_TRUE(B[0].Fix);
  EXPECT_EQ(B[0].Fix->Layout.K, SharedLayout::Swizzle);
  EXPECT_EQ(B[0].Fix->Alternative, "");
}

namespace {
ArrayEditPlan::Use::Term term(const char *Text, int64_t Align, int64_t Max = -1) {
  ArrayEditPlan::Use::Term T;
  T.Text = Text;
  T.Align = Align;
  T.Max = Max;
  return T;
}
} // namespace

TEST(LayoutChoiceTest, SwizzleSplitKeepsAdjacentValuesOutsideTheXor) {
  ArrayEditPlan::Use U;
  // `wm * 128 + row * 8 + i`, i < 8: b is a multiple of 8 elements.
  U.ColTerms = {term("wm * 128", 128), term("row * 8", 8), term("i", 1, 7)};
  std::optional<SwizzleSplit> S = swizzleSplit(U, 8);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Base, "wm * 128 + row * 8");
  EXPECT_EQ(S->Rest, "i");
  EXPECT_FALSE(S->BaseSimple);
  // Units of 4 elements: i reaches past one unit.
  EXPECT_FALSE(swizzleSplit(U, 4));
  // Units of 16: row * 8 is not a multiple of 16.
  EXPECT_FALSE(swizzleSplit(U, 16));
  // Bounded terms whose values add up to less than the unit: j <= 1 and
  // k * 2 <= 6 stay in [0, 7].
  U.ColTerms = {term("b", 8), term("j", 1, 1), term("k * 2", 2, 6)};
  S = swizzleSplit(U, 8);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Base, "b");
  EXPECT_TRUE(S->BaseSimple);
  EXPECT_EQ(S->Rest, "j + k * 2");
  // ... and up to 9: they may cross into the next unit.
  U.ColTerms = {term("b", 8), term("j", 1, 1), term("k * 2", 2, 8)};
  EXPECT_FALSE(swizzleSplit(U, 8));
  // An unbounded term outside the base: no split.
  U.ColTerms = {term("b", 8), term("tx", 1)};
  EXPECT_FALSE(swizzleSplit(U, 8));
  // Nothing outside the base: the plain form is the same.
  U.ColTerms = {term("b", 8), term("c", 16)};
  EXPECT_FALSE(swizzleSplit(U, 8));
}

TEST(LayoutChoiceTest, SwizzleEditsWriteTheSplitColumn) {
  // A one-dimensional tile As[128 * 16] read `k * 128 + r * 8 + i`.
  auto P = std::make_shared<ArrayEditPlan>();
  P->Name = "As";
  P->Shape = {{16, 128}, 4};
  P->RowLength = 128;
  P->DimTexts = {"16", "128"};
  P->SwizzleEditable = true;
  ArrayEditPlan::Use U;
  U.IndexPos = {"k.cu", 9, 12, 0, ""};
  U.IndexLength = 17;
  U.RowTermText = "k * 128";
  U.RowText = "k";
  U.RowSimple = true;
  U.ColText = "r * 8 + i";
  U.ColTerms = {term("r * 8", 8), term("i", 1, 7)};
  P->Uses.push_back(U);
  std::string Written, Why;
  std::vector<SourceEdit> E = layoutEdits(*P, SharedLayout::swizzle(32, 2, 2), Written, Why);
  ASSERT_EQ(E.size(), 1u) << Why;
  EXPECT_EQ(E[0].Insert, "k * 128 + (((r * 8) ^ (((k >> 2) & 3) << 3)) + i)");
  // 16-byte chunks: i crosses them, so the XOR takes the whole column.
  E = layoutEdits(*P, SharedLayout::swizzle(16, 3, 1), Written, Why);
  ASSERT_EQ(E.size(), 1u) << Why;
  EXPECT_EQ(E[0].Insert, "k * 128 + ((r * 8 + i) ^ (((k >> 1) & 7) << 2))");
}
