// The statements of inline PTX, as interp/InlineAsm.cpp reads them.
#include "interp/PtxAsm.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

TEST(PtxAsm, OneInstruction) {
  auto S = parsePtx("cp.async.ca.shared.global [$0], [$1], 4;\n");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].opcodeText(), "cp.async.ca.shared.global");
  ASSERT_EQ(S[0].Operands.size(), 3u);
  EXPECT_EQ(S[0].Operands[0], "[$0]");
  EXPECT_EQ(S[0].Operands[2], "4");
  EXPECT_TRUE(S[0].has("ca"));
  EXPECT_FALSE(S[0].has("cg"));
}

TEST(PtxAsm, QualifiedPartsMatchTheirHead) {
  auto S = parsePtx("cp.async.cg.shared::cta.global.L2::128B [$0], [$1], 16, $2;");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].has("shared"));
  EXPECT_TRUE(S[0].has("L2::128B"));
  EXPECT_TRUE(S[0].has("L2"));
  EXPECT_EQ(S[0].Operands.size(), 4u);
}

TEST(PtxAsm, VectorOperandsAndScopes) {
  auto S = parsePtx("{ .reg .u64 a; cvta.to.shared.u64 a, $1; cvt.u32.u64 $0, a; }\n"
                    "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];\n"
                    "@!p stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [$5+16], {$6, $7};");
  ASSERT_EQ(S.size(), 4u);
  EXPECT_EQ(S[0].opcodeText(), "cvta.to.shared.u64");
  EXPECT_EQ(S[1].opcodeText(), "cvt.u32.u64");
  EXPECT_EQ(S[2].Operands.size(), 2u);
  EXPECT_EQ(parsePtxList(S[2].Operands[0]).size(), 4u);
  EXPECT_EQ(S[3].Guard, "@!p");
  std::optional<PtxAddress> A = parsePtxAddress(S[3].Operands[0]);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Base, "$5");
  EXPECT_EQ(A->Offset, 16);
}

TEST(PtxAsm, CommentsLabelsAndLiterals) {
  auto S = parsePtx("// copy\nL1: ld.global.nc.v4.f32 {$0,$1,$2,$3}, [$4-0x10]; /* done */");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Opcode.front(), "ld");
  std::optional<PtxAddress> A = parsePtxAddress(S[0].Operands[1]);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Offset, -16);
  EXPECT_EQ(parsePtxInteger("0x10"), 16);
  EXPECT_EQ(parsePtxInteger("16U"), 16);
  EXPECT_FALSE(parsePtxInteger("r1"));
  EXPECT_EQ(ptxOperandIndex("$12"), 12u);
  EXPECT_FALSE(ptxOperandIndex("$x"));
}

TEST(PtxAsm, LabelsAreMarked) {
  // A label before an instruction, before a scope, and one made with `%=`.
  auto S = parsePtx("mov.u32 $0, 0; L1: add.u32 $0, $0, 4; @p bra L1;");
  ASSERT_EQ(S.size(), 3u);
  EXPECT_FALSE(S[0].Labelled);
  EXPECT_TRUE(S[1].Labelled);
  EXPECT_EQ(S[2].Opcode.front(), "bra");
  auto T = parsePtx("L2: { ld.shared.u32 $0, [$1]; }");
  ASSERT_EQ(T.size(), 1u);
  EXPECT_TRUE(T[0].Labelled);
  auto U = parsePtx("LOOP${:uid}: ld.global.u32 $0, [$1];");
  ASSERT_EQ(U.size(), 1u);
  EXPECT_TRUE(U[0].Labelled);
  EXPECT_EQ(U[0].Opcode.front(), "ld");
}

TEST(PtxAsm, IntegersWrapAt64Bits) {
  EXPECT_EQ(parsePtxInteger("0xFFFFFFFFFFFFFFF0"), -16);
  EXPECT_FALSE(parsePtxInteger("99999999999999999999999"));
}

TEST(PtxAsm, DirectivesAreNotInstructions) {
  EXPECT_TRUE(parsePtx(".reg .pred p;").empty());
  EXPECT_TRUE(parsePtx("").empty());
}

} // namespace

namespace {

TEST(PtxAsm, TensorOperands) {
  auto S = parsePtx("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                    " [$0], [$1, {$2, $3}], [$4];");
  ASSERT_EQ(S.size(), 1u);
  ASSERT_EQ(S[0].Operands.size(), 3u);
  std::optional<PtxTensorOperand> T = parsePtxTensorOperand(S[0].Operands[1]);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Map, "$1");
  EXPECT_EQ(T->Coords, (std::vector<std::string>{"$2", "$3"}));
  EXPECT_FALSE(parsePtxTensorOperand("[$0]"));
  EXPECT_FALSE(parsePtxTensorOperand("[$0, $1]"));
  EXPECT_FALSE(parsePtxTensorOperand("$0"));
}

} // namespace
