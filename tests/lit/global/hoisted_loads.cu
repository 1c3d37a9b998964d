// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=TEXT
// Only the three hoisted loads below (search, restricted,
// past_shared_stores) are marked:
// RUN: %lint --format=json %s | grep -c '"load-hoisted"' | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}3{{$}}
// Loads nvcc does not repeat (sample_kernels/hoisted_loads.cu measures each
// case on an H200): a load that runs in every iteration of a loop at an
// address the loop does not change, where nothing in the loop may overwrite
// it, is loaded once before the loop; a value loaded earlier in
// straight-line code is reused when the address is written alike.

__global__ void search(const float *cdf, const float *u, int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int found = n - 1;
  for (int x = 0; x < n; ++x) {
    if (cdf[x] >= u[i]) {
      found = x;
      break;
    }
  }
  idx[i] = found;
}
// REC: hoisted_loads.cu:18:9: search load global 'cdf' `cdf[x]` 1/1 ok
// REC: hoisted_loads.cu:18:19: search load global 'u' `u[i]` 4/4 ok
// JSON: "load-hoisted"
// JSON: "expression": "u[i]"
// JSON: "requests_per_warp": 1,
// TEXT: "nvcc loads it once before the loop at line 17, which does not change its address and stores nothing that may overwrite it: one request per warp each time the loop starts, which Nsight Compute shows on a line before the loop"

// Stores through __restrict__ pointers do not overwrite `in`.
__global__ void restricted(const float *__restrict__ in, float *__restrict__ out, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < reps; ++k)
    out[k * 1024 + i] = in[i] * k;
}
// JSON: "load-hoisted"
// JSON: "expression": "in[i]"
// JSON: "kernel": "restricted"

// Shared stores in the loop do not reach a global load.
__global__ void past_shared_stores(const float *in, float *out) {
  __shared__ float s[256];
  float acc = 0.0f;
  s[threadIdx.x] = 0.0f;
  for (int k = 0; k < 8; ++k) {
    acc += in[threadIdx.x] * s[(threadIdx.x + k) % 256];
    s[threadIdx.x] = acc;
  }
  out[threadIdx.x] = acc;
}
// JSON: "load-hoisted"
// JSON: "expression": "in[threadIdx.x]"
// JSON: "kernel": "past_shared_stores"

// Negative: without __restrict__ the store may overwrite in[i]: it is
// loaded again in every iteration.
__global__ void may_alias(const float *in, float *out, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k)
    out[k * 1024 + i] = in[i] * k;
}
// Negative: under a branch of the body; behind a barrier; at an address
// read from memory in the loop; at an address the loop changes.
__global__ void not_hoisted(const float *in, const int *idx, float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k)
    if (k % 2)
      acc += in[i];
  for (int k = 0; k < 4; ++k) {
    acc += s[threadIdx.x];
    __syncthreads();
  }
  for (int k = 0; k < 4; ++k)
    acc += in[idx[k] + threadIdx.x];
  int j = i;
  for (int k = 0; k < 4; ++k) {
    acc += in[j];
    j = j + 32;
  }
  out[i] = acc;
}

// Straight-line reuse: the second in[i + 1] is not loaded again; s[t / 32]
// is s[0] in the first warp, but the compiler cannot know that: two loads.
__global__ void reuse(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  __syncthreads();
  float a = in[i + 1];
  float b = in[i + 1] * 2.0f;
  float c = s[0];
  c += s[t / 32];
  out[i] = a + b + c;
}
// REC: hoisted_loads.cu:[[@LINE-6]]:13: reuse load global 'in' `in[i + 1]` 5/4 uncoalesced
// REC: hoisted_loads.cu:[[@LINE-6]]:13: reuse load global 'in' `in[i + 1]` ?/? unknown
// REC: hoisted_loads.cu:[[@LINE-6]]:13: reuse load shared 's' `s[0]` 1/1 ok
// REC: hoisted_loads.cu:[[@LINE-6]]:8: reuse load shared 's' `s[t / 32]` 1/1 ok

void launch(float *f, int *ix, float *o, int *id) {
  search<<<64, 256>>>(f, f, id, 64);
  restricted<<<64, 256>>>(f, o, 4);
  may_alias<<<64, 256>>>(f, o, 4);
  past_shared_stores<<<64, 256>>>(f, o);
  not_hoisted<<<64, 256>>>(f, ix, o, 4);
  reuse<<<64, 256>>>(f, o);
}
