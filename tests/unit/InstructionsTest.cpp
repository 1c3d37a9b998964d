// LDGSTS (cp.async) and LDSM/STSM (ldmatrix/stmatrix) counting rules, each
// case a line of tests/verify/fixtures/probe-async-h200/probe_async.cu or of
// sample_kernels/{async_copies,matrix_loads,async_gemm}.cu, with what Nsight
// Compute measured for it on an H200.
#include "model/Instructions.h"

#include <functional>

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

LaneInts lanes(const std::function<int64_t(int64_t)> &F) {
  LaneInts A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = F(L);
  return A;
}

struct CopyCase {
  const char *What;
  unsigned Width;
  bool Bypass;
  std::function<int64_t(int64_t)> Shared, Global; // element index of lane t
  unsigned Wavefronts, Sectors;
  LaneMask Active = AllLanes;
};

class AsyncCopies : public ::testing::TestWithParam<CopyCase> {};

TEST_P(AsyncCopies, MatchesTheH200) {
  const CopyCase &C = GetParam();
  const LaneInts S = lanes([&](int64_t T) { return C.Shared(T) * C.Width; });
  const LaneInts G = lanes([&](int64_t T) { return C.Global(T) * C.Width; });
  if (C.Bypass)
    ASSERT_TRUE(bypassModelled(G, S, C.Active)) << C.What;
  BankCount B = countAsyncCopyWavefronts(G, S, C.Active, C.Width, C.Bypass);
  SectorCount Sec = countAsyncCopySectors(G, S, C.Active, C.Width, C.Bypass);
  EXPECT_EQ(B.Wavefronts, C.Wavefronts) << C.What;
  EXPECT_EQ(Sec.Sectors, C.Sectors) << C.What;
}

int64_t id(int64_t T) { return T; }

INSTANTIATE_TEST_SUITE_P(
    Probe, AsyncCopies,
    ::testing::Values(
        // cp.async.ca, 4 bytes: the most lanes one bank serves, either side.
        CopyCase{"s[2t] <- in[t]", 4, false, [](int64_t T) { return 2 * T; }, id, 2, 4},
        CopyCase{"s[4t] <- in[t]", 4, false, [](int64_t T) { return 4 * T; }, id, 4, 4},
        CopyCase{"s[t^1] <- in[t]", 4, false, [](int64_t T) { return T ^ 1; }, id, 1, 4},
        CopyCase{"s[t] <- in[t^1]", 4, false, id, [](int64_t T) { return T ^ 1; }, 1, 4},
        CopyCase{"s[2t] <- in[2t]", 4, false, [](int64_t T) { return 2 * T; },
                 [](int64_t T) { return 2 * T; }, 2, 8},
        CopyCase{"s[t] <- in[t+1]", 4, false, id, [](int64_t T) { return T + 1; }, 1, 5},
        CopyCase{"half the lanes", 4, false, id, id, 1, 2, 0x0000ffffu},
        CopyCase{"s[t] <- in[t/2]", 4, false, id, [](int64_t T) { return T / 2; }, 2, 2},
        CopyCase{"s[32t] <- in[t]", 4, false, [](int64_t T) { return 32 * T; }, id, 32, 4},
        CopyCase{"s[2t] <- in[8t]", 4, false, [](int64_t T) { return 2 * T; },
                 [](int64_t T) { return 8 * T; }, 8, 32},
        CopyCase{"s[32(t%4)] <- in[8t]", 4, false, [](int64_t T) { return 32 * (T % 4); },
                 [](int64_t T) { return 8 * T; }, 32, 32},
        CopyCase{"s[t] <- in[32t]", 4, false, id, [](int64_t T) { return 32 * T; }, 32, 32},
        CopyCase{"s[t] <- in[5t%32]", 4, false, id, [](int64_t T) { return (5 * T) % 32; }, 1, 4},
        // cp.async.ca, 8 bytes: per half-warp.
        CopyCase{"s2[2t] <- in2[t]", 8, false, [](int64_t T) { return 2 * T; }, id, 4, 8},
        CopyCase{"s2[t] <- in2[t^1]", 8, false, id, [](int64_t T) { return T ^ 1; }, 2, 8},
        CopyCase{"s2[t] <- in2[2t]", 8, false, id, [](int64_t T) { return 2 * T; }, 4, 16},
        CopyCase{"s2[t<16 ? 2t : t]", 8, false, [](int64_t T) { return T < 16 ? 2 * T : T; }, id,
                 3, 8},
        // cp.async.ca, 16 bytes: per quarter-warp.
        CopyCase{"ca s4[t] <- in4[t]", 16, false, id, id, 4, 16},
        CopyCase{"ca s4[2t] <- in4[t]", 16, false, [](int64_t T) { return 2 * T; }, id, 8, 16},
        CopyCase{"ca s4[t] <- in4[t^1]", 16, false, id, [](int64_t T) { return T ^ 1; }, 4, 16},
        // cp.async.cg, 16 bytes (LDGSTS.BYPASS.128).
        CopyCase{"cg s4[t] <- in4[t]", 16, true, id, id, 4, 16},
        CopyCase{"cg s4[2t] <- in4[t]", 16, true, [](int64_t T) { return 2 * T; }, id, 32, 32},
        CopyCase{"cg s4[t] <- in4[t^1]", 16, true, id, [](int64_t T) { return T ^ 1; }, 4, 16},
        CopyCase{"cg s4[t^1] <- in4[t]", 16, true, [](int64_t T) { return T ^ 1; }, id, 4, 16},
        CopyCase{"cg s4[t] <- in4[2t]", 16, true, id, [](int64_t T) { return 2 * T; }, 32, 32},
        CopyCase{"cg s4[4t] <- in4[t]", 16, true, [](int64_t T) { return 4 * T; }, id, 32, 32},
        CopyCase{"cg s4[t] <- in4[t/2]", 16, true, id, [](int64_t T) { return T / 2; }, 32, 32},
        CopyCase{"cg s4[8t%256] <- in4[t]", 16, true, [](int64_t T) { return (8 * T) % 256; }, id,
                 32, 32},
        CopyCase{"cg s4[t<8 ? 2t : t]", 16, true, [](int64_t T) { return T < 8 ? 2 * T : T + 8; },
                 id, 11, 20},
        CopyCase{"cg in4[t<8 ? 2t : t]", 16, true, id,
                 [](int64_t T) { return T < 8 ? 2 * T : T + 8; }, 11, 20},
        CopyCase{"cg two half lines", 16, true, id,
                 [](int64_t T) { return (T / 4) * 64 + ((T / 4) % 2) * 4 + T % 4; }, 8, 16},
        CopyCase{"cg rows of 128 bytes", 16, true, id,
                 [](int64_t T) { return (T / 8) * 64 + T % 8; }, 4, 16},
        // Whole sectors into 32-byte slots, one line into two blocks (probe
        // kernel `spans`, lines 103 and 112) and two lines into one (111).
        CopyCase{"cg a row across two blocks at 32 bytes", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + 2 + T % 8; }, id, 8, 16},
        CopyCase{"cg two rows of 64 bytes in two blocks", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + ((T % 8) / 4) * 12 + T % 4; }, id, 8, 16},
        CopyCase{"cg two lines into one block", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + T % 8; },
                 [](int64_t T) { return (T / 4) * 128 + T % 4; }, 8, 16},
        // Sectors whose halves land 16 bytes into a 32-byte slot (probe
        // `spans`, lines 102-108): each moved as its two halves, in two
        // passes, a wavefront per (line, block) of each pass; the sector
        // counted twice.
        CopyCase{"cg a row at 16 bytes", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + 1 + T % 8; }, id, 12, 32},
        CopyCase{"cg a row at 48 bytes", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + 3 + T % 8; }, id, 16, 32},
        CopyCase{"cg a row at 80 bytes", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + 5 + T % 8; }, id, 16, 32},
        CopyCase{"cg a row at 112 bytes", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + 7 + T % 8; }, id, 12, 32},
        // Aligned pairs and split ones in one quarter (lines 109, 110, 113):
        // the aligned pairs' pass, then the two halves' passes.
        CopyCase{"cg half a row at 0, half at 80", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + ((T % 8) / 4) * 5 + T % 4; }, id, 16, 24},
        CopyCase{"cg the same from two lines", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + ((T % 8) / 4) * 5 + T % 4; },
                 [](int64_t T) { return (T / 4) * 128 + T % 4; }, 16, 24},
        CopyCase{"cg half a row at 0, half at 144", 16, true,
                 [](int64_t T) { return (T / 8) * 16 + ((T % 8) / 4) * 9 + T % 4; }, id, 12, 24},
        // Not used to find the rule, and predicted by it: the padded GEMM
        // tiles of sample_kernels/async_gemm.cu (gemm_padded, measured on an
        // H200): A, rows of 80 bytes, two rows a quarter: 15 and 24; B, rows
        // of 144 bytes: 10 in one warp and 11 in the next (10.5 measured,
        // the mean over the warps), 24.
        CopyCase{"cg A rows of 80 bytes", 16, true,
                 [](int64_t T) { return 5 * (T / 4) + T % 4; },
                 [](int64_t T) { return 128 * (T / 4) + T % 4; }, 15, 24},
        CopyCase{"cg B rows of 144 bytes, warp 0", 16, true,
                 [](int64_t T) { return 9 * (T / 8) + T % 8; },
                 [](int64_t T) { return 1024 * (T / 8) + T % 8; }, 10, 24},
        CopyCase{"cg B rows of 144 bytes, warp 1", 16, true,
                 [](int64_t T) { return 9 * (4 + T / 8) + T % 8; },
                 [](int64_t T) { return 1024 * (4 + T / 8) + T % 8; }, 11, 24}));

TEST(AsyncCopies, BypassClasses) {
  // A padded GEMM tile (sample_kernels/async_gemm.cu, gemm_padded): rows of
  // 80 bytes, two per quarter-warp; the second row's sectors are split.
  const LaneInts S = lanes([](int64_t T) { return 80 * (T / 4) + 16 * (T % 4); });
  const LaneInts G = lanes([](int64_t T) { return 2048 * (T / 4) + 16 * (T % 4); });
  EXPECT_TRUE(bypassModelled(G, S, AllLanes));
  EXPECT_EQ(classifyBypassQuarter(G, S, AllLanes, 0), BypassQuarter::SplitSectors);
  // A row of 128 bytes at an offset of 16 in its block: split sectors.
  const LaneInts S2 = lanes([](int64_t T) { return 144 * (T / 8) + 16 * (T % 8); });
  const LaneInts G2 = lanes([](int64_t T) { return 2048 * (T / 8) + 16 * (T % 8); });
  EXPECT_EQ(classifyBypassQuarter(G2, S2, AllLanes, 0), BypassQuarter::ByLine);
  EXPECT_EQ(classifyBypassQuarter(G2, S2, AllLanes, 1), BypassQuarter::SplitSectors);
  // Halves in the reverse order of the sector's, 16 bytes into a slot: no
  // measured rule.
  const LaneInts S3 = lanes([](int64_t T) { return 16 * (1 + (T ^ 1)); });
  const LaneInts G3 = lanes([](int64_t T) { return 16 * T; });
  EXPECT_EQ(classifyBypassQuarter(G3, S3, AllLanes, 0), BypassQuarter::Unmodelled);
  EXPECT_FALSE(bypassModelled(G3, S3, AllLanes));
  // Pairs 48 bytes apart (sample_kernels/split_sectors.cu, pairs48): each
  // pair adjacent and in the sector's order, but four runs a quarter; the
  // rule gave 20 wavefronts where an H100 measured 24: not modelled.
  const LaneInts S5 = lanes([](int64_t T) { return 48 * (T / 2) + 16 * (T % 2); });
  EXPECT_EQ(classifyBypassQuarter(G3, S5, AllLanes, 0), BypassQuarter::Unmodelled);
  EXPECT_EQ(classifyBypassQuarter(G3, S5, AllLanes, 1), BypassQuarter::Unmodelled);
  // Rows of 96 bytes padded to 112, and of 64 padded to 144 (the same
  // sample, measured as predicted): two runs a quarter, modelled.
  const LaneInts S6 = lanes([](int64_t T) { return 112 * (T / 6) + 16 * (T % 6); });
  EXPECT_TRUE(bypassModelled(G3, S6, AllLanes));
  EXPECT_EQ(countAsyncCopyWavefronts(G3, S6, AllLanes, 16, true).Wavefronts +
                countAsyncCopyWavefronts(G3, lanes([](int64_t T) { return 112 * ((T + 32) / 6) + 16 * ((T + 32) % 6); }), AllLanes, 16, true).Wavefronts +
                countAsyncCopyWavefronts(G3, lanes([](int64_t T) { return 112 * ((T + 64) / 6) + 16 * ((T + 64) % 6); }), AllLanes, 16, true).Wavefronts,
            46u); // 15.333 a warp over the block's first three warps (of six)
  const LaneInts S7 = lanes([](int64_t T) { return 144 * (T / 4) + 16 * (T % 4); });
  EXPECT_EQ(countAsyncCopyWavefronts(G3, S7, AllLanes, 16, true).Wavefronts, 15u);
  // A chunk read by two lanes: no pair, lane by lane.
  const LaneInts G4 = lanes([](int64_t T) { return 16 * (T / 2); });
  const LaneInts S4 = lanes([](int64_t T) { return 32 * T; });
  EXPECT_EQ(classifyBypassQuarter(G4, S4, AllLanes, 0), BypassQuarter::ByLane);
}

struct MatrixCase {
  const char *What;
  unsigned Matrices;
  std::function<int64_t(int64_t)> Addr; // byte address of lane l's row
  unsigned Wavefronts;
};

class MatrixLoads : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(MatrixLoads, MatchesTheH200) {
  const MatrixCase &C = GetParam();
  BankCount B = countMatrixWavefronts(lanes(C.Addr), C.Matrices);
  EXPECT_EQ(B.Wavefronts, C.Wavefronts) << C.What;
  EXPECT_EQ(B.Ideal, C.Matrices) << C.What;
}

// half plain[64][64] (rows of 128 bytes), padded[64][72] (144 bytes).
int64_t plainRow(int64_t R, int64_t Col) { return R * 128 + Col * 2; }
int64_t paddedRow(int64_t R, int64_t Col) { return R * 144 + Col * 2; }

INSTANTIATE_TEST_SUITE_P(
    Probe, MatrixLoads,
    ::testing::Values(
        MatrixCase{"x4 plain", 4, [](int64_t L) { return plainRow(L % 16, (L / 16) * 8); }, 32},
        MatrixCase{"x4 padded", 4, [](int64_t L) { return paddedRow(L % 16, (L / 16) * 8); }, 4},
        MatrixCase{"x4 swizzled", 4,
                   [](int64_t L) { return plainRow(L % 16, ((L / 16) ^ (L % 8)) * 8); }, 4},
        MatrixCase{"x2 plain", 2, [](int64_t L) { return plainRow(L % 16, 0); }, 16},
        MatrixCase{"x1 plain", 1, [](int64_t L) { return plainRow(L % 16, 0); }, 8},
        MatrixCase{"x1: lanes 8-31 do not count", 1,
                   [](int64_t L) { return L < 8 ? paddedRow(L, 0) : 1 << 20 | plainRow(L, 0); }, 1},
        MatrixCase{"x4 broadcast", 4, [](int64_t) { return int64_t(0); }, 4},
        MatrixCase{"x4 four distinct rows", 4, [](int64_t L) { return plainRow(L % 4, 0); }, 16},
        MatrixCase{"x4 two distinct rows", 4, [](int64_t L) { return plainRow(L % 2, 0); }, 8},
        MatrixCase{"x4 one row per matrix", 4,
                   [](int64_t L) { return plainRow(L / 8, (L % 8) * 8); }, 4},
        MatrixCase{"x4 rows of 32 bytes", 4,
                   [](int64_t L) { return (L % 16) * 32 + (L / 16) * 16; }, 8},
        MatrixCase{"wmma ldm 24 (48-byte rows)", 4,
                   [](int64_t L) { return (L % 16) * 48 + (L / 16) * 16; }, 4}));

// Atomics on shared memory (ATOMS of a 32-bit integer), measured on an
// H100 (sample_kernels/shared_atomics.cu): lanes on one word are served one
// by one, unlike a load's broadcast.
TEST(Instructions, SharedAtomicsAsMeasured) {
  auto Count = [](const std::function<int64_t(int64_t)> &Word, LaneMask Active = AllLanes) {
    return countSharedAtomicWavefronts(lanes([&](int64_t L) { return Word(L) * 4; }), Active);
  };
  EXPECT_EQ(Count([](int64_t L) { return L; }).Wavefronts, 1u);             // add_own_word
  EXPECT_EQ(Count([](int64_t L) { return L * 32; }).Wavefronts, 32u);       // add_one_bank
  EXPECT_EQ(Count([](int64_t L) { return L / 2; }).Wavefronts, 2u);         // add_pairs (a store: 1)
  EXPECT_EQ(Count([](int64_t L) { return L / 4; }).Wavefronts, 4u);         // add_quads
  EXPECT_EQ(Count([](int64_t L) { return (L / 16) * 32; }).Wavefronts, 32u); // two words, one bank
  EXPECT_EQ(Count([](int64_t L) { return L / 4 + ((L / 2) % 2) * 32; }).Wavefronts,
            4u); // add_pairs_two_banks
  // Every lane on one word: nvcc may combine them (add_same_word measured 1
  // with one predicated ATOMS); not predicted.
  EXPECT_FALSE(Count([](int64_t) { return int64_t(5); }).Unknown.empty());
  // Inactive lanes do not count.
  EXPECT_EQ(Count([](int64_t L) { return L / 2; }, 0x55555555u).Wavefronts, 1u);
}

TEST(Instructions, Names) {
  EXPECT_EQ(instructionName(InstrKind::AsyncCopy, false, 8, 0), "cp.async.ca 8 bytes (LDGSTS.64)");
  EXPECT_EQ(instructionName(InstrKind::AsyncCopyBypass, false, 16, 0),
            "cp.async.cg 16 bytes (LDGSTS.BYPASS.128)");
  EXPECT_EQ(instructionName(InstrKind::Matrix, true, 16, 2), "stmatrix .x2 (STSM)");
  EXPECT_EQ(instructionName(InstrKind::Plain, false, 4, 0), "");
}

} // namespace
