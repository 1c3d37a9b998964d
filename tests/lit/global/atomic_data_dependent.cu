// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// atomicAdd and __ldg on an element chosen by loaded data: unknown, but the
// array is known and must be named (and, for a __shared__ array, the access
// is a shared one: see shared/atomic_unknown_bin.cu).
// Known bug: these are named by the whole call's text, e.g.
// 'atomicAdd(&hist[keys[i]], 1)', instead of 'hist'.

__global__ void histogram(const int *keys, int *hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&hist[keys[i]], 1);
  // CHECK: :[[@LINE-1]]:3: remark: global atomic on 'hist' cannot be predicted: depends on data loaded by `keys[i]` [coalesce-uncoalesced-global]
}

__global__ void gather_ldg(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ldg(&in[idx[i]]);
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' cannot be predicted: depends on data loaded by `idx[i]` [coalesce-uncoalesced-global]
}

int main() {
  int *k, *h;
  float *a, *b;
  histogram<<<64, 256>>>(k, h);
  gather_ldg<<<64, 256>>>(a, k, b);
}
