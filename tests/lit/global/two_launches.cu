// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A kernel launched with two block shapes gets one result per shape, each
// naming the launch it assumes. A third launch with an already-seen shape
// and the same results is merged into that result. (The order of
// the two results is not pinned; block_flag.cu pins shape -> cost.)

__global__ void transposed_read(const float *in, float *out) {
  float v = in[threadIdx.x * 1024 + threadIdx.y];
  // CHECK-DAG: :[[@LINE-1]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart [coalesce-uncoalesced-global]
  // CHECK-DAG: note: assuming blockDim = (32, 8, 1) from the launches at two_launches.cu:[[#@LINE+8]], two_launches.cu:[[#@LINE+10]]
  // The other launch's cost, in the same finding:
  // CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 32 sectors per request (ideal 4) for blockDim (32, 8, 1); 16 sectors per request (ideal 4) for blockDim (16, 16, 1).
  out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}

int main() {
  float *a, *b;
  transposed_read<<<1, dim3(32, 8)>>>(a, b);
  transposed_read<<<1, dim3(16, 16)>>>(a, b);
  transposed_read<<<4, dim3(32, 8)>>>(a, b);
}
