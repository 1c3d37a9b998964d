//===- WarpMapTest.cpp - Lanes -> sectors and banks, for pictures ---------===//

#include "WarpMap.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

AccessRecord record(MemorySpace S, unsigned Bytes, int64_t Stride, int64_t Base,
                    LaneMask Active = AllLanes) {
  AccessRecord R;
  R.Space = S;
  R.Ans = Answer::exact(0, 0);
  R.BytesPerLane = Bytes;
  LanePattern P;
  P.Active = Active;
  P.BytesPerLane = Bytes;
  P.BaseResidue = Base;
  P.Stride = Stride;
  P.ConstantStride = true;
  const unsigned First = firstLane(Active);
  for (unsigned L = 0; L < WarpSize; ++L)
    P.Offset[L] = (static_cast<int64_t>(L) - First) * Stride;
  R.Pattern = P;
  return R;
}

} // namespace

TEST(WarpMap, GlobalSectorsFromTheRecordedOffsets) {
  // Floats starting 4 bytes into a sector: lanes 0-6 in sector 0, 7-14 in 1, ...
  AccessRecord R = record(MemorySpace::Global, 4, 4, 4);
  auto M = buildWarpMap(R);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->StartInSector, 4);
  EXPECT_EQ(M->Lanes[6].First, 0);
  EXPECT_EQ(M->Lanes[7].First, 1);
  EXPECT_EQ(M->Lanes[31].First, 4);
  EXPECT_EQ(M->units(), (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

TEST(WarpMap, TheCostShownIsTheRecordsNotRecounted) {
  // The pattern alone would give 5 sectors; the record (averaged over blocks
  // and iterations by the analysis) says 4.5, and that is what is printed.
  AccessRecord R = record(MemorySpace::Global, 4, 4, 4);
  R.Ans = Answer::exact(4.5, 4);
  R.Ans.withRequests({4, 5}, /*AlignmentVaries=*/true);
  std::string T = renderWarpMapText(R);
  EXPECT_NE(T.find("4.5 sectors per request (ideal 4)"), std::string::npos) << T;
  EXPECT_NE(T.find("single requests cost 4 to 5, the map shows one of them"), std::string::npos) << T;
  EXPECT_EQ(T.find("; 5 sectors per request"), std::string::npos) << T;
  EXPECT_NE(renderWarpMapSvg(R).find("4.5 sectors per request (ideal 4)"), std::string::npos);
}

TEST(WarpMap, GlobalTextGrid) {
  AccessRecord R = record(MemorySpace::Global, 4, 4, 4);
  R.Ans = Answer::exact(5, 4);
  EXPECT_EQ(renderWarpMapText(R, ""),
            "warp map: lane -> 32-byte sector, numbered from lane 0's sector ('.' inactive)\n"
            "  lanes  0-7  | 0 0 0 0 0 0 0 1\n"
            "  lanes  8-15 | 1 1 1 1 1 1 1 2\n"
            "  lanes 16-23 | 2 2 2 2 2 2 2 3\n"
            "  lanes 24-31 | 3 3 3 3 3 3 3 4\n"
            "  4 bytes per lane; lane 0 starts 4 bytes into its sector; 5 sectors per request (ideal 4)\n");
}

TEST(WarpMap, WideLanesThatStraddleASectorAreMarked) {
  // 16-byte lanes starting 8 bytes into a sector: every odd lane spans two.
  AccessRecord R = record(MemorySpace::Global, 16, 16, 8);
  auto M = buildWarpMap(R);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Lanes[0].First, 0);
  EXPECT_EQ(M->Lanes[0].Last, 0);
  EXPECT_EQ(M->Lanes[1].First, 0);
  EXPECT_EQ(M->Lanes[1].Last, 1);
  std::string T = renderWarpMapText(R);
  EXPECT_NE(T.find("'+' the lane's 16 bytes run into the next sector"), std::string::npos) << T;
  EXPECT_NE(T.find("lanes  0-7  |   0  0+   1  1+   2  2+   3  3+"), std::string::npos) << T;
}

TEST(WarpMap, InactiveLanesAndTheFirstActiveOne) {
  AccessRecord R = record(MemorySpace::Global, 4, 128, 0, 0xAAAAAAAAu); // odd lanes
  auto M = buildWarpMap(R);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->FirstLane, 1u);
  EXPECT_FALSE(M->Lanes[0].Active);
  EXPECT_EQ(M->Lanes[3].First, 8); // 2 lanes x 128 bytes = 8 sectors further
  std::string T = renderWarpMapText(R);
  EXPECT_NE(T.find("numbered from lane 1's sector"), std::string::npos) << T;
  EXPECT_NE(T.find("lanes  0-7  |   .   0   .   8   .  16   .  24"), std::string::npos) << T;
}

TEST(WarpMap, SharedBanksAndPhases) {
  // tile[32][32] read down a column: every lane in bank 0, 32 distinct words.
  AccessRecord Col = record(MemorySpace::Shared, 4, 128, 0);
  auto M = buildWarpMap(Col);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->LanesPerPhase, 32u);
  EXPECT_EQ(M->wordsPerBank(0)[0], 32u);
  EXPECT_EQ(M->wordsPerBank(0)[1], 0u);

  // Broadcast: one word, however many lanes.
  AccessRecord Same = record(MemorySpace::Shared, 4, 0, 12);
  EXPECT_EQ(buildWarpMap(Same)->wordsPerBank(0)[3], 1u);

  // Doubles at stride 2 (16 bytes): two phases of 16 lanes, each lane covers
  // two banks, and banks 0,1,4,5,... get two words per phase.
  AccessRecord Wide = record(MemorySpace::Shared, 8, 16, 0);
  auto W = buildWarpMap(Wide);
  ASSERT_TRUE(W);
  EXPECT_EQ(W->LanesPerPhase, 16u);
  EXPECT_EQ(W->phases(), 2u);
  EXPECT_EQ(W->Lanes[1].First, 4);
  EXPECT_EQ(W->Lanes[1].Last, 5);
  auto N = W->wordsPerBank(1);
  EXPECT_EQ(N[0], 2u);
  EXPECT_EQ(N[1], 2u);
  EXPECT_EQ(N[2], 0u);
  std::string T = renderWarpMapText(Wide);
  EXPECT_NE(T.find("an 8-byte access covers 2 consecutive banks"), std::string::npos) << T;
  EXPECT_NE(T.find("lanes 16-31 |  2  2  .  .  2  2"), std::string::npos) << T;
}

TEST(WarpMap, ConstantAddressesInAddressOrder) {
  // cst[lane / 8]: four distinct addresses, numbered in address order; the
  // cost printed is the record's.
  AccessRecord R = record(MemorySpace::Constant, 4, 0, 0);
  for (unsigned L = 0; L < WarpSize; ++L)
    R.Pattern->Offset[L] = 4 * (L / 8);
  R.Ans = Answer::exact(4, 1);
  auto M = buildWarpMap(R);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, WarpMapKind::Addresses);
  EXPECT_EQ(M->Lanes[7].First, 0);
  EXPECT_EQ(M->Lanes[8].First, 1);
  EXPECT_EQ(M->Lanes[31].First, 3);
  EXPECT_EQ(M->units(), (std::vector<int64_t>{0, 1, 2, 3}));
  std::string T = renderWarpMapText(R);
  EXPECT_NE(T.find("lanes  8-15 | 1 1 1 1 1 1 1 1"), std::string::npos) << T;
  EXPECT_NE(T.find("4 distinct addresses; 4 constant-cache requests per instruction (ideal 1)"),
            std::string::npos)
      << T;
  std::string S = renderWarpMapSvg(R);
  EXPECT_NE(S.find(">addresses</text>"), std::string::npos);
  EXPECT_NE(S.find("address 3 (byte +12 from lane 0's)"), std::string::npos);
  EXPECT_EQ(warpMapTargets(R), "the distinct addresses they read");
}

TEST(WarpMap, SvgDrawsEveryLane) {
  AccessRecord R = record(MemorySpace::Global, 4, 4096, 0, 0x0000FFFFu);
  std::string S = renderWarpMapSvg(R);
  ASSERT_EQ(S.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << S.substr(0, 80);
  size_t Lanes = 0, Off = 0, Links = 0;
  for (size_t P = S.find("class=\"lane"); P != std::string::npos; P = S.find("class=\"lane", P + 1))
    ++Lanes;
  for (size_t P = S.find("class=\"lane off\""); P != std::string::npos;
       P = S.find("class=\"lane off\"", P + 1))
    ++Off;
  // Links are segments "Mx yLx y" of the link paths.
  for (size_t P = S.find("class=\"link"); P != std::string::npos; P = S.find("class=\"link", P + 1)) {
    size_t D = S.rfind(" d=\"", P), E = S.find('"', D + 4);
    for (size_t M = S.find('M', D); M < E; M = S.find('M', M + 1))
      ++Links;
  }
  EXPECT_EQ(Lanes, 32u);
  EXPECT_EQ(Off, 16u);   // inactive lanes are drawn, dashed
  EXPECT_EQ(Links, 16u); // only active lanes point at a sector
  EXPECT_EQ(S.find("<script"), std::string::npos);
}

TEST(WarpMap, NoMapWithoutAPattern) {
  AccessRecord R; // unknown
  EXPECT_EQ(renderWarpMapText(R), "");
  EXPECT_EQ(renderWarpMapSvg(R), "");
  AccessRecord Known = record(MemorySpace::Global, 4, 4, 0);
  Known.Ans = Answer::unknown(makeReason(ReasonKind::ConditionOnData)); // a pattern, but unknown
  EXPECT_FALSE(buildWarpMap(Known));
}

TEST(WarpMap, Escaping) {
  EXPECT_EQ(escapeXml("a<b && c>'d'\""), "a&lt;b &amp;&amp; c&gt;&#39;d&#39;&quot;");
}
