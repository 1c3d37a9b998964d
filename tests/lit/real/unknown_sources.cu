// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// What the analysis cannot know is reported as unknown with its reason, and
// counted per kernel: pointer chasing, data-dependent atomics, memory passed
// to a function whose body is not visible. A pointer loaded by every lane
// from one address is warp-uniform, so accesses through it stay known.

struct Node { int value; Node *next; };
extern __device__ void consume(const float *row, int n);

__global__ void chase(Node **heads, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Node *n = heads[i];
  out[i] = n->next->value;
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'n->next' cannot be predicted: depends on data loaded by `heads[i]` [coalesce-uncoalesced-global]
  // CHECK: :[[@LINE-2]]:12: remark: global load from 'n->next->value' cannot be predicted: depends on data loaded by `n->next` [coalesce-uncoalesced-global]
}

__global__ void shared_table(const float *const *tables, float *out) {
  const float *t = tables[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[threadIdx.x * 2];
  // CHECK: :[[@LINE-1]]:48: warning: global load from 'tables[blockIdx.x]' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: {{.*}}assuming the pointer loaded by `tables[blockIdx.x]` is 32-byte aligned (only 4-byte alignment is known); otherwise 8 to 9 sectors
}

__global__ void histogram(const int *keys, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[keys[i]], 1);
  // CHECK: :[[@LINE-1]]:3: remark: global atomic on 'bins' cannot be predicted: depends on data loaded by `keys[i]`
}

__global__ void opaque(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  consume(in + i * n, n);
  // CHECK: :[[@LINE-1]]:11: remark: global accesses to 'in' by a call cannot be predicted: it is passed to 'consume', whose body is not visible
  out[i] = 0;
}

int main() {
  Node **h; int *o; float *f; const float **t; int *k;
  chase<<<4, 256>>>(h, o);
  shared_table<<<4, 256>>>(t, f);
  histogram<<<4, 256>>>(k, o);
  opaque<<<4, 256>>>(f, f, 100);
}
