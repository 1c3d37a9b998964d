// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A wrapper that picks a template kernel in a `switch` over the block size
// it is given (as cuda-samples' reduction does). No code in this file calls
// the wrapper, so `threads` is not known, but inside `case 256:` it is 256,
// and so is dimBlock, built from it before the switch. A kernel launched
// outside the switch has a block shape that is not known.

template <class T, unsigned BlockSize> __global__ void tiled(T *p) {
  p[threadIdx.x * 2 + BlockSize] = 0;
}
// CHECK-DAG: :[[@LINE-2]]:3: warning: {{(.*: )?}}global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK-DAG: note: {{(in [^:]*: )?}}assuming blockDim = (256, 1, 1) from the launch at wrapper_switch.cu:[[#@LINE+26]];
// CHECK-DAG: note: {{(in [^:]*: )?}}assuming blockDim = (64, 1, 1) from the launch at wrapper_switch.cu:[[#@LINE+28]];
// With 16 threads: one warp of 16 active lanes.
// CHECK-DAG: :[[@LINE-6]]:3: warning: {{(.*: )?}}global store to 'p' uses 4 sectors per request (ideal 2)
// CHECK-DAG: note: {{(in [^:]*: )?}}assuming blockDim = (16, 1, 1) from the launch at wrapper_switch.cu:[[#@LINE+28]];

template <class T> __global__ void plain(T *p) { p[threadIdx.x * 3] = 0; }
// CHECK: :[[@LINE-1]]:50: warning: {{(.*: )?}}global store to 'p' uses 12 sectors per request (ideal 4)
// CHECK: note: blockDim unknown: the launch at wrapper_switch.cu:[[#@LINE+12]] has a block shape that is not known statically (it depends on the parameter 'threads' of 'reduce', which no code in this file calls (calls from other files are not followed)); assuming blockDim.x is a multiple of 32; set {{--block=plain=X,Y,Z|the check option Block=plain=X,Y,Z}} to be exact;

template <class T>
void reduce(int size, int threads, int blocks, int whichKernel, T *d_idata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
  if (threads < 64 && whichKernel == 9)
    whichKernel = 7;

  switch (whichKernel) {
  case 0:
    plain<T><<<dimGrid, dimBlock, smemSize>>>(d_idata);
    break;
  case 6:
  default:
    switch (threads) {
    case 256:
      tiled<T, 256><<<dimGrid, dimBlock, smemSize>>>(d_idata);
      break;
    case 64:
      tiled<T, 64><<<dimGrid, dimBlock, smemSize>>>(d_idata);
      break;
    case 16:
      tiled<T, 16><<<dimGrid, dimBlock, smemSize>>>(d_idata);
      break;
    }
    break;
  }
}

template void reduce<float>(int size, int threads, int blocks, int whichKernel, float *d_idata);
