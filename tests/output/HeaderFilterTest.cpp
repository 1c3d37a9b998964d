//===- HeaderFilterTest.cpp - Which files findings are shown from ---------===//

#include "HeaderFilter.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace coalesce;
using Where = HeaderFilter::Where;

namespace {

SourcePos at(const std::string &File, bool Main = false, bool System = false) {
  SourcePos P;
  P.File = File;
  P.Line = 1;
  P.InMainFile = Main;
  P.InSystemHeader = System;
  return P;
}

HeaderFilter make(std::optional<std::string> Regex, bool System, std::string Root = "") {
  auto F = HeaderFilter::create(Regex, System, Root);
  EXPECT_TRUE(static_cast<bool>(F));
  return std::move(*F);
}

} // namespace

TEST(HeaderFilter, DefaultShowsTheUsersOwnFiles) {
  HeaderFilter F = make(std::nullopt, false);
  EXPECT_EQ(F.classify(at("k.cu", /*Main=*/true)), Where::Shown);
  EXPECT_EQ(F.classify(at("/elsewhere/k.cu", /*Main=*/true)), Where::Shown); // inputs always
  EXPECT_EQ(F.classify(at("inc/own.cuh")), Where::Shown);                   // under the root
  EXPECT_EQ(F.classify(at("/opt/vendor/tp.cuh")), Where::OtherHeader);
  EXPECT_EQ(F.classify(at("inc/sys.cuh", false, /*System=*/true)), Where::SystemHeader);
  EXPECT_EQ(F.classify(at("/usr/local/cuda/include/x.h", false, true)), Where::SystemHeader);
}

TEST(HeaderFilter, SourceRootDecidesWhatIsOwn) {
  HeaderFilter F = make(std::nullopt, false, "/opt");
  EXPECT_EQ(F.classify(at("/opt/vendor/tp.cuh")), Where::Shown);
  EXPECT_EQ(F.classify(at("/optical/tp.cuh")), Where::OtherHeader);
}

TEST(HeaderFilter, RegexAsClangTidy) {
  HeaderFilter F = make(std::string("vendor/"), false);
  EXPECT_EQ(F.classify(at("/opt/vendor/tp.cuh")), Where::Shown);
  EXPECT_EQ(F.classify(at("inc/own.cuh")), Where::OtherHeader);
  EXPECT_EQ(F.classify(at("k.cu", true)), Where::Shown);
  EXPECT_EQ(F.classify(at("/usr/include/vendor/x.h", false, true)), Where::SystemHeader);
  // Matched against the absolute path too.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  HeaderFilter Abs = make("^" + std::string(Cwd) + "/inc/", false);
  EXPECT_EQ(Abs.classify(at("inc/own.cuh")), Where::Shown);
}

TEST(HeaderFilter, SystemHeaders) {
  HeaderFilter F = make(std::nullopt, true);
  EXPECT_EQ(F.classify(at("/usr/local/cuda/include/x.h", false, true)), Where::Shown);
  EXPECT_EQ(F.classify(at("/opt/vendor/tp.cuh")), Where::OtherHeader);
  // With a regex, system headers must match it too.
  HeaderFilter R = make(std::string("cuda"), true);
  EXPECT_EQ(R.classify(at("/usr/local/cuda/include/x.h", false, true)), Where::Shown);
  EXPECT_EQ(R.classify(at("/usr/include/c++/x.h", false, true)), Where::SystemHeader);
}

TEST(HeaderFilter, InvalidRegex) {
  auto F = HeaderFilter::create(std::string("("), false, "");
  ASSERT_FALSE(static_cast<bool>(F));
  EXPECT_EQ(llvm::toString(F.takeError()), "--header-filter='(': parentheses not balanced");
}
