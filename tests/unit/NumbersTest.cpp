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
