//===- Aggregate.h - From access events to per-access records -------------===//
//
// Every event the interpreter reports is one request of one warp (or, in a loop
// analysed symbolically, the requests of all its iterations). Its cost comes
// from its memory space's model (model/Spaces.h: sectors, wavefronts,
// constant-cache requests), averaged over the alignments the warp-uniform part
// of its address can have (model/Alignment.h). An access's record is the request-weighted average of
// its events over all warps of the block, which is what Nsight Compute's
// per-instruction counters measure.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AGGREGATE_H
#define COALESCE_ANALYZER_AGGREGATE_H

#include "interp/Interpreter.h"
#include "cost/LayoutEdits.h"
#include "report/Answer.h"
#include "report/Report.h"
#include "model/Alignment.h"
#include "model/Parametric.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace coalesce {

/// An instruction with its own counting rule (model/Instructions.h): its
/// kind, and for an asynchronous copy the other side's lane addresses (their
/// constant parts: the rules depend on the lanes' distances and banks only).
struct InstrCount {
  InstrKind Kind = InstrKind::Plain;
  unsigned Matrices = 0;
  LaneInts Partner{};
};

class AccessAggregator : public EventSink {
public:
  explicit AccessAggregator(KernelRun &Run) : Run(Run) {}
  void record(const AccessEvent &E) override;
  /// What record() did with a request that a copy of it moved by a
  /// multiple of 128 bytes on every lane (the same request of another warp
  /// of a block, interp/AlikeWarps.cpp) does again: the same cost, added to
  /// the same sums (recordAgain()). S null: such a copy must be recorded in
  /// full.
  struct Repeat;
  /// record(), and what a copy of E would do again in Again.
  void record(const AccessEvent &E, Repeat *Again);
  /// A copy of the event Again was made for (the same in every part but its
  /// address, moved by a multiple of 128 bytes; E may carry another weight).
  void recordAgain(const Repeat &Again, const AccessEvent &E);
  /// Records for all accesses seen, in source order. Warps is the number of
  /// warp runs whose events were recorded.
  std::vector<AccessRecord> finish(const std::string &KernelName,
                                   unsigned Warps);
  /// Marks every access seen as unknown (the analysis was cut short).
  void poison(const std::string &Why);

private:
  struct Stats {
    const clang::Expr *Site = nullptr;
    const clang::Expr *ReportAt = nullptr; // AccessEvent::ReportAt
    const clang::Expr *BlameAt = nullptr;  // AccessEvent::BlameAt
    std::string BlameHelper;
    AccessOp Op = AccessOp::Load;
    std::string ContextKey, ContextText;
    MemorySpace Space = MemorySpace::Global;
    std::optional<RegionId> Region;
    clang::QualType Type;
    unsigned Width = 0, Chunks = 1;
    std::string Instruction; // AccessRecord::Instruction
    /// The total weight of the requests (known or not), and the costs of
    /// those whose cost is known by itself (not by a size: Param).
    double SumW = 0;
    AnswerSum Sum;
    bool RequestsKnown = true;
    std::string RequestsWhy;
    /// Costed requests that are counted and requests that stand for an
    /// iteration of a loop whose trip count is not known or a warp of
    /// those taking a branch (AccessEvent::Uncounted; why: UncountedWhy),
    /// and the span of their costs: mixed at different costs, the average
    /// over requests would weigh a count against an iteration.
    bool Counted = false, Uncounted = false;
    std::string UncountedWhy;
    double CostLo = 0, CostHi = 0, IdealLo = 0, IdealHi = 0;
    Reason UnknownWhy, MaskWhy;
    std::string Because;
    std::vector<ContractBreak> Contract;
    int64_t StructSize = 0;
    std::vector<Assumption> Assumptions;
    std::vector<Assumption> AlignmentNotes;
    std::optional<LanePattern> Pattern;
    unsigned PatternLanes = 0;
    double PatternWeight = 0;
    // Requests whose lanes are spread by a run-time size (Parametric.h):
    // the weighted sum of their tables, and their weight.
    ParamTable Param{};
    SymbolId ParamSym = 0;
    double ParamW = 0;
    /// What the parametric requests' alignment rests on, where it is assumed.
    std::vector<Assumption> ParamAlignmentNotes;
    // Shared memory: the distinct requests of an access to a declared array,
    // by address, to re-cost under other layouts (layoutSearch()); false
    // when one of them cannot be (LayoutWhyNot).
    struct LayoutRequest {
      Poly Offset;
      std::vector<Poly> Subscripts; // when a full subscript of the array
      int64_t RowLength = 0;        // AccessEvent::RowLength
      LaneMask Active = 0;
      unsigned Width = 0;
      double Weight = 0;
      std::optional<InstrCount> Instr;
    };
    std::unordered_map<uint64_t, std::vector<LayoutRequest>> LayoutRequests;
    size_t LayoutRequestCount = 0;
    bool LayoutOk = true;
    std::string LayoutWhyNot;
    const clang::VarDecl *ArrayDecl = nullptr;
    unsigned Order = 0;
    /// The compiler witness over the events (AccessEvent::Witness): any
    /// corrected, any decided by the source alone; the line nvcc put the
    /// instruction on (0: the site's).
    bool WitnessCorrected = false, WitnessSourceOnly = false;
    unsigned ReportLine = 0;
    std::string WitnessNote;
    /// The events' chance of one wider instruction (AccessEvent::Chance),
    /// kept only if every costed event has it: the sectors of the
    /// instructions together and of the one instead, request-weighted.
    std::optional<VectorChanceEvent> Chance;
    bool ChanceMissing = false;
    double ChanceW = 0, ChanceBefore = 0, ChanceAfter = 0;
  };

  void addAssumption(Stats &S, const Assumption &A);
  bool recordParametric(Stats &S, const AccessEvent &E, const Poly &Addr);
  void finishParametric(const Stats &S, AccessRecord &Rec) const;
  /// The alignment assumptions of S's requests, parametric ones first.
  static std::vector<Assumption> alignmentNotes(const Stats &S);
  /// The assumption an alignment-dependent cost of Addr rests on: the
  /// symbols whose residue is not known, else the region's base.
  std::optional<Assumption> alignmentNote(const Poly &Addr, LaneMask Active,
                                          MemorySpace Space, const MemRegion &Rg) const;
  /// The layouts of each declared shared array tried on its accesses
  /// (model/SharedLayout.h), into their records.
  void layoutSearch(const std::vector<const Stats *> &Order, std::vector<AccessRecord> &Out);
  // The requests of a kernel repeat the same lane pattern many times (the
  // unrolled iterations of a tile loop, the rows of a tile, the warps of a
  // block). A request's cost, and its parametric table, depend on the lanes'
  // byte offsets only modulo 128 (a multiple of the 32-byte sector, the
  // 128-byte line and the 32 banks' period), so they are remembered per
  // kernel run under a key whose lane constants are moved by a multiple of
  // 128 towards 0 (memoKey()).
  struct CostMemo {
    Cost C;
    double Lines = 0;
    LanePattern Pattern;
  };
  std::string memoKey(const char *What, MemorySpace Space, const Poly &Addr, LaneMask Active,
                      unsigned Width, int64_t Align) const;
  std::unordered_map<std::string, CostMemo> CostMemos;
  /// The layout search's request costs, by a hash of the request moved
  /// towards 0 by a multiple of the banks' period (layoutSearch()).
  struct LayoutMemo {
    Poly At;
    LaneMask Active = 0;
    unsigned Width = 0;
    int Matrices = -1;
    double Value = 0;
  };
  std::unordered_map<uint64_t, std::vector<LayoutMemo>> LayoutCostMemo;
  struct ParamMemo {
    std::optional<ParamTable> Table;
    std::string Why;
    std::optional<Assumption> AlignmentNote; // of the sizes whose cost is not exact
  };
  std::unordered_map<std::string, ParamMemo> ParamMemos;
  KernelRun &Run;
  std::map<std::string, Stats> ByKey;
  /// Per shared region: its declared array, when the layout search can
  /// re-cost it (constant dimensions, rank >= 2); null otherwise.
  std::unordered_map<RegionId, const clang::VarDecl *> LayoutArrays;
  unsigned Next = 0;
  /// The additions of one costed request to its access's sums.
  void addRequest(Stats &S, const CostMemo &M, const AccessEvent &E, bool Instr,
                  llvm::function_ref<std::pair<double, double>()> ChanceCosts,
                  Repeat *Again = nullptr);
};

struct AccessAggregator::Repeat {
  Stats *S = nullptr;
  const CostMemo *M = nullptr; // null: an unknown request (its weight alone)
  double ChanceBefore = 0, ChanceAfter = 0;
};

/// Cost of one request at byte addresses Base + c(lane) for every Base the
/// alignment distribution allows; exposed for tests.
Cost requestCost(MemorySpace Space, const Poly &Address, LaneMask Active,
                 unsigned Width, int64_t BaseAlign, const SymbolTable &Syms,
                 double *Lines = nullptr, LanePattern *Pattern = nullptr,
                 const InstrCount *Instr = nullptr);

} // namespace coalesce

#endif // COALESCE_ANALYZER_AGGREGATE_H
