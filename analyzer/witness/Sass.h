//===- Sass.h - The memory instructions nvcc emitted, read from nvdisasm ---===//
//
// The compiler as a second witness (docs/witness.md): the source analysis
// models what nvcc and ptxas make of the code; the disassembly of the
// device code they emitted says it. This file reads `nvdisasm -gi` output
// (SASS with the line table, inlining chains included) into the memory
// instructions of each function, with the width, the space, whether a
// predicate guards them, and the source line each is attributed to: the
// line Nsight Compute shows it on.
//
// Only text: no clang, no process. driver/Witness.h runs nvcc and nvdisasm
// and caches what they print; interp/models/EmittedCode.cpp joins it with
// the source analysis.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_WITNESS_SASS_H
#define COALESCE_ANALYZER_WITNESS_SASS_H

#include "model/Spaces.h"
#include "report/Report.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coalesce {
namespace witness {

/// What a memory instruction does.
enum class SassOp {
  Load,       // LDG, LDS, LDL, LD (generic), LDC of an indexed constant
  Store,      // STG, STS, STL, ST
  Atomic,     // ATOM, ATOMG, ATOMS, RED, REDG (with or without a result)
  AsyncCopy,  // LDGSTS: a global read and a shared write (cp.async)
  MatrixLoad, // LDSM (ldmatrix)
  MatrixStore,// STSM (stmatrix)
  Bulk        // UTMALDG, UTMASTG, UBLKCP...: one thread's bulk copy (TMA)
};

/// Where it goes: a space of model/Spaces.h, or generic (LD, ST, ATOM: the
/// address decides at run time).
struct SassSpace {
  std::optional<MemorySpace> Space; // none: generic
  bool generic() const { return !Space; }
};

/// One place in the source: a file as nvcc named it, and a line.
struct SourceLine {
  std::string File;
  unsigned Line = 0;
  bool operator==(const SourceLine &O) const { return Line == O.Line && File == O.File; }
  bool operator<(const SourceLine &O) const {
    return Line != O.Line ? Line < O.Line : File < O.File;
  }
};

struct SassInstruction {
  uint32_t Address = 0;   // offset in its function
  std::string Text;       // "LDS.128 R24, [R31+UR4]" (without the predicate)
  std::string Opcode;     // "LDS.128"
  SassOp Op = SassOp::Load;
  SassSpace Space;
  /// Bytes each lane reads or writes: 1, 2, 4, 8, 16 (LDSM/STSM: 4 per
  /// matrix; LDGSTS: the copy's size).
  unsigned Width = 4;
  unsigned Matrices = 0;  // LDSM/STSM: .1, .2, .4
  bool Transposed = false;// LDSM/STSM: .MT88
  bool Predicated = false;// @P0, @!P1: runs on the lanes the predicate selects
  /// The source lines it is attributed to, innermost first: the line of
  /// the code it comes from, then the lines of the calls it was inlined at
  /// (empty: no line information).
  std::vector<SourceLine> Chain;
};

struct SassFunction {
  std::string Name;  // mangled, as in the cubin ("_Z2k4PKfPfi")
  bool Entry = false;// a kernel (STO_CUDA_ENTRY)
  std::vector<SassInstruction> Memory; // its memory instructions, in order
};

struct SassModule {
  std::string Arch; // "sm_90"
  std::vector<SassFunction> Functions;
  const SassFunction *function(std::string_view Mangled) const;
};

/// Reads the output of `nvdisasm -gi` (or `-g`, or `cuobjdump -sass`, with
/// less line information). Returns the module, or an error message in Error
/// when the text is not a disassembly.
std::optional<SassModule> parseDisassembly(std::string_view Text, std::string &Error);

/// Classifies one instruction's opcode ("LDG.E.128.CONSTANT", "STS.64",
/// "LDSM.16.MT88.4"): false when it is not a memory instruction the join
/// uses (a parameter's LDC, a barrier, arithmetic).
bool classifyOpcode(std::string_view Opcode, std::string_view Operands, SassInstruction &I);

/// The memory instructions of one kernel, by the source line Nsight Compute
/// attributes them to.
///
/// An instruction counts at its innermost line, and, when that line lies in
/// a file the caller calls a system header (the CUDA toolkit's
/// cuda_pipeline_primitives.h, the standard library), at the first line of
/// its chain in the user's code: the line the source analysis reports such
/// an access on.
class LineInventory {
public:
  using IsSystemFile = bool (*)(const std::string &File, void *Ctx);
  LineInventory() = default;
  LineInventory(const SassFunction &F, IsSystemFile System = nullptr, void *Ctx = nullptr);

  /// Instructions at File:Line (File compared by its path with `.`, `..`
  /// and symbolic links left as given, else by its last components).
  std::vector<const SassInstruction *> at(const std::string &File, unsigned Line) const;
  /// The lines that hold instructions of this file.
  std::vector<unsigned> linesOf(const std::string &File) const;
  bool empty() const { return ByLine.empty(); }

private:
  std::map<std::pair<std::string, unsigned>, std::vector<const SassInstruction *>> ByLine;
  std::string match(const std::string &File) const;
  mutable std::map<std::string, std::string> Matched;
};

/// "LDS.128", "STG.E.64 (predicated)": how an instruction is named in
/// messages.
std::string describe(const SassInstruction &I);
/// "LDS.128 x4 and LDS": instructions by their names, counted.
std::string summarize(const std::vector<const SassInstruction *> &Is);
/// Whether I is an instruction of this space (or a generic one) and kind.
bool serves(const SassInstruction &I, MemorySpace S, AccessOp Op);

/// A kernel and the device functions nvcc did not inline into it: the code
/// its accesses can be in.
SassFunction kernelCode(const SassModule &M, const SassFunction &Kernel);

} // namespace witness
} // namespace coalesce

#endif // COALESCE_ANALYZER_WITNESS_SASS_H
