//===- ConstantModel.h - Constant-cache requests per constant load --------===//
//
// Design note: how Nsight Compute counts a read of `__constant__` memory.
//
// A `__constant__` variable lives in constant bank 3 (`c[0x3][...]` in SASS).
// A read whose address is not a compile-time constant is an LDC instruction
// (`LDC R5, c[0x3][R0]`); each LDC executed by a warp is one warp-level
// request (`smsp__inst_executed_op_ldc`). The constant cache (IDC) serves one
// address at a time: it takes one *request* (`idc__requests`) per distinct
// address among the active lanes, so lanes that read different addresses are
// served one after another (serialised), and lanes that read the same
// address share one request (broadcast). The cost of an LDC is therefore
//
//     constant-cache requests = distinct addresses among the active lanes,
//
// and the ideal is 1 (every lane reads the same address). Distinct addresses
// count, not distinct cache lines: four adjacent floats are four requests.
// A read at a compile-time-constant offset is either an operand of the
// instruction that uses it (`FADD R0, R1, c[0x3][0x10]`, no LDC and no
// request) or an LDC with an immediate address, one request: either way no
// more than the ideal, so the model counts it as one request like any
// warp-uniform read.
//
// Measured on an H200 (64 blocks of 32 threads, requests per LDC executed by
// a warp): `cst[k]` with a run-time warp-uniform k: 1; `cst[lane]`: 32;
// `cst[lane / 8]`: 4; `cst[(lane / 16) * 100]`: 2; `cst[lane * 32]`: 32.
//
// Assumptions: warp of 32 lanes; the lanes of one instruction read the same
// number of bytes, at addresses aligned to it, so distinct start addresses
// are distinct data; the widest LDC reads 8 bytes per lane (a 16-byte read,
// a float4, is two LDC.64 at offsets 0 and 8, as ptxas emits it for sm_90).
// Reads narrower than 4 bytes are counted by their addresses too, which has
// not been measured (lanes reading bytes of one word may share a request).
//
// Example: float cst[1024]; cst[threadIdx.x / 8] -> lanes 0-7 read byte 0,
// lanes 8-15 byte 4, 16-23 byte 8, 24-31 byte 12: 4 distinct addresses,
// 4 constant-cache requests (ideal 1).
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_CONSTANTMODEL_H
#define COALESCE_ANALYZER_MODEL_CONSTANTMODEL_H

#include "model/Poly.h"

#include <vector>

namespace coalesce {

/// Bytes per lane of the widest LDC (LDC.64).
constexpr unsigned WidestConstantLoad = 8;

struct ConstantCount {
  unsigned Requests = 0; // distinct addresses among the active lanes
  unsigned Ideal = 0;    // 1 when a lane is active
};

/// The distinct byte addresses the active lanes read, ascending: one
/// constant-cache request each.
std::vector<int64_t> constantAddresses(const LaneInts &ByteAddr, LaneMask Active);

/// Counts the constant-cache requests of one LDC.
ConstantCount countConstantRequests(const LaneInts &ByteAddr, LaneMask Active,
                                    unsigned BytesPerLane);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_CONSTANTMODEL_H
