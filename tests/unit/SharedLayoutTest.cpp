// Other layouts of a shared array (model/SharedLayout.h): the candidates
// tried, the remapped offsets of padding and XOR swizzles, and when a remap
// is not exact.
#include "model/BankModel.h"
#include "model/SharedLayout.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

ArrayShape floatTile(int64_t Rows, int64_t Cols) { return ArrayShape{{Rows, Cols}, 4}; }

/// Lane L at (row RowOf(L), column ColOf(L)) of a float tile with rows of
/// RowBytes: byte offsets.
Poly at(int64_t RowBytes, int64_t (*RowOf)(unsigned), int64_t (*ColOf)(unsigned)) {
  LaneInts A{};
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = RowOf(L) * RowBytes + ColOf(L) * 4;
  return Poly::lanes(A);
}

unsigned wavefronts(const Poly &P, unsigned Width = 4) {
  return countWavefronts(P.laneConstants(), AllLanes, Width).Wavefronts;
}

} // namespace

TEST(SharedLayoutTest, CandidatesKeepEveryAccessAligned) {
  // Scalar accesses only: paddings from one float, swizzles of 4-, 8-, 16-
  // and 32-byte units.
  std::vector<SharedLayout> C = layoutCandidates(floatTile(32, 32), 4);
  ASSERT_FALSE(C.empty());
  EXPECT_EQ(C.front().K, SharedLayout::Pad);
  EXPECT_EQ(C.front().PadBytes, 4);
  bool Unit4 = false;
  for (const SharedLayout &L : C)
    Unit4 |= L.K == SharedLayout::Swizzle && L.UnitBytes == 4 && L.Bits == 5;
  EXPECT_TRUE(Unit4);
  // A float4 access: paddings by 16 bytes, swizzles of 16- and 32-byte
  // chunks only, whose XOR stays within 128 bytes (3 bits of 16-byte
  // chunks, 2 of 32-byte ones).
  bool Unit32 = false;
  for (const SharedLayout &L : layoutCandidates(floatTile(32, 32), 16)) {
    if (L.K == SharedLayout::Pad)
      EXPECT_EQ(L.PadBytes % 16, 0);
    else {
      EXPECT_TRUE(L.UnitBytes == 16u || L.UnitBytes == 32u);
      EXPECT_LE(int64_t(L.UnitBytes) << L.Bits, 128);
      Unit32 |= L.UnitBytes == 32u;
    }
  }
  EXPECT_TRUE(Unit32);
  // One row: nothing to try.
  EXPECT_TRUE(layoutCandidates(ArrayShape{{1, 32}, 4}, 4).empty());
  // Rows of 8 floats hold two 16-byte chunks: one bit of XOR at most.
  for (const SharedLayout &L : layoutCandidates(floatTile(64, 8), 16))
    if (L.K == SharedLayout::Swizzle)
      EXPECT_LE(L.Bits, 1u);
}

TEST(SharedLayoutTest, PaddingByOneFloatSpreadsAColumn) {
  const Poly Col = at(128, [](unsigned L) { return int64_t(L); }, [](unsigned) { return int64_t(3); });
  EXPECT_EQ(wavefronts(Col), 32u);
  std::optional<Poly> P = remapOffset(Col, 4, AllLanes, floatTile(32, 32), SharedLayout::pad(4));
  ASSERT_TRUE(P);
  EXPECT_EQ(P->laneConstants()[5], 5 * 132 + 12);
  EXPECT_EQ(wavefronts(*P), 1u);
}

TEST(SharedLayoutTest, ChunkSwizzleKeepsSixteenByteAccessesWhole) {
  // A float4 per lane, lane L at row L, chunk 0: 8 lanes a phase, all in
  // one bank group: 8-way in each of 4 phases.
  LaneInts A{};
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = int64_t(L) * 128;
  const Poly Rows = Poly::lanes(A);
  EXPECT_EQ(wavefronts(Rows, 16), 32u);
  const SharedLayout Z = SharedLayout::swizzle(16, 3, 0);
  std::optional<Poly> P = remapOffset(Rows, 16, AllLanes, floatTile(32, 32), Z);
  ASSERT_TRUE(P);
  for (unsigned L = 0; L < WarpSize; ++L)
    EXPECT_EQ(P->laneConstants()[L], int64_t(L) * 128 + 16 * (L & 7));
  EXPECT_EQ(wavefronts(*P, 16), 4u);
  // Padding by one float would misalign it; by 4 floats it is as good.
  std::optional<Poly> Q = remapOffset(Rows, 16, AllLanes, floatTile(32, 32), SharedLayout::pad(16));
  ASSERT_TRUE(Q);
  EXPECT_EQ(wavefronts(*Q, 16), 4u);
  // A 16-byte access does not fit a 4-byte unit.
  std::string Why;
  EXPECT_FALSE(remapOffset(Rows, 16, AllLanes, floatTile(32, 32), SharedLayout::swizzle(4, 5, 0), &Why));
  EXPECT_NE(Why.find("spans two"), std::string::npos);
}

TEST(SharedLayoutTest, ExactOnlyWhenTheUniformPartMovesWholePeriods) {
  SymbolTable Syms;
  const SymbolId K = Syms.add(SymbolInfo{});
  LaneInts A{};
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = int64_t(L) * 128;
  // Whole rows: padding is exact, the symbol's rows padded too.
  const Poly ByRows = Poly::lanes(A) + Poly::symbol(K, 128);
  std::optional<Poly> P = remapOffset(ByRows, 4, AllLanes, floatTile(64, 32), SharedLayout::pad(4));
  ASSERT_TRUE(P);
  EXPECT_EQ(*P - P->symbolicPart(0),
            *remapOffset(Poly::lanes(A), 4, AllLanes, floatTile(64, 32), SharedLayout::pad(4)));
  EXPECT_EQ(P->symbolicPart(0), Poly::symbol(K, 132));
  // A swizzle over 8 rows needs the symbol to move by 8 rows.
  EXPECT_FALSE(remapOffset(ByRows, 4, AllLanes, floatTile(64, 32), SharedLayout::swizzle(16, 3, 0)));
  EXPECT_TRUE(remapOffset(Poly::lanes(A) + Poly::symbol(K, 8 * 128), 4, AllLanes,
                          floatTile(64, 32), SharedLayout::swizzle(16, 3, 0)));
  // A column moved by a symbol: not by its bytes alone...
  const Poly ByCols = Poly::lanes(A) + Poly::symbol(K, 4);
  EXPECT_FALSE(remapOffset(ByCols, 4, AllLanes, floatTile(32, 32), SharedLayout::pad(4)));
  // ... but through the subscripts [L][k], padding is exact.
  const std::vector<Poly> Subs = {Poly::lanes([] {
                                    LaneInts R{};
                                    for (unsigned L = 0; L < WarpSize; ++L)
                                      R[L] = L;
                                    return R;
                                  }()),
                                  Poly::symbol(K)};
  std::optional<Poly> S = remapSubscripts(Subs, ByCols, 4, AllLanes, floatTile(32, 32), SharedLayout::pad(4));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->laneConstants()[3], 3 * 132);
  EXPECT_EQ(S->symbolicPart(0), Poly::symbol(K, 4));
  // A swizzle of 4-byte units depends on k's low bits: not exact.
  EXPECT_FALSE(remapSubscripts(Subs, ByCols, 4, AllLanes, floatTile(32, 32), SharedLayout::swizzle(4, 5, 0)));
}

TEST(SharedLayoutTest, SubscriptsAndBytesAgree) {
  // tile[L][(L * 4) % 32] through both paths, for every candidate.
  LaneInts R{}, C{}, B{};
  for (unsigned L = 0; L < WarpSize; ++L) {
    R[L] = L;
    C[L] = (L * 4) % 32;
    B[L] = R[L] * 128 + C[L] * 4;
  }
  const ArrayShape S = floatTile(32, 32);
  for (const SharedLayout &L : layoutCandidates(S, 4)) {
    std::optional<Poly> X = remapOffset(Poly::lanes(B), 4, AllLanes, S, L);
    std::optional<Poly> Y = remapSubscripts({Poly::lanes(R), Poly::lanes(C)}, Poly::lanes(B), 4,
                                            AllLanes, S, L);
    ASSERT_TRUE(X && Y) << L.key();
    EXPECT_EQ(*X, *Y) << L.key();
  }
}

TEST(SharedLayoutTest, CuteSpelling) {
  // float[32][32], 16-byte chunks by row & 7: Swizzle<3, 2, 3>.
  std::optional<CuteSwizzle> Z = cuteSwizzle(floatTile(32, 32), SharedLayout::swizzle(16, 3, 0));
  ASSERT_TRUE(Z);
  EXPECT_EQ(Z->B, 3u);
  EXPECT_EQ(Z->M, 2u);
  EXPECT_EQ(Z->S, 3u);
  // half[64][64], 16-byte chunks: CUTLASS's Swizzle<3, 3, 3>.
  Z = cuteSwizzle(ArrayShape{{64, 64}, 2}, SharedLayout::swizzle(16, 3, 0));
  ASSERT_TRUE(Z);
  EXPECT_EQ(Z->B, 3u);
  EXPECT_EQ(Z->M, 3u);
  EXPECT_EQ(Z->S, 3u);
  // A row that is not a power of two has no CuTe spelling.
  EXPECT_FALSE(cuteSwizzle(floatTile(32, 48), SharedLayout::swizzle(16, 2, 0)));
}

TEST(SharedLayoutTest, RowsWithoutTheirPaddingSwizzled) {
  // A [16][17] tile padded by hand: swizzles of rows of 16 are tried too
  // (when asked), none for a [16][24] tile (8 is more than a quarter of 16).
  const ArrayShape S = floatTile(16, 17);
  bool Found = false;
  for (const SharedLayout &L : layoutCandidates(S, 4, /*Unpad=*/true))
    Found |= L.K == SharedLayout::Swizzle && L.UnpadBytes == 4 && L.UnitBytes == 4 &&
             L.Bits == 4 && L.Shift == 0;
  EXPECT_TRUE(Found);
  for (const SharedLayout &L : layoutCandidates(S, 4))
    EXPECT_EQ(L.UnpadBytes, 0) << L.key();
  for (const SharedLayout &L : layoutCandidates(floatTile(16, 24), 4, true))
    EXPECT_EQ(L.UnpadBytes, 0) << L.key();
  const SharedLayout L = SharedLayout::swizzle(4, 4, 0, 4);
  EXPECT_EQ(L.extraBytes(S), -64);
  EXPECT_NE(L.key(), SharedLayout::swizzle(4, 4, 0).key());
  // t[tx][ty] of a 16 x 16 block (lanes: tx = L % 16, ty = L / 16): at a
  // pitch of 68 bytes 2-way; rows of 64 bytes, element c of row r at
  // c ^ (r & 15): one wavefront.
  LaneInts R{}, C{}, B{};
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    R[Lane] = Lane % 16;
    C[Lane] = Lane / 16;
    B[Lane] = R[Lane] * 68 + C[Lane] * 4;
  }
  EXPECT_EQ(wavefronts(Poly::lanes(B)), 2u);
  std::optional<Poly> Moved =
      remapSubscripts({Poly::lanes(R), Poly::lanes(C)}, Poly::lanes(B), 4, AllLanes, S, L);
  ASSERT_TRUE(Moved);
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    EXPECT_EQ(Moved->laneConstants()[Lane], R[Lane] * 64 + ((C[Lane] ^ (R[Lane] & 15)) * 4));
  EXPECT_EQ(wavefronts(*Moved), 1u);
  // An access of the padding itself cannot move there; nor can a byte
  // offset without its subscripts.
  LaneInts Pad{};
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    C[Lane] = 16;
    Pad[Lane] = R[Lane] * 68 + 64;
  }
  EXPECT_FALSE(remapSubscripts({Poly::lanes(R), Poly::lanes(C)}, Poly::lanes(Pad), 4, AllLanes,
                               S, L));
  EXPECT_FALSE(remapOffset(Poly::lanes(B), 4, AllLanes, S, L));
}
