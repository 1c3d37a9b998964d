// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A shared-memory histogram: atomicAdd on a __shared__ bin chosen by loaded
// data is a shared access that cannot be predicted.
// Known bug: it is reported as a *global* atomic (coalesce-uncoalesced-global)
// named 'atomicAdd(&bins[keys[i]], 1)'.

__global__ void histogram(const int *keys, int *out) {
  __shared__ int bins[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[keys[i]], 1);
  // CHECK: :[[@LINE-1]]:3: remark: shared atomic on 'bins' cannot be predicted: depends on data loaded by `keys[i]` [coalesce-shared-bank-conflict]
  __syncthreads();
  out[i] = bins[threadIdx.x];
}

int main() {
  int *k, *o;
  histogram<<<64, 256>>>(k, o);
}
