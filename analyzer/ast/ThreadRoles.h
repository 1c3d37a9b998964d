//===- ThreadRoles.h - What the kernel's code says about its thread mapping ===//
//
// Two questions the mapping fixes (cost/ThreadSwap.h) ask of the source:
// whether the kernel's results depend on which threads share a warp (then
// exchanging the roles of x and y could change them), and which memory
// accesses are the two sides of one assignment (`out[..] = in[..]`: the
// pair a staged transpose takes through a shared tile).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AST_THREADROLES_H
#define COALESCE_ANALYZER_AST_THREADROLES_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace coalesce {

class KernelSites;

/// The first construct of the kernel or a function it calls whose result
/// depends on which threads form a warp, described with where it is
/// ("`__shfl_down_sync` at f.cu:30", "a `volatile` access at f.cu:12 (a
/// warp-synchronous exchange through memory)"), or "" where there is none:
/// warp shuffles, votes, matches, reductions, __syncwarp, __activemask,
/// cooperative groups, inline assembly that names a lane or a warp-wide
/// instruction, volatile accesses.
std::string warpSynchronousCode(clang::ASTContext &Ctx, const KernelSites &Sites);

/// The memory accesses that are the two sides of one plain assignment
/// (`a[i] = b[j];`, through parentheses and implicit conversions), as the
/// raw locations of their report positions (SourcePos::RawLoc): (written,
/// read).
std::vector<std::pair<uint64_t, uint64_t>> assignmentPairs(clang::ASTContext &Ctx,
                                                           const KernelSites &Sites);

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_THREADROLES_H
