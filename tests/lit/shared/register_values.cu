// RUN: %lint %s | FileCheck %s
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Only rmw's load and store of a[t][5] are kept in a register:
// RUN: %lint --format=json %s | grep -o '"kept-in-register"' | wc -l | FileCheck %s --check-prefix=COUNT
// COUNT: {{^ *}}2{{$}}
// Values nvcc keeps in registers (sample_kernels/register_values.cu measures
// them on an H200). A load of the lvalue a store has just written, with no
// other store, call or branch in between, uses the stored value: no
// instruction (`load-forwarded`). A value read and written back in a loop at
// an address the loop does not change, where nothing else in the loop may
// overwrite it, stays in a register between iterations: its loads and
// stores have requests per warp that are not known (`kept-in-register`),
// and each request still has its cost.

// JSON-DAG: "reason_kind": "load-forwarded"
// JSON-DAG: "kept-in-register"

__global__ void forward(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t] * 2.0f;
  out[t] = s[t] + 1.0f;
  // CHECK-DAG: :[[@LINE-1]]:12: remark: shared load from 's' needs no instruction of its own: `s[t]` (line [[@LINE-2]]) stored this value at the same address, with no other store, call or branch in between, and nvcc uses the stored value
  // REC-DAG: register_values.cu:[[@LINE-2]]:12: forward load shared 's' `s[t]` ?/? unknown
}

// A store that may alias (an index loaded from memory) in between: loaded.
__global__ void store_between(const float *in, const int *idx, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  s[idx[t] & 255] = 0.0f;
  out[t] = s[t];
  // REC-DAG: register_values.cu:[[@LINE-1]]:12: store_between load shared 's' `s[t]` 1/1 ok
}

// Another lvalue written in between, or a branch: loaded.
__global__ void other_lvalue(const float *in, float *out, int f) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  s[(t * 7) % 256] = 3.0f;
  out[t] = s[t];
  // REC-DAG: register_values.cu:[[@LINE-1]]:12: other_lvalue load shared 's' `s[t]` 1/1 ok
  s[t] = 4.0f;
  if (f)
    out[t + 256] = 1.0f;
  out[t + 512] = s[t];
  // REC-DAG: register_values.cu:[[@LINE-1]]:18: other_lvalue load shared 's' `s[t]` 1/1 ok
}

// Read and written back in a loop: kept in a register.
__global__ void rmw(float *m, int n) {
  __shared__ float a[32][32];
  int t = threadIdx.x;
  a[t][0] = m[t];
  __syncthreads();
  for (int j = 0; j < n; ++j)
    a[t][5] -= a[j][5] * a[j][t];
  // CHECK-DAG: :[[@LINE-1]]:5: warning: shared load and store of 'a' each have a 32-way bank conflict: 32 wavefronts per request (ideal 1)
  // CHECK-DAG: :[[@LINE-2]]:5: note: {{.*}}`a[t][5]` is read and written back in the loop at line [[@LINE-3]], at an address the loop does not change, and nothing else in the loop may overwrite it: nvcc keeps the value in a register between iterations and loads or stores it only where its unrolled copy of the loop starts or ends, so the requests per warp are not known
  // REC-DAG: register_values.cu:[[@LINE-3]]:5: rmw load shared 'a' `a[t][5]` 32/1 bank-conflict
  // REC-DAG: register_values.cu:[[@LINE-4]]:5: rmw store shared 'a' `a[t][5]` 32/1 bank-conflict
  // REC-DAG: register_values.cu:[[@LINE-5]]:16: rmw load shared 'a' `a[j][5]` 1/1 ok
  m[t] = a[t][5];
}

// Negative: the loop also stores a[j][t], which may be a[t][5]; and a
// global value written back through a pointer that other stores may alias.
__global__ void rmw_other_store(float *m, float *o, int n) {
  __shared__ float a[32][32];
  int t = threadIdx.x;
  for (int j = 0; j < n; ++j) {
    a[t][5] -= 1.0f;
    a[j][t] = 2.0f;
    m[t] += 1.0f;
    o[j] = 0.0f;
  }
  m[t + 32] = a[t][5];
}

int main() {
  float *f;
  int *i;
  forward<<<1, 256>>>(f, f);
  store_between<<<1, 256>>>(f, i, f);
  other_lvalue<<<1, 256>>>(f, f, 1);
  rmw<<<1, 32>>>(f, 12);
  rmw_other_store<<<1, 32>>>(f, f, 12);
}
