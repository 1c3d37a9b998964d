//===- SourcePos.h - A position in the analysed source ---------------------===//

#ifndef COALESCE_ANALYZER_REPORT_SOURCEPOS_H
#define COALESCE_ANALYZER_REPORT_SOURCEPOS_H

#include <cstdint>
#include <string>

namespace coalesce {

struct SourcePos {
  std::string File; // as given on the command line / in the compile command
  unsigned Line = 0, Column = 0;
  unsigned EndColumn = 0;       // end of the caret range on Line (0: none)
  std::string LineText;         // the source line, for carets
  uint64_t RawLoc = 0;          // clang SourceLocation, valid while the AST lives
  /// Where the position lies, for the front-ends' header filters (as
  /// clang-tidy's --header-filter and --system-headers): in the translation
  /// unit's main file, or in a system header (-isystem, the toolkit, the
  /// standard library).
  bool InMainFile = false;
  bool InSystemHeader = false;
  std::string str() const;      // "file:line:col"
  std::string fileLine() const; // "f.cu:42": the file's base name and the line
  bool operator<(const SourcePos &O) const;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_SOURCEPOS_H
