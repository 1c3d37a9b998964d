// Residues of warp-uniform offsets, and exact averages over them.
#include "model/Alignment.h"
#include "model/SectorModel.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

double floatsAt(const ResidueDistribution &D) {
  return averageOverResidues(D, [](int64_t R) {
           LaneInts A;
           for (unsigned L = 0; L < WarpSize; ++L)
             A[L] = R + 4 * L;
           SectorCount S = countSectors(A, AllLanes, 4);
           return std::make_pair(double(S.Sectors), double(S.Ideal));
         })
      .Value;
}

TEST(Alignment, AlignedBlocksGiveOneResidue) {
  SymbolTable Syms;
  SymbolId B = Syms.add({"blockIdx.x", SymbolKind::BlockIdx, 0, true, ""});
  ResidueDistribution D = residuesOf(Poly::symbol(B, 1024), 0, 32, Syms);
  EXPECT_TRUE(D.exact());
  EXPECT_EQ(D.Weight[0], 1.0);
  EXPECT_EQ(floatsAt(D), 4.0);
}

TEST(Alignment, KnownGridAveragesExactly) {
  // in[blockIdx.x * 3 + lane] over 8 blocks: residues 12*b mod 32 ->
  // one aligned (4 sectors), seven misaligned (5): 4.875.
  SymbolTable Syms;
  SymbolInfo BI{"blockIdx.x", SymbolKind::BlockIdx, 0, true, ""};
  BI.UniformRange = 8;
  SymbolId B = Syms.add(BI);
  ResidueDistribution D = residuesOf(Poly::symbol(B, 12), 0, 32, Syms);
  EXPECT_TRUE(D.exact());
  EXPECT_DOUBLE_EQ(floatsAt(D), 4.875);
}

TEST(Alignment, UnknownOffsetGivesARange) {
  SymbolTable Syms;
  SymbolId Off = Syms.add({"off", SymbolKind::Param, 0, true, ""});
  ResidueDistribution D = residuesOf(Poly::symbol(Off, 4), 0, 32, Syms);
  EXPECT_FALSE(D.exact());
  EXPECT_EQ(D.UnknownStep, 4);
  Cost C = averageOverResidues(D, [](int64_t R) {
    LaneInts A;
    for (unsigned L = 0; L < WarpSize; ++L)
      A[L] = R + 4 * L;
    SectorCount S = countSectors(A, AllLanes, 4);
    return std::make_pair(double(S.Sectors), double(S.Ideal));
  });
  EXPECT_FALSE(C.Exact);
  EXPECT_EQ(C.Value, 4.0); // under the stated assumption: aligned
  EXPECT_EQ(C.Min, 4.0);
  EXPECT_EQ(C.Max, 5.0);
}

TEST(Alignment, ConstantsShiftTheResidue) {
  SymbolTable Syms;
  ResidueDistribution D = residuesOf(Poly::constant(36), 0, 32, Syms);
  EXPECT_EQ(D.Weight[4], 1.0);
}

TEST(Alignment, ARangeThatStartsAboveZeroIsShifted) {
  // in[blockIdx.x * 3 + lane] over blocks 8..15 only: residues 12*b mod 32
  // for b = 8..15 are those of 0..7 shifted by 96 = 0 mod 32: 4.875 again;
  // over block 1 alone (start 1, range 1): 12 -> 5 sectors.
  SymbolTable Syms;
  SymbolInfo BI{"blockIdx.x", SymbolKind::BlockIdx};
  BI.UniformRange = 1;
  BI.RangeStart = 1;
  SymbolId B = Syms.add(BI);
  ResidueDistribution D = residuesOf(Poly::symbol(B, 12), 0, 32, Syms);
  EXPECT_TRUE(D.exact());
  EXPECT_EQ(D.Weight[12], 1.0);
}

// What the compiler can prove of a shared element's address (base 16-byte
// aligned): struct copies there use pieces that wide (struct_copies.cu).
TEST(Alignment, ProvenAlignmentOfAnOffset) {
  LaneInts By32{}, By12{}, Odd8{};
  for (unsigned L = 0; L < WarpSize; ++L) {
    By32[L] = 32 * L;     // a 32-byte struct per lane
    By12[L] = 12 * L;     // a 12-byte struct
    Odd8[L] = 16 * L + 8; // odd 8-byte elements
  }
  EXPECT_EQ(provenAlignment(Poly::lanes(By32), AllLanes, 16), 16);
  EXPECT_EQ(provenAlignment(Poly::lanes(By12), AllLanes, 16), 4);
  EXPECT_EQ(provenAlignment(Poly::lanes(Odd8), AllLanes, 16), 8);
  // Only the active lanes count: lanes 0 and 4 of the 12-byte structs are
  // 48 bytes apart.
  EXPECT_EQ(provenAlignment(Poly::lanes(By12), LaneMask(1) | (LaneMask(1) << 4), 16), 16);
  // A symbolic term counts by its coefficient: 32 * k + 32 * lane.
  SymbolTable Syms;
  SymbolId K = Syms.add(SymbolInfo{"k", SymbolKind::Opaque});
  EXPECT_EQ(provenAlignment(Poly::lanes(By32) + Poly::symbol(K, 32), AllLanes, 16), 16);
  EXPECT_EQ(provenAlignment(Poly::lanes(By32) + Poly::symbol(K, 4), AllLanes, 16), 4);
  // Never above the base's alignment; 0 everywhere is the base's.
  EXPECT_EQ(provenAlignment(Poly::lanes(By32), AllLanes, 1), 1);
  EXPECT_EQ(provenAlignment(Poly::constant(0), AllLanes, 16), 16);
  EXPECT_EQ(provenAlignment(Poly::constant(6), AllLanes, 16), 2);
}

} // namespace
