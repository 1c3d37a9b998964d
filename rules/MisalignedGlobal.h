//===- MisalignedGlobal.h - coalesce-misaligned-global --------------------===//
//
// A global load or store whose lanes read rows of contiguous bytes that would
// take the ideal number of 32-byte sectors if each row started on a 32-byte
// boundary, but which start off one, so each row costs at most one sector
// more than it needs.
//
// The class apart from coalesce-uncoalesced-global (which it takes these
// accesses from): the lanes are as coalesced as they can be, the cost is
// at most ideal + 1 sector per row (1.22x for a warp reading 128 bytes), and
// the fix is not to change which lane reads what but where the rows start:
// pad the row pitch to a multiple of 32 bytes, align the base. Its findings
// are remarks unless --warn-misaligned (RuleOptions::MisalignedWarnings).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_RULES_MISALIGNEDGLOBAL_H
#define COALESCE_RULES_MISALIGNEDGLOBAL_H
#include "Rule.h"

#include <optional>

COALESCE_DECLARE_SPLIT_RULE(MisalignedGlobal)

namespace coalesce {

/// The rows of a global access whose whole excess is misalignment: the
/// active lanes' bytes (the record's representative request) form Rows
/// runs of contiguous bytes, each a whole number of 32-byte sectors long
/// (so that, started on a boundary, the runs take exactly the ideal), every
/// warp has that shape (only its offset from the sectors may change), and
/// the cost is at most the ideal plus one sector per row. nullopt otherwise
/// (an unknown cost, lanes with gaps or duplicates, rows of a partial
/// sector).
struct MisalignedRows {
  unsigned Rows = 0;
  unsigned RowBytes = 0;       // of the longest row
  bool OffsetVaries = false;   // the offset changes between warps or iterations
  int64_t Offset = 0;          // else: the first row's offset past a sector
};
std::optional<MisalignedRows> misalignedRows(const AccessRecord &R);

} // namespace coalesce

#endif // COALESCE_RULES_MISALIGNEDGLOBAL_H
