//===- KernelReuse.h - Results of kernels kept from one analysis to the next ===//
//
// The language server analyses a document again after every edit; most
// edits touch one kernel. analyzeTranslationUnit() keeps each kernel's
// results here, under a key of everything they can depend on, and the next
// analysis of the document takes those whose key is unchanged instead of
// walking their warps again (issue 35). The key of kernel K:
//
//  - the main file's text, where the body of every other kernel is replaced
//    by its number of lines and the length of its last line (an edit inside
//    another kernel that keeps those - typing inside a line, not adding one
//    - leaves every line and column of K, and of the host code that
//    launches it, where it was); a body is kept whole where it may hold
//    what K's results read: a directive other than `#pragma unroll` (`#`,
//    `%:`, `_Pragma`: it may define what K reads), a launch (`<<<`, a
//    name with "launch": dynamic parallelism gives the launched kernel
//    its shape), a file-scope `__shared__` array's name (its layout fix
//    weighs its uses in every function);
//  - K's name with its template arguments;
//  - every file clang's file manager read besides the main file, by name,
//    size and time of change (the headers: a header that changed either
//    rebuilt the precompiled preamble, which reads it, or is parsed anew;
//    a header rewritten within the same second at the same size goes
//    unnoticed, as it does by the precompiled-header cache's own check);
//  - the analysis options and what the caller adds (its command line).
//
// Not used (neither taken nor kept) when clang reported an error, when the
// compiler witness joins the analysis (its instructions are not in the key),
// or for a header analysed through another file (its text is an editor's
// buffer, not the file on disk). What is kept is each kernel's summary, its
// records before the translation unit's layout fixes are chosen (those
// weigh every kernel), and the notes and annotation problems it added.
// Lines, columns and the text of lines are those of the new version; a kept
// record's SourcePos::RawLoc is the old AST's, which only the analysis of
// its own kernel compared (the clang-tidy front end, which reads it, does
// not reuse results).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_KERNELREUSE_H
#define COALESCE_ANALYZER_KERNELREUSE_H

#include "report/Report.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace coalesce {

struct KernelDef;

class KernelReuse {
public:
  /// One kernel's part of a TUReport.
  struct Entry {
    KernelSummary Summary;
    std::vector<AccessRecord> Accesses;
    std::vector<std::string> Notes;
    std::vector<AnnotationProblem> Problems;
    std::set<std::string> HostStated;
  };

  /// The kept entry under Key, or null.
  std::shared_ptr<const Entry> take(const std::string &Key);
  /// Keeps E under Key for the next analysis.
  void keep(const std::string &Key, std::shared_ptr<const Entry> E);
  /// Ends an analysis: the entries neither taken nor kept by it are dropped
  /// (a document's kernels are few; this bounds what is held).
  void finishAnalysis();
  /// Kernels answered from kept entries over the life of this object.
  unsigned reused() const;

private:
  mutable std::mutex M;
  std::map<std::string, std::shared_ptr<const Entry>> Kept, Used;
  unsigned Reused = 0;
};

/// The key of each kernel of Kernels (same order). A kernel whose body is
/// in a header or written by a macro has one too: the header's stamp, or
/// the macro's text, is in it. Salt: the options and the caller's part.
std::vector<std::string> kernelReuseKeys(clang::ASTContext &Ctx,
                                         const std::vector<KernelDef> &Kernels,
                                         const std::string &Salt);

} // namespace coalesce

#endif // COALESCE_ANALYZER_KERNELREUSE_H
