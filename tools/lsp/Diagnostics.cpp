//===- Diagnostics.cpp - Findings as LSP diagnostics and code actions ----===//

#include "Diagnostics.h"

#include "ApplyFixes.h"
#include "SourceKey.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <tuple>

namespace coalesce {
namespace lsp {

namespace {

/// Ranges in the document and in the other files notes point to (read from
/// disk once per call, to count their characters as the client does).
class Locator {
public:
  Locator(const AnalysedDocument &Doc, const ClientSupport &Client)
      : Doc(Doc), Client(Client), Own(Doc.Text) {}

  /// The caret range of P: [Column, EndColumn) on its line, at least one character.
  std::optional<llvm::lsp::Location> location(const SourcePos &P) {
    if (P.File.empty() || P.Line == 0)
      return std::nullopt;
    const std::string Path = P.File == Doc.Path ? Doc.Path : absolutePath(P.File);
    const LineTable *T = table(Path);
    if (!T)
      return std::nullopt;
    llvm::lsp::Location L;
    if (Path == Doc.Path) {
      L.uri = Doc.Uri;
    } else {
      auto U = llvm::lsp::URIForFile::fromFile(Path);
      if (!U) {
        llvm::consumeError(U.takeError());
        return std::nullopt;
      }
      L.uri = *U;
    }
    L.range = llvm::lsp::Range(
        T->position(P.Line, P.Column, Client.Positions),
        T->position(P.Line, std::max(P.EndColumn, P.Column + 1), Client.Positions));
    return L;
  }

  const LineTable &own() const { return Own; }

private:
  const LineTable *table(const std::string &Path) {
    if (Path == Doc.Path)
      return &Own;
    auto It = Others.find(Path);
    if (It == Others.end()) {
      auto Buf = llvm::MemoryBuffer::getFile(Path);
      std::unique_ptr<Other> O;
      if (Buf) {
        O = std::make_unique<Other>();
        O->Text = (*Buf)->getBuffer().str();
        O->Table = std::make_unique<LineTable>(O->Text);
      }
      It = Others.emplace(Path, std::move(O)).first;
    }
    return It->second ? It->second->Table.get() : nullptr;
  }

  struct Other {
    std::string Text;
    std::unique_ptr<LineTable> Table;
  };
  const AnalysedDocument &Doc;
  const ClientSupport &Client;
  LineTable Own;
  std::map<std::string, std::unique_ptr<Other>> Others;
};

Diagnostic fromFinding(const Finding &F, Locator &Loc, const ClientSupport &Client) {
  Diagnostic D;
  D.Code = F.checkName();
  D.Base.source = "coalesce-lint";
  D.Base.severity = F.Level == Severity::Warning ? llvm::lsp::DiagnosticSeverity::Warning
                                                 : llvm::lsp::DiagnosticSeverity::Information;
  D.Base.message = F.Message;
  std::optional<llvm::lsp::Location> Here = Loc.location(F.Pos);
  if (Here)
    D.Base.range = Here->range;
  std::vector<llvm::lsp::DiagnosticRelatedInformation> Related;
  for (const FindingNote &N : F.Notes) {
    std::optional<llvm::lsp::Location> At = N.Pos ? Loc.location(*N.Pos) : Here;
    if (Client.RelatedInformation && At) {
      Related.emplace_back(*At, N.Message);
    } else {
      D.Base.message += "\n\nnote: ";
      if (N.Pos)
        D.Base.message += N.Pos->str() + ": ";
      D.Base.message += N.Message;
    }
  }
  if (!Related.empty())
    D.Base.relatedInformation = std::move(Related);
  return D;
}

} // namespace

// Written here rather than with llvm::lsp::toJSON(Diagnostic): that one also
// lacks `code`, and its URIs are borrowed strings that must outlive the JSON.
llvm::json::Value toJSON(const Diagnostic &D) {
  llvm::json::Object O{{"range", D.Base.range},
                       {"severity", static_cast<int>(D.Base.severity)},
                       {"message", D.Base.message}};
  if (!D.Base.source.empty())
    O["source"] = D.Base.source;
  if (!D.Code.empty())
    O["code"] = D.Code;
  if (D.Base.relatedInformation) {
    llvm::json::Array Related;
    for (const llvm::lsp::DiagnosticRelatedInformation &R : *D.Base.relatedInformation)
      Related.push_back(llvm::json::Object{
          {"location", llvm::json::Object{{"uri", R.location.uri.uri().str()},
                                          {"range", R.location.range}}},
          {"message", R.message}});
    O["relatedInformation"] = std::move(Related);
  }
  return O;
}

std::vector<Diagnostic> diagnostics(const AnalysedDocument &Doc, const ClientSupport &Client) {
  std::vector<Diagnostic> Out;
  Locator Loc(Doc, Client);
  if (!Doc.Problem.empty()) {
    Diagnostic D;
    D.Base.source = "coalesce-lint";
    D.Base.severity = llvm::lsp::DiagnosticSeverity::Warning;
    D.Base.message = Doc.Problem;
    SourcePos P;
    P.File = Doc.Path;
    P.Line = Doc.ProblemLine ? Doc.ProblemLine : 1;
    P.Column = Doc.ProblemColumn ? Doc.ProblemColumn : 1;
    if (std::optional<llvm::lsp::Location> L = Loc.location(P))
      D.Base.range = L->range;
    Out.push_back(std::move(D));
  }
  for (const Finding &F : Doc.Findings)
    if (F.Pos.File == Doc.Path)
      Out.push_back(fromFinding(F, Loc, Client));
  return Out;
}

llvm::json::Value toJSON(const CodeAction &A) {
  llvm::json::Array Diags;
  for (const Diagnostic &D : A.Diagnostics)
    Diags.push_back(toJSON(D));
  return llvm::json::Object{{"title", A.Title},
                            {"kind", llvm::lsp::CodeAction::kQuickFix},
                            {"isPreferred", true},
                            {"diagnostics", std::move(Diags)},
                            {"edit", A.Edit}};
}

std::vector<CodeAction> codeActions(const AnalysedDocument &Doc, const llvm::lsp::Range &Range,
                                    const ClientSupport &Client) {
  std::vector<CodeAction> Out;
  Locator Loc(Doc, Client);
  // One action per distinct set of edits (a padding is one edit of the
  // declaration, a swizzle one per use of the array), with every finding it
  // fixes.
  std::map<std::vector<std::tuple<unsigned, unsigned, unsigned, std::string>>, size_t> ByEdits;
  for (const Finding &F : Doc.Findings) {
    if (F.Pos.File != Doc.Path || F.Fixes.empty())
      continue;
    const int Line = static_cast<int>(F.Pos.Line) - 1;
    if (Line < Range.start.line || Line > Range.end.line)
      continue;
    std::vector<FixIt> Edits;
    for (const FixIt &X : F.Fixes)
      if (X.Pos.File == Doc.Path) // an edit of another file: the CLI's --fix applies it
        Edits.push_back(X);
    if (Edits.size() != F.Fixes.size())
      continue; // only part of the fix would be applied
    // Still applicable to the analysed text (the same check as --fix)?
    unsigned Applied = 0;
    std::vector<std::string> Skipped;
    applyEditsToText(Doc.Text, Edits, Applied, Skipped);
    if (Applied != Edits.size())
      continue;
    std::vector<std::tuple<unsigned, unsigned, unsigned, std::string>> Key;
    for (const FixIt &X : Edits)
      Key.emplace_back(X.Pos.Line, X.Pos.Column, X.RemoveLength, X.Insert);
    auto [It, New] = ByEdits.try_emplace(Key, Out.size());
    if (New) {
      CodeAction A;
      A.Title = F.Record && F.Record->Fix ? F.Record->Fix->Title
                                          : "apply the fix of " + F.checkName();
      for (const FixIt &X : Edits) {
        const size_t Begin = Loc.own().lineStart(X.Pos.Line - 1) + X.Pos.Column - 1;
        llvm::lsp::TextEdit E;
        E.range = llvm::lsp::Range(Loc.own().position(Begin, Client.Positions),
                                   Loc.own().position(Begin + X.RemoveLength, Client.Positions));
        E.newText = X.Insert;
        A.Edit.changes[Doc.Uri.uri().str()].push_back(std::move(E));
      }
      Out.push_back(std::move(A));
    }
    Out[It->second].Diagnostics.push_back(fromFinding(F, Loc, Client));
  }
  return Out;
}

} // namespace lsp
} // namespace coalesce
