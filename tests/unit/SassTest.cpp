// The compiler witness's reading of nvdisasm output (witness/Sass.h): which
// instructions are memory accesses, their width, space and predicate, the
// source line each is attributed to (inlining chains included), and the
// inventory by line. The text is nvdisasm 13.2's `-gi` output for nvcc 13.0
// sm_90 code, shortened.

#include "witness/Sass.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::witness;

namespace {

const char *Disassembly = R"(	.target	sm_90

	.elftype	@"ET_EXEC"

//--------------------- .text._Z2kkPKfPfPdiPi     --------------------------
	.section	.text._Z2kkPKfPfPdiPi,"ax",@progbits
	.align	128
        .global         _Z2kkPKfPfPdiPi
        .other          _Z2kkPKfPfPdiPi,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z2kkPKfPfPdiPi:
	//## File "/tmp/w/k2.cu", line 3
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/tmp/w/k2.cu", line 7
	//## File "/tmp/w/k2.cu", line 2 inlined at "/tmp/w/k2.cu", line 7
	//## File "/tmp/w/k2.cu", line 7
        /*00b0*/              @!P0 LDG.E R3, desc[UR8][R26.64+0x1c] ;
	//## File "/tmp/w/k2.cu", line 7
        /*0130*/              @!P0 STG.E desc[UR8][R4.64], R7 ;
	//## File "/tmp/w/k2.cu", line 8
        /*0140*/                   LDG.E.128.CONSTANT R4, desc[UR8][R26.64] ;
	//## File "/usr/local/cuda/include/cuda_pipeline_helpers.h", line 203 inlined at "/usr/local/cuda/include/cuda_pipeline_primitives.h", line 69
	//## File "/usr/local/cuda/include/cuda_pipeline_primitives.h", line 69 inlined at "/tmp/w/k2.cu", line 9
	//## File "/tmp/w/k2.cu", line 9
        /*0240*/              @!PT LDS RZ, [RZ] ;
        /*0270*/                   LDGSTS.E.BYPASS.128 [R15], desc[UR8][R2.64] ;
	//## File "/tmp/w/k2.cu", line 13
        /*0310*/                   ATOMS.POPC.INC.32 RZ, [UR4] ;
	//## File "/tmp/w/k2.cu", line 14
        /*0320*/                   LDS.U16 R8, [R8] ;
        /*0330*/                   STS.64 [R7+UR4], R28 ;
        /*0340*/                   LDSM.16.MT88.4 R4, [R2] ;
        /*0350*/                   LDC R9, c[0x3][R2] ;
        /*0360*/                   FFMA R11, R5, R24, RZ ;
	//## File "/tmp/w/k2.cu", line 12
        /*03d0*/               @P0 REDG.E.ADD.STRONG.GPU desc[UR8][R24.64], R16 ;
//--------------------- .text._Z6helperPf         --------------------------
	.section	.text._Z6helperPf,"ax",@progbits
_Z6helperPf:
	//## File "/tmp/w/k2.cu", line 20
        /*0000*/                   LDL.64 R2, [R1+0x8] ;
)";

SassModule parse() {
  std::string Error;
  std::optional<SassModule> M = parseDisassembly(Disassembly, Error);
  EXPECT_TRUE(M.has_value()) << Error;
  return M ? *M : SassModule();
}

TEST(SassTest, FunctionsAndEntries) {
  SassModule M = parse();
  EXPECT_EQ(M.Arch, "sm_90");
  ASSERT_EQ(M.Functions.size(), 2u);
  EXPECT_EQ(M.Functions[0].Name, "_Z2kkPKfPfPdiPi");
  EXPECT_TRUE(M.Functions[0].Entry);
  EXPECT_FALSE(M.Functions[1].Entry);
  EXPECT_NE(M.function("_Z6helperPf"), nullptr);
  EXPECT_EQ(M.function("_Z5otherv"), nullptr);
}

TEST(SassTest, MemoryInstructionsOnly) {
  SassModule M = parse();
  const SassFunction &K = M.Functions[0];
  // The parameter's LDC, the never-run @!PT LDS and the FFMA are not kept.
  std::vector<std::string> Ops;
  for (const SassInstruction &I : K.Memory)
    Ops.push_back(I.Opcode);
  EXPECT_EQ(Ops, (std::vector<std::string>{"LDG.E", "STG.E", "LDG.E.128.CONSTANT",
                                           "LDGSTS.E.BYPASS.128", "ATOMS.POPC.INC.32",
                                           "LDS.U16", "STS.64", "LDSM.16.MT88.4", "LDC",
                                           "REDG.E.ADD.STRONG.GPU"}));
}

TEST(SassTest, WidthsSpacesKinds) {
  SassModule M = parse();
  const std::vector<SassInstruction> &I = M.Functions[0].Memory;
  EXPECT_EQ(I[0].Width, 4u);
  EXPECT_EQ(*I[0].Space.Space, MemorySpace::Global);
  EXPECT_EQ(I[0].Op, SassOp::Load);
  EXPECT_TRUE(I[0].Predicated);
  EXPECT_EQ(I[1].Op, SassOp::Store);
  EXPECT_EQ(I[2].Width, 16u);
  EXPECT_FALSE(I[2].Predicated);
  EXPECT_EQ(I[3].Op, SassOp::AsyncCopy);
  EXPECT_EQ(I[3].Width, 16u);
  EXPECT_EQ(I[4].Op, SassOp::Atomic);
  EXPECT_EQ(*I[4].Space.Space, MemorySpace::Shared);
  EXPECT_EQ(I[5].Width, 2u);
  EXPECT_EQ(I[6].Width, 8u);
  EXPECT_EQ(I[7].Op, SassOp::MatrixLoad);
  EXPECT_EQ(I[7].Matrices, 4u);
  EXPECT_TRUE(I[7].Transposed);
  EXPECT_EQ(*I[8].Space.Space, MemorySpace::Constant);
  EXPECT_EQ(I[9].Op, SassOp::Atomic);
  EXPECT_TRUE(I[9].Predicated);
  const SassInstruction &L = M.Functions[1].Memory.at(0);
  EXPECT_EQ(*L.Space.Space, MemorySpace::Local);
  EXPECT_EQ(L.Width, 8u);
}

TEST(SassTest, InliningChains) {
  SassModule M = parse();
  const std::vector<SassInstruction> &I = M.Functions[0].Memory;
  // Innermost first: the helper's line 2, inlined at line 7.
  ASSERT_EQ(I[0].Chain.size(), 2u);
  EXPECT_EQ(I[0].Chain[0].Line, 2u);
  EXPECT_EQ(I[0].Chain[1].Line, 7u);
  // A location without "inlined at" starts a new chain.
  ASSERT_EQ(I[1].Chain.size(), 1u);
  EXPECT_EQ(I[1].Chain[0].Line, 7u);
  // Three levels: two toolkit headers, then the user's line 9.
  ASSERT_EQ(I[3].Chain.size(), 3u);
  EXPECT_EQ(I[3].Chain.back().File, "/tmp/w/k2.cu");
  EXPECT_EQ(I[3].Chain.back().Line, 9u);
}

bool toolkit(const std::string &F, void *) { return F.find("/usr/local/cuda/") == 0; }

TEST(SassTest, InventoryByLine) {
  SassModule M = parse();
  LineInventory Lines(kernelCode(M, M.Functions[0]), toolkit, nullptr);
  // The helper's load counts at its own line, not at the call's.
  EXPECT_EQ(Lines.at("/tmp/w/k2.cu", 2).size(), 1u);
  EXPECT_EQ(Lines.at("/tmp/w/k2.cu", 7).size(), 1u);
  // The toolkit's instruction counts at the user's line that leads to it.
  ASSERT_EQ(Lines.at("/tmp/w/k2.cu", 9).size(), 1u);
  EXPECT_EQ(Lines.at("/tmp/w/k2.cu", 9)[0]->Op, SassOp::AsyncCopy);
  // The same file named another way.
  EXPECT_EQ(Lines.at("w/k2.cu", 14).size(), 4u);
  EXPECT_EQ(Lines.at("k2.cu", 14).size(), 4u);
  EXPECT_TRUE(Lines.at("other.cu", 14).empty());
  // A device function not inlined into the kernel is part of its code.
  EXPECT_EQ(Lines.at("/tmp/w/k2.cu", 20).size(), 1u);
  std::vector<unsigned> Want{2, 7, 8, 9, 12, 13, 14, 20};
  EXPECT_EQ(Lines.linesOf("/tmp/w/k2.cu"), Want);
}

TEST(SassTest, Summaries) {
  SassModule M = parse();
  LineInventory Lines(M.Functions[0]);
  std::vector<const SassInstruction *> Is;
  for (const SassInstruction *I : Lines.at("/tmp/w/k2.cu", 14))
    if (serves(*I, MemorySpace::Shared, AccessOp::Load))
      Is.push_back(I);
  // LDSM is a matrix load, not a plain one; LDC is not shared.
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(summarize(Is), "LDS.U16");
  SassInstruction A, B;
  ASSERT_TRUE(classifyOpcode("LDS.128", "R4, [R2]", A));
  ASSERT_TRUE(classifyOpcode("LDS.128", "R8, [R2+0x10]", B));
  A.Predicated = true;
  EXPECT_EQ(summarize({&B, &B, &A}), "LDS.128 x2 and LDS.128 (predicated)");
  EXPECT_FALSE(classifyOpcode("LDC", "R1, c[0x0][0x28]", A));
  EXPECT_FALSE(classifyOpcode("BAR.SYNC.DEFER_BLOCKING", "0x0", A));
}

TEST(SassTest, NoKernels) {
  // The cubin of a file without device code: an empty module, not an error.
  std::string Error;
  std::optional<SassModule> M = parseDisassembly("\t.target\tsm_90\n\t.elftype\t@\"ET_EXEC\"\n", Error);
  ASSERT_TRUE(M.has_value()) << Error;
  EXPECT_TRUE(M->Functions.empty());
}

TEST(SassTest, NotADisassembly) {
  std::string Error;
  EXPECT_FALSE(parseDisassembly("hello\nworld\n", Error).has_value());
  EXPECT_FALSE(Error.empty());
}

} // namespace

// Vector and packed atomics carry their width in the type's modifier
// (measured alike: sample_kernels/vector_atomics.cu).
TEST(SassTest, VectorAtomicWidths) {
  auto Width = [](const char *Op) {
    SassInstruction I;
    EXPECT_TRUE(classifyOpcode(Op, "desc[UR4][R2.64], R8", I));
    EXPECT_EQ(I.Op, SassOp::Atomic);
    return I.Width;
  };
  EXPECT_EQ(Width("REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU"), 16u);
  EXPECT_EQ(Width("REDG.E.ADD.F32x2.FTZ.RN.STRONG.GPU"), 8u);
  EXPECT_EQ(Width("REDG.E.ADD.F16x2.RN.STRONG.GPU"), 4u);
  EXPECT_EQ(Width("REDG.E.ADD.BF16x4.RN.STRONG.GPU"), 8u);
  EXPECT_EQ(Width("ATOM.E.ADD.F16x2.RN.STRONG.GPU"), 4u);
  EXPECT_EQ(Width("REDG.E.ADD.F32.FTZ.RN.STRONG.GPU"), 4u);
}
