// RUN: %lint %s --format=json | python3 -c "import json,sys; [print(a['line'], a['expression'], 'range', a.get('sectors_range'), 'sizes', (a.get('parametric') or {}).get('large_sizes_range'), 'known', a['alignment_known'], '|', ' / '.join(a['assumptions'])) for a in json.load(sys.stdin)['accesses'] if a['op'] == 'load']" \
// RUN:   | FileCheck %s
// RUN: %lint %s | FileCheck %s --check-prefix=TEXT
// RUN: %lint %s --format=sarif | FileCheck %s --check-prefix=SARIF
//
// Two ranges that must not be mixed (issue 29): the range of a cost over the
// alignments the address can have (JSON `sectors_range`, SARIF `costRange`,
// the "otherwise A to B" of the alignment assumption) and the span of a
// parametric cost over the large values of a run-time size (its own field,
// `parametric.large_sizes_range`). The assumption an alignment-dependent
// parametric cost rests on is stated.

// Rows of 4 float2 (32 bytes), `cols` float2 apart, at an offset `off` of
// unknown alignment. For cols a multiple of 4 the rows are 32-byte blocks:
// 8 sectors when `off` keeps the alignment; otherwise up to 16 when every row
// straddles two sectors (cols >= 8; at cols == 4 the rows are contiguous and
// a misaligned warp costs 9). The range of a case is over the alignments of
// every size it covers: 8 to 16. Over the large sizes the cases span 8
// (multiples of 4) to 14 (odd sizes).
__global__ void rows_at_offset(const float2 *in, float *out, int off, int cols) {
  int t = threadIdx.x;
  out[t] = in[off + (t / 4) * cols + t % 4].x;
  // CHECK: [[@LINE-1]] in[off + (t / 4) * cols + t % 4].x range [8, 16] sizes [8, 14] known False | assuming 'in' points to the start of a cudaMalloc allocation (256-byte aligned) / assuming 'off' keeps the 32-byte alignment of the address; otherwise 8 to 16 sectors
  // TEXT: :[[@LINE-2]]:12: remark: global load from 'in' uses 8 sectors per request (ideal 4) when cols is a multiple of 4 and cols >= 4
  // TEXT: note: {{.*}}assuming 'off' keeps the 32-byte alignment of the address; otherwise 8 to 16 sectors
  // SARIF: "costRange": [
  // SARIF-NEXT: 8,
  // SARIF-NEXT: 16
}

// The same rows at an aligned start: the cost depends on the size only.
// No range over alignments, no alignment assumption; the span over sizes is
// still given.
__global__ void rows_aligned(const float2 *in, float *out, int cols) {
  int t = threadIdx.x;
  out[t] = in[(t / 4) * cols + t % 4].x;
  // CHECK: [[@LINE-1]] in[(t / 4) * cols + t % 4].x range None sizes [8, 14] known True | assuming 'in' points to the start of a cudaMalloc allocation (256-byte aligned)
}

// No size: a plain range over alignments, as before.
__global__ void at_offset(const float *in, float *out, int off) {
  int t = threadIdx.x;
  out[t] = in[off + t];
  // CHECK: [[@LINE-1]] in[off + t] range [4, 5] sizes None known False | assuming 'off' keeps the 32-byte alignment of the address; otherwise 4 to 5 sectors
}

void run(const float2 *in2, const float *in, float *out, int off, int cols) {
  rows_at_offset<<<1, 32>>>(in2, out, off, cols);
  rows_aligned<<<1, 32>>>(in2, out, cols);
  at_offset<<<1, 32>>>(in, out, off);
}
