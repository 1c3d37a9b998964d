//===- NumbersTest.cpp - The one formatter of numbers in messages ---------===//

#include "report/Numbers.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

TEST(Numbers, WholeNumbersHaveNoPoint) {
  EXPECT_EQ(formatNumber(32), "32");
  EXPECT_EQ(formatNumber(0), "0");
  EXPECT_EQ(formatNumber(4.0000001), "4");
  EXPECT_EQ(formatNumber(-0.0001), "0");
}

TEST(Numbers, RoundedToThreeDecimalsWithoutTrailingZeros) {
  EXPECT_EQ(formatNumber(4.875), "4.875");
  EXPECT_EQ(formatNumber(4.75), "4.75");
  EXPECT_EQ(formatNumber(1.0 / 3.0), "0.333");
  EXPECT_EQ(formatNumber(2.0 / 3.0), "0.667");
  EXPECT_EQ(formatNumber(-1.5), "-1.5");
}

// The two formatters this replaces printed through a stream's default
// precision of 6 significant digits: 1234.5678 lost a decimal ("1234.57")
// and totals of a launch turned scientific ("1.23457e+07").
TEST(Numbers, LargeValuesKeepTheirDecimalsAndNoExponent) {
  EXPECT_EQ(formatNumber(1234.5678), "1234.568");
  EXPECT_EQ(formatNumber(12345678.25), "12345678.25");
  EXPECT_EQ(formatNumber(4294967296.0), "4294967296");
}

} // namespace

TEST(Numbers, ArticlesFollowHowTheNumberIsRead) {
  EXPECT_STREQ(articleFor("8"), "an");
  EXPECT_STREQ(articleFor("8.5"), "an");
  EXPECT_STREQ(articleFor("11"), "an");
  EXPECT_STREQ(articleFor("18"), "an");
  EXPECT_STREQ(articleFor("80"), "an");
  EXPECT_STREQ(articleFor("11000"), "an");
  EXPECT_STREQ(articleFor("2"), "a");
  EXPECT_STREQ(articleFor("16"), "a");
  EXPECT_STREQ(articleFor("110"), "a");
  EXPECT_STREQ(articleFor("1.5"), "a");
  EXPECT_STREQ(articleFor("3.917"), "a");
  EXPECT_STREQ(articleFor("extra"), "an");
}

TEST(Numbers, CountsHaveThousandsSeparators) {
  EXPECT_EQ(formatCount(0), "0");
  EXPECT_EQ(formatCount(999), "999");
  EXPECT_EQ(formatCount(65536), "65,536");
  EXPECT_EQ(formatCount(1048576), "1,048,576");
  EXPECT_EQ(formatCount(234881024.4), "234,881,024");
}
