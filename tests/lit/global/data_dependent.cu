// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Indices and branches that depend on loaded data cannot be predicted: a
// remark with the reason, never a number. The index loads themselves are
// coalesced and silent.

__global__ void gather(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' cannot be predicted: depends on data loaded by `idx[i]` [coalesce-uncoalesced-global]
}

__global__ void scatter(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx[i]] = in[i];
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted: depends on data loaded by `idx[i]` [coalesce-uncoalesced-global]
}

// Which lanes store depends on the data: unknown, with the full-warp cost.
__global__ void data_branch(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0.0f)
    out[i] = 1.0f;
  // CHECK: :[[@LINE-1]]:5: remark: global store to 'out' cannot be predicted: which lanes are active depends on `in[i] > 0.0f` (line [[#@LINE-2]]): the condition depends on floating-point or other data; with all lanes active it would be 4 sectors per request [coalesce-uncoalesced-global]
}

int main() {
  float *a, *b;
  int *x;
  gather<<<64, 256>>>(a, x, b);
  scatter<<<64, 256>>>(a, x, b);
  data_branch<<<64, 256>>>(a, b);
}
