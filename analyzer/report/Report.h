//===- Report.h - What the analysis concludes, without clang types --------===//
//
// The analysis turns a translation unit into AccessRecords: one per memory
// access site, per call context, per launch configuration of its kernel. Rules
// turn records into Findings; emitters print both. Nothing here refers to the
// AST, so records outlive it and can be sorted, merged and serialized.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_H
#define COALESCE_ANALYZER_REPORT_H

#include "report/Answer.h"
#include "model/Parametric.h"
#include "model/Poly.h"
#include "model/Spaces.h"
#include "model/TensorMap.h"
#include "model/WarpModel.h"
#include "report/Reasons.h"
#include "report/LayoutFix.h"
#include "report/MappingFix.h"
#include "report/SourcePos.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace coalesce {

/// Call: memory handed to a function whose body is not visible (its own
/// accesses cannot be analysed; always unknown).
enum class AccessOp { Load, Store, Atomic, Call };

const char *spaceName(MemorySpace S);
const char *opName(AccessOp O);
const char *verdictName(Verdict V);
/// The verdict of a request in space S that costs more than its ideal.
Verdict excessVerdict(MemorySpace S);
/// The unit of a cost in space S, plural: "sectors", "wavefronts",
/// "constant-cache requests" (model/Spaces.h).
std::string costUnits(MemorySpace S);
/// What a record's Cost counts: "sectors per request", "wavefronts per
/// request", "constant-cache requests per instruction" (a request being one
/// instruction executed by one warp, the constant cache's requests are
/// counted per instruction).
std::string costPerRequest(MemorySpace S);
/// A cost of V in space S: "1 sector per request", "4.5 wavefronts per
/// request", "32 constant-cache requests per instruction".
std::string costPhrase(double V, MemorySpace S);

/// Which witness decided a record (docs/witness.md): the source analysis
/// alone, or the source analysis joined with the instructions nvcc emitted
/// (driver/Witness.h), which agreed with it or corrected it (a merged
/// width, an instruction on another line, no instruction at all).
enum class Witnessed : unsigned char { SourceOnly, Confirmed, Corrected };
const char *witnessedName(Witnessed W); // "source-only", "compiler-confirmed", ...

/// Where a kernel's block shape (and other launch facts) came from.
struct LaunchConfig {
  Dim3 Block;
  bool BlockKnown = false;
  std::optional<Dim3> Grid;
  /// "the launch at f.cu:40", "--block", or "assumed" (blockDim.x a
  /// multiple of 32); "the launch at f.cu:40 (its block shape is not known
  /// statically)" when the launch does not say it.
  std::string Source;
  /// How to set the block shape ("--block=X,Y,Z"), for the messages.
  std::string BlockOption = "--block=X,Y,Z";
  /// Why the block shape of the launches is not known ("it depends on the
  /// parameter 'threads' of 'run', which no code in this file calls"), or
  /// "no launch in this file".
  std::string BlockUnknown;
  /// Source "--block": the setting that gave the shape, as the user wrote it
  /// ("--block=reduce6=256", "the check option Block=256").
  std::string BlockGivenBy;
  std::vector<SourcePos> Sites;
  /// The sides of host branches the launch shape rests on, when the host
  /// walk split on them ("when `big` at f.cu:30 is true"); cleared when
  /// launches of other branches merge into this configuration.
  std::string Branches;
  /// Without a known Block: the dimensions the launch does make known (0:
  /// not known), e.g. (4, 8, 0) for `dim3 b(4, 8, n / 32)`. When the known
  /// leading dimensions hold a multiple of 32 threads, warps are exact
  /// (model/WarpModel.h, partialWarps()); when x is known but they do not,
  /// which threads share a warp is not known.
  int64_t KnownDims[3] = {0, 0, 0};
  /// x is known but not the whole shape (with x unknown, the usual
  /// assumption stands: blockDim.x a multiple of 32; known y and z are
  /// still used as blockDim.y and blockDim.z).
  bool partlyKnown() const { return !BlockKnown && KnownDims[0] > 0; }
  std::string partialStr() const; // "(4, 8, ?)"
  /// Kernel parameters whose values are known from the launch (name, value).
  std::vector<std::pair<std::string, int64_t>> Args;
  /// Pointer arguments with a known byte offset from an allocation.
  std::vector<std::pair<std::string, int64_t>> PointerOffsets;
  std::string describe() const; // "blockDim = (32, 8, 1) from the launch at f.cu:88"
  std::string key() const;
};

/// One representative request, for evidence and pictures.
struct LanePattern {
  LaneMask Active = 0;
  LaneInts Offset{};   // byte address of each lane relative to the first active lane
  int64_t BaseResidue = 0; // address of the first active lane modulo 128 (as assumed)
  int64_t Stride = 0;  // bytes per lane index, when offsets are linear in it
  bool ConstantStride = false;
  int64_t ActiveStride = 0; // distance between consecutive active lanes
  bool EvenlySpaced = false; // that distance is the same for all of them
  unsigned BytesPerLane = 0;
};

struct AccessRecord {
  SourcePos Pos;
  std::string Kernel;     // "scale<4>"
  std::string Context;    // "in 'load2' called at f.cu:30" (empty at top level)
  /// An access in a helper that only dereferences the address its caller
  /// gives it (`x128 load128(const T *p) { return *(const x128 *)p; }`):
  /// the caller's argument, where findings are shown (Pos stays the
  /// access, the line Nsight Compute attributes it to); see shownAt().
  struct CallerBlame {
    SourcePos At;
    std::string Helper; // "load128"
  };
  std::optional<CallerBlame> Blame;
  LaunchConfig Launch;
  MemorySpace Space = MemorySpace::Global;
  AccessOp Op = AccessOp::Load;
  std::string Array;      // "in", "p.x", "tile"
  std::string Expression; // source text of the access
  std::string ElementType;
  unsigned BytesPerLane = 0;
  unsigned InstructionsPerAccess = 1; // a struct copy may be split in several
  /// The instruction, when it is not a plain load or store and is costed by
  /// its own rule (model/Instructions.h): "cp.async.cg 16 bytes
  /// (LDGSTS.BYPASS.128)", "ldmatrix .x4 (LDSM)"; empty otherwise.
  std::string Instruction;

  /// What the access costs, or why that is not known (report/Answer.h).
  Answer Ans;
  /// Unknown without a number (no instruction of its own included);
  /// otherwise the space's excess verdict when the cost exceeds the ideal.
  Verdict verdict() const;
  /// The kind of the reason of an answer without a number (None otherwise).
  ReasonKind reasonKind() const { return Ans.why().Kind; }

  // Requests per warp for this access (loops, struct splits); unknown when a
  // loop's trip count is not known, in which case the cost is per iteration.
  double RequestsPerWarp = 0;
  bool RequestsKnown = true;
  std::string RequestsWhy; // why not ("the loop at line 6 runs ...")

  // Each launch this record stands for whose grid and block are known, and
  // whose requests are: every request of every warp of every block (Nsight
  // Compute's per-line totals), and their sectors or wavefronts (unset when
  // the per-request cost is unknown). Launches with the same per-request
  // figures share a record and list their totals here, one per grid.
  struct LaunchTotal {
    Dim3 Grid;
    std::vector<SourcePos> Sites;
    double Requests = 0;
    std::optional<double> Units; // sectors, wavefronts, ... (the space's unit)
  };
  std::vector<LaunchTotal> LaunchTotals;

  std::optional<LanePattern> Pattern;
  std::string Because;    // "`row * W`": the index term that spreads the lanes
  /// Rules of a contract the access breaks, whatever it costs: a TMA copy's
  /// map or destination, a reader of a box a TMA copy swizzled
  /// (model/TensorMap.h; rules/TensorCopyContract.h reports them).
  std::vector<ContractBreak> Contract;
  int64_t StructSize = 0; // the access reads a field of a struct of this size
  std::vector<Assumption> Assumptions;
  std::vector<std::string> Suggestions; // fix ideas with their predicted gain
  // Shared memory only: the layouts of its declared array tried in this
  // launch (cost/Aggregate.cpp), this access's wavefronts per request under
  // each (NaN: not re-costed exactly), and, once every launch of the
  // translation unit is in (cost/LayoutChoice.h), the layout chosen for the
  // array or why none is offered.
  std::shared_ptr<const LayoutSearch> Layouts;
  std::vector<double> LayoutCosts;
  std::optional<LayoutFix> Fix;
  std::string NoFixWhy;

  /// The compiler witness: which witness decided, the memory instructions
  /// of the record's space and kind nvcc emitted on its line ("LDS.128 x4"),
  /// and what the join changed ("nvcc emitted one STS.128 for `s[t].x` ...
  /// `s[t].w`, lines 111 to 114").
  Witnessed Witness = Witnessed::SourceOnly;
  std::vector<std::string> Emitted;
  /// Those instructions as nvdisasm prints them (at most 16), for --explain.
  std::vector<std::string> EmittedInstructions;
  std::string WitnessNote;
  /// Global memory, with the witness: this access and the ones after it
  /// read (write) the adjacent pieces of a block that is aligned at run
  /// time, each as its own instruction, where one instruction of the
  /// block's width would do (interp/models/EmittedCode.cpp).
  struct VectorChance {
    unsigned Width = 0;        // bytes per lane of the one instruction
    unsigned Accesses = 0;     // instructions it replaces
    unsigned FirstLine = 0, LastLine = 0;
    std::string Emitted;       // "4 LDG.E"
    std::string Pointer, PointerType;
    int64_t ProvenAlign = 0;   // what the compiler can prove of the pointer
    double SectorsBefore = 0;  // per warp, all the instructions together
    double SectorsAfter = 0;   // per warp, the one instruction
  };
  std::optional<VectorChance> Chance;

  /// Global memory, 2-D blocks: the thread mapping's fixes, proven by
  /// running the kernel again with x and y exchanged (cost/ThreadSwap.h):
  /// the exchange itself where no access gets worse; else, where the other
  /// side of this access's assignment would, staging through a shared tile;
  /// else why neither is offered (empty: not tried).
  std::optional<ThreadSwapFix> Swap;
  std::optional<StagedTransposeFix> Stage;
  std::string NoSwapWhy;

  std::string key() const; // stable identity for sorting and baselines
};

/// Where findings about R are shown: the caller's argument for an access
/// in a helper that only dereferences what it is given, else R.Pos.
inline const SourcePos &shownAt(const AccessRecord &R) { return R.Blame ? R.Blame->At : R.Pos; }

struct KernelSummary {
  std::string Name;
  SourcePos Pos;
  unsigned Accesses = 0, Findings = 0, Unknowns = 0;
  bool BudgetExceeded = false;
  /// Not analysed because a clang error touches its code: the error's
  /// message (empty: analysed), where it is, and the function whose code
  /// holds it (the kernel itself or one it calls).
  std::string NotAnalysed;
  SourcePos ErrorPos;
  std::string ErrorFunction;
  /// The kernel's parameter names (for the check that a stated fact names
  /// something: --assume).
  std::vector<std::string> Params;
};

/// A mistake in the file's own annotations (a misspelled
/// `coalesce-lint: assume` comment): the front-ends report it as an error.
struct AnnotationProblem {
  SourcePos Pos;
  std::string Message;
};

/// Everything the analysis found in one translation unit.
struct TUReport {
  std::string File;
  std::vector<AccessRecord> Accesses;
  std::vector<KernelSummary> Kernels;
  std::vector<std::string> Errors; // fatal problems with this file
  unsigned ClangErrors = 0;        // errors clang reported while parsing it
  std::vector<std::string> Notes;  // non-fatal (an invalid launch shape, ...)
  std::vector<AnnotationProblem> Problems;
  /// Host variables whose values stated facts gave (a size read from argv).
  std::set<std::string> HostStated;
  /// The compiler witness of this file (driver/Witness.h): what it was
  /// ("nvcc -arch=sm_90 (/usr/local/cuda/bin/nvcc)"), or why it was not
  /// used (empty both: not asked for, --witness=off).
  std::string WitnessSource, WitnessNotUsed;
  bool WitnessCached = false;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_H
