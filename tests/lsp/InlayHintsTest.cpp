//===- InlayHintsTest.cpp - The labels of access lines --------------------===//

#include "InlayHints.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::lsp;

namespace {

AccessRecord record(unsigned Line, unsigned Column, MemorySpace S, const std::string &Array,
                    Verdict V, double Cost, double Ideal) {
  AccessRecord R;
  R.Pos.File = "/src/k.cu";
  R.Pos.Line = Line;
  R.Pos.Column = Column;
  R.Space = S;
  R.Array = Array;
  R.Ans = V == Verdict::Unknown ? Answer() : Answer::exact(Cost, Ideal);
  return R;
}

TEST(InlayHints, CostLabels) {
  EXPECT_EQ(costLabel(record(1, 1, MemorySpace::Global, "in", Verdict::Ok, 4, 4)),
            "4/4 sectors");
  EXPECT_EQ(costLabel(record(1, 1, MemorySpace::Global, "in", Verdict::Uncoalesced, 4.5, 4)),
            "4.5/4 sectors");
  EXPECT_EQ(costLabel(record(1, 1, MemorySpace::Shared, "t", Verdict::BankConflict, 2, 1)),
            "2/1 wavefronts (2-way)");
  EXPECT_EQ(costLabel(record(1, 1, MemorySpace::Shared, "t", Verdict::Ok, 4, 4)),
            "4/4 wavefronts");
  EXPECT_EQ(costLabel(record(1, 1, MemorySpace::Constant, "c", Verdict::Serialised, 4, 1)),
            "4/1 requests");
  AccessRecord U = record(1, 1, MemorySpace::Global, "in", Verdict::Unknown, 0, 0);
  Reason Why;
  Why.Text = "the distance between lanes depends on 'cols', which is not known statically";
  Why.Subject = "cols";
  U.Ans = Answer::unknown(Why);
  EXPECT_EQ(costLabel(U), "? sectors (cols)");
  Why.Text = "the condition depends on floating-point or other data";
  Why.Subject = "";
  U.Ans = Answer::unknown(Why);
  EXPECT_EQ(costLabel(U), "? sectors");
}

// The subject comes with the reason (Reason::Subject): the hint does not
// parse the English text. A reason's subject is the argument its template
// quotes first, whatever the rendered text contains.
TEST(InlayHints, ReasonSubjects) {
  EXPECT_EQ(makeReason(ReasonKind::LoadedData, {"idx[i]"}).Subject, "idx[i]");
  EXPECT_EQ(makeReason(ReasonKind::PassedToOpaqueCall, {"f"}).Subject, "f");
  EXPECT_EQ(makeReason(ReasonKind::ConditionOnData).Subject, "");
  EXPECT_EQ(makeReason(ReasonKind::CallTooDeep, {"8"}).Subject, "") << "{0} is not quoted";
  // An argument that itself quotes something does not confuse it.
  EXPECT_EQ(makeReason(ReasonKind::LoadedData, {"a['x']"}).Subject, "a['x']");
  // A wrapper: its own quoted argument, else its cause's subject.
  Reason Inner = makeReason(ReasonKind::LoopExitValue, {"computed", "188"});
  EXPECT_EQ(Inner.Subject, "computed");
  EXPECT_EQ(wrapReason(ReasonKind::DependsOnCondition, {"c > 0"}, Inner).Subject, "c > 0");
  EXPECT_EQ(shortSubject("a_very_long_expression[with + many * terms]"),
            "a_very_long_expressio...") << "24 characters at most";
  EXPECT_EQ(shortSubject("idx[i]"), "idx[i]");
}

TEST(InlayHints, OneHintPerLineAtItsEndSitesByColumn) {
  auto Result = std::make_shared<RunResult>();
  std::vector<AccessRecord> &A = Result->Report.Accesses;
  A.push_back(record(2, 12, MemorySpace::Global, "in", Verdict::Uncoalesced, 8, 4));
  A.push_back(record(2, 3, MemorySpace::Global, "out", Verdict::Ok, 4, 4));
  // The same access in a second launch with other numbers; and a third
  // launch agreeing with the first.
  A.push_back(record(2, 12, MemorySpace::Global, "in", Verdict::Ok, 4, 4));
  A.push_back(record(2, 12, MemorySpace::Global, "in", Verdict::Uncoalesced, 8, 4));
  AccessRecord U = record(3, 3, MemorySpace::Global, "p", Verdict::Unknown, 0, 0);
  U.Ans = Answer::unknown(makeReason(ReasonKind::LoadedData, {"idx[i]"}));
  A.push_back(U);
  AccessRecord Header = record(1, 1, MemorySpace::Global, "h", Verdict::Ok, 4, 4);
  Header.Pos.File = "/src/k.cuh"; // an included file's access: not this document's
  A.push_back(Header);

  AnalysedDocument Doc;
  Doc.Path = "/src/k.cu";
  Doc.Text = "int k;\n  out[i] = in[2 * i]; // é\n  p[idx[i]] = 0;\n";
  Doc.Result = Result;
  llvm::lsp::Range All(llvm::lsp::Position(0, 0), llvm::lsp::Position(10, 0));
  std::vector<InlayHint> H = inlayHints(Doc, All, ClientSupport());
  ASSERT_EQ(H.size(), 2u);
  EXPECT_EQ(H[0].Label, "out 4/4 sectors, in 8/4 sectors or 4/4 sectors");
  EXPECT_EQ(H[0].Position, llvm::lsp::Position(1, 26)) << "UTF-16: 'é' is one unit";
  EXPECT_EQ(H[0].Tooltip, "");
  EXPECT_EQ(H[1].Label, "p ? sectors (idx[i])");
  EXPECT_EQ(H[1].Tooltip, "p: depends on data loaded by `idx[i]`");
  EXPECT_EQ(inlayHints(Doc, llvm::lsp::Range(llvm::lsp::Position(2, 0), llvm::lsp::Position(2, 0)),
                       ClientSupport())
                .size(),
            1u);
  llvm::json::Value J = toJSON(H[1]);
  EXPECT_EQ(*J.getAsObject()->getString("tooltip"), "p: depends on data loaded by `idx[i]`");
  EXPECT_EQ(*J.getAsObject()->getBoolean("paddingLeft"), true);
}

} // namespace
