//===- Positions.h - LSP positions in a document's text ------------------===//
//
// The analysis names places by 1-based line and byte column (clang's
// SourcePos); LSP positions are 0-based lines and characters counted in the
// code units the client and server agreed on at initialization: UTF-16 by
// default, UTF-8 or UTF-32 when the client offers them. A character past the
// end of its line means the end of the line; a line past the end of the text,
// the end of the text.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_POSITIONS_H
#define COALESCE_TOOLS_LSP_POSITIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LSP/Protocol.h"

#include <string>

namespace coalesce {
namespace lsp {

enum class Encoding { UTF8, UTF16, UTF32 };

/// "utf-8", "utf-16", "utf-32" (LSP's PositionEncodingKind).
const char *encodingName(Encoding E);

/// The document text split into lines (without their "\n" or "\r\n").
class LineTable {
public:
  explicit LineTable(llvm::StringRef Text);
  unsigned lines() const { return static_cast<unsigned>(Starts.size()); }
  /// Line L (0-based) without its terminator; "" past the end.
  llvm::StringRef line(unsigned L) const;
  /// Byte offset of line L's first character (the text's size past the end).
  size_t lineStart(unsigned L) const;

  /// The position of byte offset Offset (clamped to the text).
  llvm::lsp::Position position(size_t Offset, Encoding E) const;
  /// The position of a 1-based line and byte column, as in SourcePos.
  llvm::lsp::Position position(unsigned Line, unsigned Column, Encoding E) const;
  /// The end of 0-based line L.
  llvm::lsp::Position endOfLine(unsigned L, Encoding E) const;
  /// The byte offset of P (clamped as above); -1 for negative fields.
  long long offset(const llvm::lsp::Position &P, Encoding E) const;

private:
  llvm::StringRef Text;
  std::vector<size_t> Starts;
};

/// Applies one change of a didChange notification (a range and its new text,
/// or the whole text); false when the range is malformed (end before start).
bool applyChange(std::string &Text, const llvm::lsp::TextDocumentContentChangeEvent &C,
                 Encoding E);

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_POSITIONS_H
