//===- ConfigTest.cpp - .coalesce-lint.yaml --------------------------------===//

#include "Config.h"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(Config, AllSettings) {
  auto C = parseConfig("# settings\n"
                       "rules: [uncoalesced-global, coalesce-shared-bank-conflict]\n"
                       "min-ratio: 2.5\n"
                       "block: [32, 8]\n"
                       "gpu-arch: sm_80\n"
                       "report-unknown: false\n",
                       "c.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  ASSERT_TRUE(C->Rules);
  EXPECT_EQ(*C->Rules, (std::vector<std::string>{"uncoalesced-global", "shared-bank-conflict"}));
  EXPECT_EQ(C->MinRatio.value_or(0), 2.5);
  ASSERT_EQ(C->Blocks.size(), 1u);
  EXPECT_EQ(C->Blocks[0].Kernel, "");
  EXPECT_EQ(C->Blocks[0].Block, (Dim3{32, 8, 1}));
  EXPECT_EQ(C->Blocks[0].Spelling, "the 'block' setting of c.yaml");
  EXPECT_EQ(C->GpuArch.value_or(""), "sm_80");
  EXPECT_EQ(C->ReportUnknown, std::optional<bool>(false));
}

TEST(Config, EmptyChangesNothing) {
  for (const char *Text : {"", "# nothing\n", "---\n"}) {
    auto C = parseConfig(Text, "c.yaml");
    ASSERT_TRUE(bool(C)) << Text << ": " << llvm::toString(C.takeError());
    EXPECT_FALSE(C->Rules || C->MinRatio || !C->Blocks.empty() || C->GpuArch ||
                 C->ReportUnknown);
  }
}

TEST(Config, ErrorsNameTheLine) {
  auto Err = [](const char *Text) {
    auto C = parseConfig(Text, "c.yaml");
    return C ? std::string("no error") : llvm::toString(C.takeError());
  };
  EXPECT_EQ(Err("min-ratio: 2\nmin_ratio: 3\n"),
            "c.yaml:2:1: unknown setting 'min_ratio' (known: rules, min-ratio, block, assume, "
            "gpu-arch, report-unknown, warn-misaligned)");
  EXPECT_EQ(Err("assume: [cols >]\n"),
            "c.yaml:1:10: 'assume' 'cols >': the bound is not an integer (expected NAME=VALUE, "
            "'NAME % M == R' or 'NAME >= BOUND')");
  EXPECT_EQ(Err("assume: []\n"), "c.yaml:1:10: 'assume' lists no fact (leave it out for none)");
  EXPECT_EQ(Err("min-ratio: fast\n"), "c.yaml:1:12: 'min-ratio' expects a number >= 1");
  EXPECT_EQ(Err("block: 32,0\n"), "c.yaml:1:8: 'block': block dimensions must be at least 1");
  EXPECT_EQ(Err("block: [[1]]\n"), "c.yaml:1:10: 'block' expects [X, Y, Z] with positive integers");
  EXPECT_EQ(Err("block: {k: [a]}\n"),
            "c.yaml:1:13: 'block' for 'k' expects X[,Y[,Z]] with positive integers, got 'a'");
  EXPECT_EQ(Err("block: {k: 2048}\n"),
            "c.yaml:1:12: 'block' for 'k': a block holds at most 1024 threads");
  EXPECT_EQ(Err("block: {}\n"), "c.yaml:1:9: 'block' lists no kernel (leave it out for none)");
  EXPECT_EQ(Err("gpu-arch: sm90\n"), "c.yaml:1:11: 'gpu-arch' expects sm_XX (e.g. sm_90)");
  EXPECT_EQ(Err("report-unknown: maybe\n"), "c.yaml:1:17: 'report-unknown' expects true or false");
  EXPECT_EQ(Err("rules: [bogus]\n"), "c.yaml:1:9: unknown rule 'bogus' (see coalesce-lint --list-rules)");
  EXPECT_EQ(Err("[1, 2]\n"), "c.yaml:1:2: expected a mapping of settings (rules, min-ratio, block, "
                             "assume, gpu-arch, report-unknown, warn-misaligned)");
  EXPECT_NE(Err("rules: [a\n"), "no error");
  // An empty list would mean "all rules" to runRules: refuse it.
  EXPECT_EQ(Err("rules: []\n"), "c.yaml:1:9: 'rules' lists no rule (leave it out to run them all)");
}

TEST(Config, BlockPerKernel) {
  auto C = parseConfig("block: {reduce6: [256], 'reduce6<float, 64>': 64, default: [32, 8]}\n",
                       "c.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  ASSERT_EQ(C->Blocks.size(), 3u);
  EXPECT_EQ(C->Blocks[0].Kernel, "reduce6");
  EXPECT_EQ(C->Blocks[0].Block, (Dim3{256, 1, 1}));
  EXPECT_EQ(C->Blocks[0].Spelling, "the 'block' setting of c.yaml for 'reduce6'");
  EXPECT_EQ(C->Blocks[1].Kernel, "reduce6<float, 64>");
  EXPECT_EQ(C->Blocks[1].Block, (Dim3{64, 1, 1}));
  EXPECT_EQ(C->Blocks[2].Kernel, "");
  EXPECT_EQ(C->Blocks[2].Block, (Dim3{32, 8, 1}));
  EXPECT_EQ(chooseBlock(C->Blocks, "reduce6<float, 64U>"), &C->Blocks[1]);
  EXPECT_EQ(chooseBlock(C->Blocks, "reduce6<int, 64U>"), &C->Blocks[0]);
  EXPECT_EQ(chooseBlock(C->Blocks, "other"), &C->Blocks[2]);
}

TEST(Config, AssumeFacts) {
  // A list, or one string; several facts in one item separated by commas.
  auto C = parseConfig("assume: [cols=2048, 'pitch % 128 == 0, rows > 15']\n", "c.yaml");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  ASSERT_EQ(C->Facts.size(), 3u);
  EXPECT_EQ(C->Facts[0].K, StatedFact::Equals);
  EXPECT_EQ(C->Facts[0].Value, 2048);
  EXPECT_EQ(C->Facts[1].str(), "pitch % 128 == 0");
  EXPECT_EQ(C->Facts[2].str(), "rows >= 16");
  EXPECT_EQ(C->Facts[2].Spelling, "'rows >= 16' from the 'assume' setting of c.yaml");
  Reason Conflict;
  KnownOf K = factsAbout(C->Facts, "pitch", "", Conflict);
  EXPECT_TRUE(Conflict.empty());
  EXPECT_EQ(K.Modulus, 128);
  EXPECT_EQ(K.Residue, 0);
  // A bare field name applies to that field of any struct parameter.
  K = factsAbout(C->Facts, "img", ".rows", Conflict);
  ASSERT_TRUE(K.Min.has_value());
  EXPECT_EQ(*K.Min, 16);
}

TEST(Config, BlockShapes) {
  std::string Why;
  EXPECT_EQ(parseBlockShape("32", Why).value_or(Dim3{}), (Dim3{32, 1, 1}));
  EXPECT_EQ(parseBlockShape("16, 4, 2", Why).value_or(Dim3{}), (Dim3{16, 4, 2}));
  EXPECT_FALSE(parseBlockShape("1,2,3,4", Why));
  EXPECT_FALSE(parseBlockShape("", Why));
  EXPECT_FALSE(parseBlockShape("-1", Why));
  EXPECT_FALSE(parseBlockShape("2048", Why));
  EXPECT_EQ(Why, "a block holds at most 1024 threads");
}
