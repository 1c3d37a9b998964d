// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Template kernels are analysed per instantiation: scale<1> is coalesced,
// scale<4> reads every fourth float; copy<T> follows the element size.

template <int S>
__global__ void scale(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i * S];
  // CHECK: :[[@LINE-1]]:19: warning: scale<4>: global load from 'in' uses 16 sectors per request (ideal 4): lanes are 16 bytes apart [coalesce-uncoalesced-global]
}

template <typename T>
__global__ void copy(const T *in, T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main() {
  float *a, *b;
  double *c, *d;
  scale<1><<<64, 256>>>(a, b);
  scale<4><<<64, 256>>>(a, b);
  copy<double><<<64, 256>>>(c, d);
}

// JSON-DAG: "name": "scale<1>"
// JSON-DAG: "name": "scale<4>"
// JSON-DAG: "name": "copy<double>"
// JSON-DAG: "kernel": "scale<4>"
