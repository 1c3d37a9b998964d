//===- PtxAsm.h - The statements of an inline PTX assembly string ---------===//
//
// Inline assembly (`asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16
// {%0, %1, %2, %3}, [%4];" : ...)`) is how CUDA code reaches the memory
// instructions C++ has no spelling for: asynchronous copies (cp.async), matrix
// loads and stores (ldmatrix, stmatrix), vector loads with cache hints. The
// interpreter reads the statements (interp/InlineAsm.cpp, execAsm): this
// file only splits the text, with the asm operands already written `$N`
// (GCCAsmStmt::AnalyzeAsmString resolves `%N`, `%[name]` and `%%`).
//
// No clang headers: unit-tested alone (tests/unit/PtxAsmTest.cpp).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_INTERP_PTXASM_H
#define COALESCE_ANALYZER_INTERP_PTXASM_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// One PTX instruction: `@!p cp.async.ca.shared.global [$0], [$1], 4`.
struct PtxStatement {
  std::string Guard;                 // "@p", "@!p", or empty
  std::vector<std::string> Opcode;   // {"cp", "async", "ca", "shared", "global"}
  std::vector<std::string> Operands; // {"[$0]", "[$1]", "4"}
  bool Labelled = false;             // a label precedes it (a branch target)

  /// Whether the opcode has this part ("shared", "x4", "trans"); a part
  /// with a "::" qualifier matches its head ("shared::cta" is "shared").
  bool has(const std::string &Part) const;
  /// The opcode as written, parts joined by '.'.
  std::string opcodeText() const;
};

/// The instructions of an inline assembly string, in order. Directives
/// (`.reg .u64 r;`), labels and scope braces are left out.
std::vector<PtxStatement> parsePtx(const std::string &Text);

/// An address operand `[base]`, `[base+16]`, `[base-8]`.
struct PtxAddress {
  std::string Base;
  int64_t Offset = 0;
};
std::optional<PtxAddress> parsePtxAddress(const std::string &Operand);

/// The tensor operand of cp.async.bulk.tensor: `[map, {x, y}]`.
struct PtxTensorOperand {
  std::string Map;
  std::vector<std::string> Coords;
};
std::optional<PtxTensorOperand> parsePtxTensorOperand(const std::string &Operand);

/// The names of a vector operand `{$0, $1}` (one name for a plain operand).
std::vector<std::string> parsePtxList(const std::string &Operand);

/// An integer literal: decimal or 0x hexadecimal, with an optional U suffix.
std::optional<int64_t> parsePtxInteger(const std::string &Operand);

/// `$N`: the asm operand N.
std::optional<unsigned> ptxOperandIndex(const std::string &Operand);

} // namespace coalesce

#endif // COALESCE_ANALYZER_INTERP_PTXASM_H
