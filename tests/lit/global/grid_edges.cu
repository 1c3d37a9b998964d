// A known grid is walked in parts where a comparison comes out differently
// in different blocks (issue 12): each part's requests count for its share
// of the blocks, so the figure is the average over every request of the
// launch, and the launch's totals are given. With an unknown bound the
// interior-warp figure stays, and says so.
// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=NEG

// 4 blocks of 256 over 1000 elements: one warp of 8 lanes (1 sector) among
// 32: 125 sectors in 32 requests.
// JSON-LABEL: "kernel": "tail_guard"
// JSON: "launch_totals": [
// JSON: "requests": 32,
// JSON-NEXT: "sectors": 125
// JSON: "sectors_per_request": 3.90625
// NEG-NOT: assuming `i < n` is true on every lane of interior warps (line [[@LINE+4]])
__global__ void tail_guard(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Only block 0 takes the first branch: 8 of 32 warps.
// CHECK: :[[@LINE+4]]:5: warning: global store to 'out' uses 8 sectors per request (ideal 4)
// JSON-LABEL: "kernel": "first_block"
__global__ void first_block(const float *in, float *out) {
  if (blockIdx.x == 0)
    out[2 * threadIdx.x] = in[threadIdx.x];
  else
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}
// JSON: "launch_totals": [
// JSON: "requests": 8,
// JSON-NEXT: "sectors": 32
// JSON: "requests_per_warp": 0.25
// JSON: "launch_totals": [
// JSON: "requests": 8,
// JSON-NEXT: "sectors": 64
// JSON: "requests_per_warp": 0.25
// JSON: "launch_totals": [
// JSON: "requests": 24,
// JSON-NEXT: "sectors": 96
// JSON: "requests_per_warp": 0.75

// The clamp bites on the launch's last lane: (31 * 5 + 4) / 32.
// CHECK: :[[@LINE+4]]:12: warning: global load from 'in' uses 4.969 sectors per request (ideal 4)
// JSON-LABEL: "kernel": "edge_clamp"
__global__ void edge_clamp(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[min(i + 1, n - 1)];
}
// JSON: "sectors": 159

// The last pass of a grid-stride loop: 94 requests, one of 24 lanes.
// JSON-LABEL: "kernel": "grid_stride_tail"
// JSON: "requests": 94,
// JSON-NEXT: "sectors": 375
__global__ void grid_stride_tail(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = 2.0f * in[i];
}

// A tile cut on two sides: 150 full-width rows (odd rows straddle) and 50
// rows of 4 lanes.
// CHECK-DAG: :[[@LINE+7]]:22: remark: global load from 'in' uses 3.625 sectors per request (ideal 3.25): the warp's bytes are contiguous, but their offset from the 32-byte sectors changes from one block or iteration to the next (1 to 5 sectors per request)
// CHECK-DAG: :[[@LINE+6]]:5: remark: global store to 'out' uses 3.625 sectors per request (ideal 3.25)
// JSON-LABEL: "kernel": "tile_edges"
__global__ void tile_edges(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x];
}
// JSON: "requests": 200,
// JSON-NEXT: "sectors": 725

// Warp votes on a condition known per lane are masks known per warp: the
// edge warp takes the second branch, with every lane (the vote is uniform).
// JSON-LABEL: "kernel": "vote_guard"
__global__ void vote_guard(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned all = __ballot_sync(0xffffffffu, i < n);
  if (all == 0xffffffffu)
    out[i] = in[i];
  else if (__any_sync(0xffffffffu, i < n))
    // CHECK: :[[@LINE+1]]:5: remark: global store to 'out' uses 5 sectors per request (ideal 4)
    out[i + 1] = in[i];
}
// JSON: "requests": 31,
// JSON-NEXT: "sectors": 124
// JSON: "requests": 1,
// JSON-NEXT: "sectors": 4
// JSON: "requests": 1,
// JSON-NEXT: "sectors": 5

// __activemask() is the mask of the lanes that reach it.
// JSON: "assuming the lanes that reach `__activemask()` (line [[@LINE+5]]) run converged
// JSON-LABEL: "kernel": "active_lanes"
__global__ void active_lanes(float *out) {
  int t = threadIdx.x;
  if (t < 16) {
    unsigned m = __activemask();
    out[blockIdx.x * 16 + __popc(m) - 16 + t] = 1.0f;
  }
}
// JSON: "sectors_per_request": 2,

// An unknown bound keeps the interior-warp figure, with the assumption.
// JSON: "assuming `i < n` is true on every lane of interior warps (line [[@LINE+5]])"
// JSON-LABEL: "kernel": "unknown_bound"
// JSON: "launch_totals": [
__global__ void unknown_bound(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

void launch(const float *in, float *out, int n) {
  tail_guard<<<4, 256>>>(in, out, 1000);
  first_block<<<4, 256>>>(in, out);
  edge_clamp<<<4, 256>>>(in, out, 1024);
  grid_stride_tail<<<8, 128>>>(in, out, 3000);
  tile_edges<<<dim3(4, 7), dim3(32, 8)>>>(in, out, 100, 50);
  vote_guard<<<4, 256>>>(in, out, 1000);
  active_lanes<<<4, 32>>>(out);
  unknown_bound<<<4, 256>>>(in, out, n);
}
