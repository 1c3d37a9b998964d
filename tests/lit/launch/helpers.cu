// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Shapes computed by helper functions: the helper runs with the arguments
// of each call (references and pointers write back to the caller), its
// loops and branches included. Two calls with different sizes give two
// launch configurations of one kernel.

unsigned nextPow2(unsigned x) {
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

void getNumBlocksAndThreads(int n, int maxBlocks, int maxThreads, int &blocks, int &threads) {
  threads = (n < maxThreads * 2) ? nextPow2((n + 1) / 2) : maxThreads;
  blocks = (n + (threads * 2 - 1)) / (threads * 2);
  blocks = min(maxBlocks, blocks);
}

void shape2d(int width, dim3 *block, dim3 *grid) {
  int bx = 1;
  while (bx < width && bx < 32)
    bx *= 2;
  block->x = bx;
  block->y = 256 / bx;
  grid->x = (width + bx - 1) / bx;
}

int threadsFor(int n) { return n >= 1024 ? 256 : 128; }
int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

__global__ void sum(const float *in, float *out, int n) {
  out[threadIdx.x * 2] = n;
}
// CHECK-DAG: :[[@LINE-2]]:3: warning: global store to 'out' uses 8 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (64, 1, 1) from the launch at helpers.cu:[[#@LINE+5]];
// CHECK-DAG: note: assuming blockDim = (256, 1, 1) from the launch at helpers.cu:[[#@LINE+4]];
void launch_sum(const float *in, float *out, int n) {
  int threads = 0, blocks = 0;
  getNumBlocksAndThreads(n, 64, 256, blocks, threads);
  sum<<<blocks, threads>>>(in, out, n);
}
// JSON: "kernel": "sum"
// JSON: "args": {
// JSON-NEXT: "n": 100
// JSON: "block": [
// JSON-NEXT: 64,
// JSON: "grid": [
// JSON-NEXT: 1,
// JSON: "kernel": "sum"
// JSON: "args": {
// JSON-NEXT: "n": 1048576
// JSON: "block": [
// JSON-NEXT: 256,
// JSON: "grid": [
// JSON-NEXT: 64,

__global__ void transposed(float *p) { p[threadIdx.x * 1024 + threadIdx.y] = 0; }
// CHECK: :[[@LINE-1]]:40: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (32, 8, 1) from the launch at helpers.cu:[[#@LINE+20]];
__global__ void by_value(float *p) { p[threadIdx.x * 3] = 0; }
// CHECK: :[[@LINE-1]]:38: warning: global store to 'p' uses 12 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (256, 1, 1) from the launch at helpers.cu:[[#@LINE+19]];
__global__ void recursive(float *p) { p[threadIdx.x * 4] = 0; }
// CHECK: :[[@LINE-1]]:39: warning: global store to 'p' uses 16 sectors per request (ideal 4)
// CHECK: note: blockDim unknown: the launch at helpers.cu:[[#@LINE+17]] has a block shape that is not known statically (it depends on the value returned by 'factorial' at helpers.cu:[[#@LINE-36]]);
__global__ void from_device(float *p) { p[threadIdx.x * 5] = 0; }
// CHECK: :[[@LINE-1]]:41: warning: global store to 'p' uses 20 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (512, 1, 1) from the launch at helpers.cu:[[#@LINE+20]];

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  launch_sum(in, out, 100);
  launch_sum(in, out, 1 << 20);

  dim3 b, g;
  shape2d(20, &b, &g);
  transposed<<<g, b>>>(out);
  int t = threadsFor(4096);
  by_value<<<1, t>>>(out);
  recursive<<<1, factorial(5) * 8>>>(out);

  // maxThreadsPerBlock is 1024 on every GPU CUDA 13 supports.
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int most = min(prop.maxThreadsPerBlock, 512);
  from_device<<<prop.multiProcessorCount, most>>>(out);
  return 0;
}
