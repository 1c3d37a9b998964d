//===- HostValueTest.cpp - The host evaluator's value domain ---------------===//

#include "launch/HostValue.h"

#include <gtest/gtest.h>

using namespace coalesce::host;
using namespace clang;

namespace {
const IntType I32{32, true, false}, U32{32, false, false}, Bool{1, false, true};
const IntType U64{64, false, false};
} // namespace

TEST(HostValue, IntTypes) {
  EXPECT_EQ(I32.min(), -Wide(2147483648LL));
  EXPECT_EQ(U32.max(), Wide(4294967295ULL));
  EXPECT_EQ(U32.wrap(-1), Wide(4294967295ULL));
  EXPECT_EQ(I32.wrap(Wide(2147483648LL)), -Wide(2147483648LL));
  EXPECT_EQ(Bool.wrap(42), 1);
  EXPECT_EQ(U64.wrap(-1), (Wide(1) << 64) - 1);
}

TEST(HostValue, Arithmetic) {
  auto Op = [](BinaryOperatorKind K, Wide A, Wide B, IntType T) {
    return intBinary(K, HVal::integer(A), HVal::integer(B), T, I32, 0);
  };
  EXPECT_EQ(Op(BO_Div, 1000 + 255, 256, I32).I, 4);
  EXPECT_EQ(Op(BO_Div, -7, 2, I32).I, -3); // toward zero, as C++
  EXPECT_EQ(Op(BO_Rem, -7, 2, I32).I, -1);
  EXPECT_EQ(Op(BO_Sub, 0, 1, U32).I, Wide(4294967295ULL)); // unsigned wraps
  EXPECT_TRUE(Op(BO_Add, 2147483647, 1, I32).isUnknown()); // signed overflow
  EXPECT_TRUE(Op(BO_Div, 1, 0, I32).isUnknown());
  EXPECT_TRUE(Op(BO_Shl, 1, 32, I32).isUnknown());
  EXPECT_EQ(Op(BO_Shl, 1, 10, I32).I, 1024);
  EXPECT_EQ(Op(BO_LT, 3, 4, I32).I, 1);
  // Float arithmetic in the precision of the type.
  HVal Third = floatBinary(BO_Div, HVal::floating(1), HVal::floating(3), true, 0);
  EXPECT_EQ(Third.F, static_cast<double>(1.0f / 3.0f));
  EXPECT_EQ(toInt(HVal::floating(-2.9), I32).I, -2);
  EXPECT_TRUE(toInt(HVal::floating(1e20), I32).isUnknown());
}

TEST(HostValue, SymbolsStayTiedToTheirCopies) {
  // t unknown (S1); b.x = (unsigned)t; later `case 512:` binds S1 = 512.
  HVal T = HVal::symbol(1, I32, 0);
  HVal X = toInt(T, U32);
  EXPECT_EQ(X.Lo, 0);
  EXPECT_EQ(X.Hi, I32.max());
  Bindings B{{1, 512}};
  EXPECT_EQ(resolve(X, B).I, 512);
  // A negative value would wrap in the unsigned copy: not the same value.
  EXPECT_TRUE(resolve(X, Bindings{{1, -1}}).isUnknown());
  // Affine forms: 2 * t + 1 and 10 - t.
  HVal Y = intBinary(BO_Add, intBinary(BO_Mul, T, HVal::integer(2), I32, I32, 0),
                     HVal::integer(1), I32, I32, 0);
  ASSERT_EQ(Y.K, HVal::Sym);
  EXPECT_EQ(resolve(Y, B).I, 1025);
  HVal Z = intBinary(BO_Sub, HVal::integer(10), T, I32, I32, 0);
  EXPECT_EQ(resolve(Z, B).I, -502);
  // Division leaves the affine forms.
  EXPECT_TRUE(intBinary(BO_Div, T, HVal::integer(2), I32, I32, 0).isUnknown());
  // x == 1025 with x = 2 * t + 1 teaches t = 512; an even value is impossible.
  auto S = solveEquals(Y, 1025);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->first, 1u);
  EXPECT_EQ(S->second, 512);
  EXPECT_FALSE(solveEquals(Y, 1024));
  // Outside the range where the form is valid, nothing is learnt.
  EXPECT_FALSE(solveEquals(X, -5));
}

TEST(HostValue, Joins) {
  EXPECT_EQ(join(HVal::integer(4), HVal::integer(4), 0).I, 4);
  EXPECT_TRUE(join(HVal::integer(4), HVal::integer(5), 7).isUnknown());
  EXPECT_EQ(join(HVal::integer(4), HVal::integer(5), 7).Why, 7u);
  HVal A = HVal::aggregate(3), B = HVal::aggregate(3);
  A.Elems = {HVal::integer(256), HVal::integer(1), HVal::integer(1)};
  B.Elems = {HVal::integer(128), HVal::integer(1), HVal::integer(1)};
  HVal J = join(A, B, 0);
  ASSERT_EQ(J.K, HVal::Agg);
  EXPECT_TRUE(J.Elems[0].isUnknown());
  EXPECT_EQ(J.Elems[1].I, 1);
}
