//===- MisalignedGlobal.cpp - coalesce-misaligned-global ------------------===//

#include "MisalignedGlobal.h"

#include "model/SectorModel.h"

#include <algorithm>
#include <vector>

namespace coalesce {

MemorySpace MisalignedGlobal::space() const { return MemorySpace::Global; }

std::optional<MisalignedRows> misalignedRows(const AccessRecord &R) {
  if (R.Space != MemorySpace::Global || !R.Ans.known() || !R.Pattern || R.Ans.parametric())
    return std::nullopt;
  const LanePattern &P = *R.Pattern;
  // Warps (or iterations) of another shape: the representative request does
  // not speak for them.
  if (R.Ans.requestsDiffer() && !R.Ans.alignmentVaries())
    return std::nullopt;
  const int64_t W = P.BytesPerLane;
  if (W <= 0)
    return std::nullopt;
  std::vector<int64_t> Offs;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(P.Active, L))
      Offs.push_back(P.Offset[L]);
  if (Offs.empty())
    return std::nullopt;
  std::sort(Offs.begin(), Offs.end());
  MisalignedRows M;
  int64_t RowStart = Offs.front(), Sectors = 0;
  auto CloseRow = [&](int64_t End) {
    const int64_t Bytes = End - RowStart;
    if (Bytes % SectorBytes)
      return false;
    Sectors += Bytes / SectorBytes;
    M.RowBytes = std::max<unsigned>(M.RowBytes, static_cast<unsigned>(Bytes));
    ++M.Rows;
    return true;
  };
  for (size_t I = 1; I < Offs.size(); ++I) {
    if (Offs[I] < Offs[I - 1] + W)
      return std::nullopt; // duplicates or overlapping lanes
    if (Offs[I] == Offs[I - 1] + W)
      continue;
    if (!CloseRow(Offs[I - 1] + W))
      return std::nullopt;
    RowStart = Offs[I];
  }
  if (!CloseRow(Offs.back() + W))
    return std::nullopt;
  // Started on boundaries, the rows take exactly the bytes' ideal.
  const int64_t Total = static_cast<int64_t>(Offs.size()) * W;
  if (Sectors != (Total + SectorBytes - 1) / SectorBytes)
    return std::nullopt;
  if (R.Ans.cost() > R.Ans.ideal() + M.Rows + 1e-9)
    return std::nullopt;
  M.OffsetVaries = R.Ans.alignmentVaries() || !R.Ans.alignmentKnown();
  M.Offset = floorMod(P.BaseResidue, SectorBytes);
  return M;
}

bool MisalignedGlobal::claims(const AccessRecord &R) const { return misalignedRows(R).has_value(); }

namespace {

/// Where the rows start: "the warp's bytes start 4 bytes past a 32-byte
/// sector boundary", "the warp's bytes are contiguous, but their offset from
/// the 32-byte sectors changes from one block or iteration to the next (4 to
/// 5 sectors per request)", or the same of "each of the warp's 2 rows".
std::string whereRowsStart(const AccessRecord &R, const MisalignedRows &M) {
  const std::string Range = formatNumber(R.Ans.requests().Min) + " to " +
                            quantity(R.Ans.requests().Max, "sector") + " per request";
  const bool Spread = R.Ans.requestsDiffer() && R.Ans.alignmentVaries();
  if (M.Rows == 1) {
    if (M.OffsetVaries)
      return "the warp's bytes are contiguous, but their offset from the 32-byte sectors changes "
             "from one block or iteration to the next" + (Spread ? " (" + Range + ")" : "");
    return "the warp's bytes start " + std::to_string(M.Offset) +
           " bytes past a 32-byte sector boundary";
  }
  const std::string Rows = "the warp's bytes are " + std::to_string(M.Rows) +
                           " rows of contiguous bytes, each a whole number of sectors long";
  if (M.OffsetVaries)
    return Rows + ", whose offset from the 32-byte sectors changes from one warp, block or "
                  "iteration to the next" + (Spread ? " (" + Range + ")" : "");
  return Rows + ", which do not all start on a 32-byte sector boundary (the first starts " +
         std::to_string(M.Offset) + " bytes past one)";
}

} // namespace

void MisalignedGlobal::describe(const AccessRecord &R, const RuleOptions &Opts, Finding &F) const {
  const std::optional<MisalignedRows> M = misalignedRows(R);
  if (!Opts.MisalignedWarnings)
    F.Level = Severity::Remark;
  F.Message = accessPhrase(R) + " uses " + costStatement(R) + ": " + whereRowsStart(R, *M);
  addEvidenceAndAssumptions(F, R, Opts, "sector");
  const unsigned Elem = R.BytesPerLane ? R.BytesPerLane : 1;
  const std::string Gain = quantity(R.Ans.ideal(), "sector") + " per request (" +
                           formatNumber(R.Ans.ratio()) + "x fewer)";
  std::string Fix = "the accesses are contiguous but misaligned; ";
  if (M->OffsetVaries || M->Rows > 1)
    Fix += "the rows start where a row pitch or an offset that is not a multiple of 32 bytes puts "
           "them: padding the row pitch to a multiple of 32 bytes" +
           (32 % Elem == 0 && Elem < 32
                ? " (a multiple of " + std::to_string(32 / Elem) + " elements)"
                : std::string()) +
           " and starting the array on a 32-byte boundary gives " + Gain;
  else
    Fix += "starting the warp on a 32-byte boundary gives " + Gain;
  F.Notes.push_back({std::nullopt, Fix});
}

} // namespace coalesce
