// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A shared index loaded from memory that differs between lanes cannot be
// predicted (a remark with the reason). A loaded index that is the same for
// the whole warp is still a broadcast: 1 wavefront, silent.

__global__ void lookup(const int *idx, float *out) {
  __shared__ float s[256];
  __shared__ int perm[256];
  int t = threadIdx.x;
  s[t] = t;
  perm[t] = idx[t];
  __syncthreads();
  float v = s[idx[blockIdx.x * blockDim.x + t]];
  // CHECK: :[[@LINE-1]]:13: remark: shared load from 's' cannot be predicted: depends on data loaded by `idx[blockIdx.x * blockDim.x + t]` [coalesce-shared-bank-conflict]
  v += s[perm[t]];
  // CHECK: :[[@LINE-1]]:8: remark: shared load from 's' cannot be predicted: depends on data loaded by `perm[t]` [coalesce-shared-bank-conflict]
  v += s[idx[blockIdx.x]];
  out[blockIdx.x * blockDim.x + t] = v;
}

int main() {
  int *i;
  float *o;
  lookup<<<64, 256>>>(i, o);
}
