//===- SarifTest.cpp - SARIF details the sample kernels do not reach ------===//

#include "Sarif.h"

#include "SourceKey.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace coalesce;
using nlohmann::json;

namespace {

struct Fixture {
  AccessRecord R;
  Finding F;
  Fixture(const std::string &File, unsigned Line, unsigned Col, const std::string &Text) {
    R.Kernel = "k";
    R.Space = MemorySpace::Shared;
    R.Ans = Answer::exact(32, 1);
    F.RuleId = "shared-bank-conflict";
    F.Record = &R;
    F.Message = "shared load from 'tile' has a 32-way bank conflict";
    F.Pos.File = File;
    F.Pos.Line = Line;
    F.Pos.Column = Col;
    F.Pos.EndColumn = Col + 4;
    F.Pos.LineText = Text;
  }
};

std::string cwd() {
  llvm::SmallString<256> P;
  llvm::sys::fs::current_path(P);
  return std::string(P);
}

json result(const std::vector<Finding> &Fs, const SarifOptions &O = {}) {
  return findingsToSarif(Fs, {}, O)["runs"][0]["results"];
}

} // namespace

TEST(Sarif, FixItReplacesWhatItRemoves) {
  Fixture X(cwd() + "/src/t.cu", 9, 3, "  __shared__ float tile[32][32];");
  FixIt Fix;
  Fix.Pos = X.F.Pos;
  Fix.Pos.Line = 4;
  Fix.Pos.Column = 29;
  Fix.Pos.LineText = "  __shared__ float tile[32][32];";
  Fix.RemoveLength = 2;
  Fix.Insert = "33";
  X.F.Fixes.push_back(Fix);
  X.F.Notes.push_back({Fix.Pos, "padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront"});
  json Res = result({X.F})[0];
  ASSERT_TRUE(Res.contains("fixes"));
  json Change = Res["fixes"][0]["artifactChanges"][0];
  EXPECT_EQ(Change["artifactLocation"]["uri"], "src/t.cu");
  EXPECT_EQ(Change["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  json Rep = Change["replacements"][0];
  EXPECT_EQ(Rep["deletedRegion"]["startLine"], 4);
  EXPECT_EQ(Rep["deletedRegion"]["startColumn"], 29);
  EXPECT_EQ(Rep["deletedRegion"]["endColumn"], 31);
  EXPECT_EQ(Rep["insertedContent"]["text"], "33");
  EXPECT_EQ(Res["fixes"][0]["description"]["text"],
            "padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront");
  EXPECT_EQ(Res["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 4);

  // A pure insertion deletes an empty region.
  X.F.Fixes[0].RemoveLength = 0;
  X.F.Fixes[0].Insert = " + 1";
  json Ins = result({X.F})[0]["fixes"][0]["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(Ins["deletedRegion"]["endColumn"], 29);
  EXPECT_EQ(Ins["insertedContent"]["text"], " + 1");
}

TEST(Sarif, ColumnsCountCodePoints) {
  // "é" is two bytes: `in[i]` is at byte columns [16, 21), code points [15, 20).
  Fixture X(cwd() + "/t.cu", 2, 16, "  /* \xc3\xa9 */ x = in[i];");
  X.F.Pos.EndColumn = 21;
  json Region = result({X.F})[0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(Region["startColumn"], 15);
  EXPECT_EQ(Region["endColumn"], 20);
  EXPECT_EQ(Region["snippet"]["text"], "in[i]");
}

TEST(Sarif, LevelsAndFilesOutsideTheRoot) {
  Fixture X("/elsewhere/dir with space/t.cu", 1, 1, "x");
  X.F.Level = Severity::Remark;
  SarifOptions O;
  O.SourceRoot = "/work-root-that-does-not-contain-it";
  json Res = result({X.F}, O)[0];
  EXPECT_EQ(Res["level"], "note");
  json Art = Res["locations"][0]["physicalLocation"]["artifactLocation"];
  // Relative to the file system root, a base of its own: no file: URI.
  EXPECT_EQ(Art["uri"], "elsewhere/dir%20with%20space/t.cu");
  EXPECT_EQ(Art["uriBaseId"], "%FSROOT%");
  json Bases = findingsToSarif({X.F}, {}, O)["runs"][0]["originalUriBaseIds"];
  EXPECT_TRUE(Bases.contains("%SRCROOT%"));
  EXPECT_TRUE(Bases.contains("%FSROOT%"));
  for (auto &[Id, Base] : Bases.items()) {
    EXPECT_FALSE(Base.contains("uri")) << Id;
    EXPECT_TRUE(Base["description"]["text"].is_string()) << Id;
  }
}

TEST(Sarif, NoMachinePathsInTheLog) {
  // Files under the source root only: one base; nowhere a file: URI, and no
  // informationUri unless one was configured at build time.
  Fixture X(cwd() + "/src/t.cu", 1, 1, "x");
  json Doc = findingsToSarif({X.F}, {}, {});
  EXPECT_FALSE(Doc["runs"][0]["originalUriBaseIds"].contains("%FSROOT%"));
  const std::string Text = Doc.dump();
  EXPECT_EQ(Text.find("file:"), std::string::npos) << Text;
  EXPECT_EQ(Text.find(cwd()), std::string::npos);
  json Driver = Doc["runs"][0]["tool"]["driver"];
  if (*COALESCE_INFORMATION_URI)
    EXPECT_EQ(Driver["informationUri"].get<std::string>().rfind("https://", 0), 0u);
  else
    EXPECT_FALSE(Driver.contains("informationUri"));
}

TEST(Sarif, GroupedFindingsListTheirKernels) {
  Fixture A(cwd() + "/t.cu", 3, 1, "x = tile[i][0];");
  AccessRecord Other = A.R;
  Other.Kernel = "k2";
  A.F.Also.push_back(&Other);
  json Props = result({A.F})[0]["properties"];
  EXPECT_EQ(Props["kernel"], "k");
  EXPECT_EQ(Props["kernels"], json::array({"k", "k2"}));
}

TEST(Sarif, FingerprintsCountRepeatsPerFile) {
  Fixture A(cwd() + "/t.cu", 3, 1, "  x = tile[i][0];");
  Fixture B(cwd() + "/t.cu", 9, 1, "x = tile[i][0];   // again");
  Fixture C(cwd() + "/u.cu", 3, 1, "x = tile[i][0];");
  json Res = result({A.F, B.F, C.F});
  const std::string H = lineHash(A.F);
  EXPECT_EQ(H, stableHash({"coalesce-shared-bank-conflict", "k", "x = tile[i][0];"}));
  EXPECT_EQ(Res[0]["partialFingerprints"]["primaryLocationLineHash"], H + ":1");
  EXPECT_EQ(Res[1]["partialFingerprints"]["primaryLocationLineHash"], H + ":2");
  EXPECT_EQ(Res[2]["partialFingerprints"]["primaryLocationLineHash"], H + ":1");
}

TEST(Sarif, UriEscaping) {
  EXPECT_EQ(uriPath("src/a b/c#1%.cu"), "src/a%20b/c%231%25.cu");
  EXPECT_EQ(uriPath("k_1-2~x.cu"), "k_1-2~x.cu");
}
