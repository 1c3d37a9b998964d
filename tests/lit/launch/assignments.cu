// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The block shape a launch uses is what its variables hold at the launch:
// assigned after the declaration, reassigned, set alike on both sides of a
// branch, or computed by a loop that runs a known number of times. A value
// a loop changes an unknown number of times, or that differs between the
// branches that reach the launch, is not known there.
#define MAXBLOCKSIZE 128

__global__ void after_decl(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:40: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (128, 1, 1) from the launch at assignments.cu:[[@LINE+6]];
void run_after_decl(float *p, int n) {
  int threads;
  threads = MAXBLOCKSIZE;
  int blocks;
  blocks = (n + threads - 1) / threads;
  after_decl<<<blocks, threads>>>(p);
}

__global__ void first(float *p) { p[threadIdx.x * 3] = 0; }
// CHECK: :[[@LINE-1]]:35: warning: global store to 'p' uses 12 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (64, 1, 1) from the launch at assignments.cu:[[@LINE+9]];
__global__ void second(float *p) { p[threadIdx.x * 4] = 0; }
// CHECK: :[[@LINE-1]]:36: warning: global store to 'p' uses 16 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (256, 1, 1) from the launch at assignments.cu:[[@LINE+8]];
__global__ void branches(float *p) { p[threadIdx.x * 5] = 0; }
// CHECK: :[[@LINE-1]]:38: warning: global store to 'p' uses 20 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (32, 1, 1) from the launch at assignments.cu:[[@LINE+11]];
void run_reassigned(float *p, int argc) {
  int t = 64;
  first<<<1, t>>>(p);
  t = 256;
  second<<<1, t>>>(p);
  // The condition is not known; both sides give 32.
  if (argc > 1)
    t = 32;
  else
    t = 16 * 2;
  branches<<<1, t>>>(p);
}

__global__ void counted(float *p) { p[threadIdx.x * 6] = 0; }
// CHECK: :[[@LINE-1]]:37: warning: global store to 'p' uses 24 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (512, 1, 1) from the launch at assignments.cu:[[@LINE+8]];
__global__ void uncounted(float *p) { p[threadIdx.x * 7] = 0; }
// CHECK: :[[@LINE-1]]:39: warning: global store to 'p' uses 28 sectors per request (ideal 4)
// CHECK: note: blockDim unknown: the launch at assignments.cu:[[@LINE+11]] has a block shape that is not known statically (it depends on a value that changes in the loop at assignments.cu:[[@LINE+9]]); assuming blockDim.x is a multiple of 32; set {{--block=uncounted=X,Y,Z|the check option Block=uncounted=X,Y,Z}} to be exact;
void run_loops(float *p, int n) {
  int c = 1;
  for (int i = 0; i < 9; ++i)
    c *= 2;
  counted<<<1, c>>>(p);

  // n is not known: neither is u after the loop.
  int u = 32;
  for (int i = 0; i < n; ++i)
    u += 32;
  uncounted<<<1, u>>>(p);
}

// One kernel launched in both branches: each launch knows its value. With
// 16 threads in the block, a warp has 16 active lanes. After the branches,
// either value: each side is analysed (launch/branch_split.cu).
__global__ void per_branch(float *p) { p[threadIdx.x * 8] = 0; }
// CHECK-DAG: :[[@LINE-1]]:40: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (64, 1, 1) from the launch at assignments.cu:[[@LINE+14]];
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 32 sectors per request (ideal 4) for blockDim (64, 1, 1); 16 sectors per request (ideal 2) for blockDim (16, 1, 1).
//
__global__ void after_branches(float *p) { p[threadIdx.x * 9] = 0; }
// CHECK-DAG: :[[@LINE-1]]:44: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (64, 1, 1) from the launch at assignments.cu:[[@LINE+15]] when `argc > 2` at assignments.cu:[[@LINE+6]] is true;
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 32 sectors per request (ideal 4) for blockDim (64, 1, 1) when `argc > 2` at assignments.cu:[[@LINE+5]] is true; 16 sectors per request (ideal 2) for blockDim (16, 1, 1) when `argc > 2` at assignments.cu:[[@LINE+5]] is false.
//
void run_branches(float *p, int argc) {
  int v;
  int w = 0;
  if (argc > 2) {
    v = 64;
    w = v / 2;
    per_branch<<<1, v>>>(p);
  } else {
    v = 16;
    w = v / 2;
    per_branch<<<1, v>>>(p);
  }
  after_branches<<<1, v>>>(p);
}
