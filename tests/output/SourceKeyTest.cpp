//===- SourceKeyTest.cpp - Paths, normalised lines and stable hashes ------===//

#include "SourceKey.h"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(SourceKey, NormalisedLineDropsCommentsAndBlanks) {
  EXPECT_EQ(normaliseLineText("  out[i]  =  in[2*i];  // slow"), "out[i] = in[2*i];");
  EXPECT_EQ(normaliseLineText("\tout[i] =\tin[i];\r"), "out[i] = in[i];");
  EXPECT_EQ(normaliseLineText("   // only a comment"), "");
  // "//" inside string and character literals is code.
  EXPECT_EQ(normaliseLineText(R"(  printf("a // b");  // c)"), R"(printf("a // b");)");
  EXPECT_EQ(normaliseLineText(R"(  c = '/'; d = "\" //"; // e)"), R"(c = '/'; d = "\" //";)");
}

TEST(SourceKey, RelativePaths) {
  EXPECT_EQ(relativePath("/a/b/c.cu", "/a").value_or("?"), "b/c.cu");
  EXPECT_EQ(relativePath("/a/b/c.cu", "/a/").value_or("?"), "b/c.cu");
  EXPECT_EQ(relativePath("/a/b/../c.cu", "/a").value_or("?"), "c.cu");
  EXPECT_EQ(relativePath("/x.cu", "/").value_or("?"), "x.cu");
  EXPECT_FALSE(relativePath("/a/bc/x.cu", "/a/b")); // a prefix, not a parent
  EXPECT_FALSE(relativePath("/other/x.cu", "/a"));
  EXPECT_EQ(displayPath("/other/x.cu", "/a"), "/other/x.cu");
}

TEST(SourceKey, StableHashIsPinned) {
  // SHA-256 of the parts, each NUL-terminated; pinned so that fingerprints
  // in uploaded SARIF and baselines never change between versions.
  EXPECT_EQ(stableHash({"coalesce-uncoalesced-global", "k", "out[i] = in[i];"}), "e99a37ba7c1c0c70");
  EXPECT_NE(stableHash({"ab", "c"}), stableHash({"a", "bc"}));
}
