//===- DiagnosticsTest.cpp - Findings as diagnostics and code actions -----===//

#include "Diagnostics.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::lsp;

namespace {

const char *Text = "__global__ void k() {\n"
                   "  __shared__ float tile[32][32];\n"
                   "  x = tile[threadIdx.x][0];\n"
                   "}\n";

/// A document with one bank-conflict finding on line 3 whose fix-it pads
/// the tile on line 2, and one remark.
std::unique_ptr<AnalysedDocument> document(const std::string &DocText) {
  auto Doc = std::make_unique<AnalysedDocument>();
  Doc->Path = "/src/k.cu";
  auto U = llvm::lsp::URIForFile::fromFile(Doc->Path);
  EXPECT_TRUE(bool(U));
  Doc->Uri = *U;
  Doc->Version = 7;
  Doc->Text = DocText;
  auto R = std::make_shared<RunResult>();
  AccessRecord Rec;
  Rec.Pos = {"/src/k.cu", 3, 7, 26, "  x = tile[threadIdx.x][0];"};
  Rec.Array = "tile";
  Rec.Fix.emplace();
  Rec.Fix->Title = "pad 'tile' to tile[32][33]";
  R->Report.Accesses.push_back(Rec);
  Doc->Result = R;

  Finding F;
  F.RuleId = "shared-bank-conflict";
  F.Pos = Rec.Pos;
  F.Message = "shared load from 'tile' has a 32-way bank conflict";
  F.Record = &R->Report.Accesses[0];
  F.Notes.push_back({std::nullopt, "lane evidence"});
  SourcePos Decl{"/src/k.cu", 2, 29, 0, "  __shared__ float tile[32][32];"};
  F.Notes.push_back({Decl, "padding gives 1 wavefront per request"});
  FixIt X;
  X.Pos = Decl;
  X.RemoveLength = 2;
  X.Insert = "33";
  F.Fixes.push_back(X);
  Doc->Findings.push_back(F);
  Finding Remark;
  Remark.RuleId = "uncoalesced-global";
  Remark.Level = Severity::Remark;
  Remark.Pos = {"/src/k.cu", 1, 1, 0, ""};
  Remark.Message = "cannot be predicted";
  Doc->Findings.push_back(Remark);
  return Doc;
}

TEST(Diagnostics, FindingsWithCodesAndRelatedInformation) {
  auto Doc = document(Text);
  ClientSupport C;
  C.RelatedInformation = true;
  std::vector<Diagnostic> D = diagnostics(*Doc, C);
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(D[0].Code, "coalesce-shared-bank-conflict");
  EXPECT_EQ(D[0].Base.severity, llvm::lsp::DiagnosticSeverity::Warning);
  EXPECT_EQ(D[0].Base.message, "shared load from 'tile' has a 32-way bank conflict");
  EXPECT_EQ(D[0].Base.range,
            llvm::lsp::Range(llvm::lsp::Position(2, 6), llvm::lsp::Position(2, 25)));
  ASSERT_TRUE(D[0].Base.relatedInformation);
  ASSERT_EQ(D[0].Base.relatedInformation->size(), 2u);
  EXPECT_EQ((*D[0].Base.relatedInformation)[0].location.range, D[0].Base.range)
      << "a note without a place points at the finding";
  EXPECT_EQ((*D[0].Base.relatedInformation)[1].location.range.start, llvm::lsp::Position(1, 28));
  EXPECT_EQ(D[1].Base.severity, llvm::lsp::DiagnosticSeverity::Information);

  llvm::json::Value J = toJSON(D[0]);
  EXPECT_EQ(*J.getAsObject()->getString("code"), "coalesce-shared-bank-conflict");
  EXPECT_EQ(*J.getAsObject()->getString("source"), "coalesce-lint");
}

TEST(Diagnostics, NotesInTheMessageWithoutRelatedInformation) {
  auto Doc = document(Text);
  std::vector<Diagnostic> D = diagnostics(*Doc, ClientSupport());
  EXPECT_FALSE(D[0].Base.relatedInformation);
  EXPECT_EQ(D[0].Base.message,
            "shared load from 'tile' has a 32-way bank conflict\n\nnote: lane evidence\n\n"
            "note: /src/k.cu:2:29: padding gives 1 wavefront per request");
}

TEST(Diagnostics, AProblemInsteadOfFindings) {
  AnalysedDocument Doc;
  Doc.Path = "/src/k.cu";
  Doc.Text = Text;
  Doc.Problem = "coalesce-lint: not analysed: the file does not parse (expected ';')";
  Doc.ProblemLine = 3;
  Doc.ProblemColumn = 5;
  std::vector<Diagnostic> D = diagnostics(Doc, ClientSupport());
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Base.range.start, llvm::lsp::Position(2, 4));
  EXPECT_EQ(D[0].Code, "");
}

TEST(CodeActions, ThePaddingAsAQuickFix) {
  auto Doc = document(Text);
  llvm::lsp::Range Line3(llvm::lsp::Position(2, 0), llvm::lsp::Position(2, 0));
  std::vector<CodeAction> A = codeActions(*Doc, Line3, ClientSupport());
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Title, "pad 'tile' to tile[32][33]");
  ASSERT_EQ(A[0].Diagnostics.size(), 1u);
  const std::vector<llvm::lsp::TextEdit> &E = A[0].Edit.changes[Doc->Uri.uri().str()];
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].range,
            llvm::lsp::Range(llvm::lsp::Position(1, 28), llvm::lsp::Position(1, 30)));
  EXPECT_EQ(E[0].newText, "33");
  llvm::json::Value J = toJSON(A[0]);
  EXPECT_EQ(*J.getAsObject()->getString("kind"), "quickfix");

  // Not for other lines; not once the declaration reads differently.
  llvm::lsp::Range Line1(llvm::lsp::Position(0, 0), llvm::lsp::Position(0, 0));
  EXPECT_TRUE(codeActions(*Doc, Line1, ClientSupport()).empty());
  std::string Edited = Text;
  Edited.replace(Edited.find("[32][32]"), 8, "[32][64]");
  EXPECT_TRUE(codeActions(*document(Edited), Line3, ClientSupport()).empty());
}

TEST(CodeActions, ASwizzleIsOneActionWithEveryEdit) {
  // A swizzle rewrites the innermost subscript of every use: one action, both
  // edits; none when one of them no longer applies.
  auto Doc = document(Text);
  Finding &F = Doc->Findings[0];
  F.Fixes.clear();
  SourcePos Use{"/src/k.cu", 3, 25, 0, "  x = tile[threadIdx.x][0];"};
  SourcePos Decl{"/src/k.cu", 2, 29, 0, "  __shared__ float tile[32][32];"};
  F.Fixes.push_back({Use, 1, "0 ^ (threadIdx.x & 31)"});
  F.Fixes.push_back({Decl, 2, "32"});
  const_cast<AccessRecord *>(F.Record)->Fix->Title = "swizzle 'tile': tile[r][c ^ (r & 31)]";
  llvm::lsp::Range Line3(llvm::lsp::Position(2, 0), llvm::lsp::Position(2, 0));
  std::vector<CodeAction> A = codeActions(*Doc, Line3, ClientSupport());
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Title, "swizzle 'tile': tile[r][c ^ (r & 31)]");
  const std::vector<llvm::lsp::TextEdit> &E = A[0].Edit.changes[Doc->Uri.uri().str()];
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E[0].newText, "0 ^ (threadIdx.x & 31)");
  EXPECT_EQ(E[0].range,
            llvm::lsp::Range(llvm::lsp::Position(2, 24), llvm::lsp::Position(2, 25)));
  std::string Edited = Text;
  Edited.replace(Edited.find("[32][32]"), 8, "[32][64]");
  Doc->Text = Edited;
  EXPECT_TRUE(codeActions(*Doc, Line3, ClientSupport()).empty());
}

} // namespace
