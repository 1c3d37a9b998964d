// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Each message names the template instantiation it is about. The same finding
// (same place, rule and cost) of several instantiations is reported once,
// naming them all, with each one's assumptions; different costs stay
// separate findings, each naming its own. A kernel launched with two block
// shapes that cost the same is one finding with both launches' assumptions.
// The JSON output is data: one record per instantiation.

template <typename T>
__global__ void copy_elems(const float *in, T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<T>(in[i * 32]);
  // CHECK: :[[@LINE-1]]:27: warning: copy_elems<char>, <short>, <int>: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart [coalesce-uncoalesced-global]
  // CHECK-NEXT: {{^}}{{ +}}[[@LINE-2]] |
  // CHECK-NEXT: ^~~~~~~~~~
  // CHECK-NEXT: note: lane 0 -> byte +0, lane 1 -> byte +128
  // CHECK-NEXT: note: in copy_elems<char>: assuming blockDim = (256, 1, 1) from the launch at template_instantiations.cu:[[#@LINE+28]]
  // CHECK-NEXT: note: in copy_elems<short>: assuming blockDim = (256, 1, 1) from the launch at template_instantiations.cu:[[#@LINE+28]]
  // CHECK-NEXT: note: in copy_elems<int>: assuming blockDim = (256, 1, 1) from the launch at template_instantiations.cu:[[#@LINE+28]]
  // CHECK-NEXT: note: consecutive lanes walk down a column
}

template <int W>
__global__ void wrap(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i % W) * 32];
  // CHECK: :[[@LINE-1]]:12: warning: wrap<16>: global load from 'in' uses 16 sectors per request
  // CHECK: :[[@LINE-2]]:12: warning: wrap<32>, <64>: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: in wrap<32>: assuming blockDim = (256, 1, 1) from the launch at template_instantiations.cu:[[#@LINE+20]]
  // CHECK-NEXT: note: in wrap<64>: assuming blockDim = (256, 1, 1) from the launch at template_instantiations.cu:[[#@LINE+20]]
}

__global__ void columns(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 1024];
  // CHECK: :[[@LINE-1]]:22: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: assuming blockDim = (32, 8, 1) from the launch at template_instantiations.cu:[[#@LINE+15]]
  // CHECK-NEXT: note: assuming blockDim = (64, 4, 1) from the launch at template_instantiations.cu:[[#@LINE+15]]
}

int main() {
  float *a, *b;
  char *c;
  short *s;
  int *n;
  copy_elems<char><<<64, 256>>>(a, c);
  copy_elems<short><<<64, 256>>>(a, s);
  copy_elems<int><<<64, 256>>>(a, n);
  wrap<16><<<64, 256>>>(a, b);
  wrap<32><<<64, 256>>>(a, b);
  wrap<64><<<64, 256>>>(a, b);
  columns<<<1, dim3(32, 8)>>>(a, b);
  columns<<<1, dim3(64, 4)>>>(a, b);
}

// JSON-COUNT-3: "kernel": "copy_elems<{{char|short|int}}>",
