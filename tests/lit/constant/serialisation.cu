// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Reads of __constant__ memory: the constant cache serves one address per
// request, so an LDC costs one constant-cache request per distinct address
// among the active lanes (ideal 1). The lane patterns measured on an H200.

__constant__ float cst[1024];
struct Params {
  int n;
  float scale;
};
__constant__ Params params;

__global__ void uniform(float *out, int k) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[k] + cst[blockIdx.x];
}

__global__ void compile_time(float *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[4] * params.scale + params.n;
}

__global__ void lane(float *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[l];
  // CHECK: :[[@LINE-1]]:30: warning: constant load from 'cst' is serialised into 32 constant-cache requests per instruction (ideal 1): the lanes read 32 different addresses [coalesce-constant-serialisation]
}

__global__ void four(float *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[l / 8];
  // CHECK: :[[@LINE-1]]:30: warning: constant load from 'cst' is serialised into 4 constant-cache requests per instruction (ideal 1): the lanes read 4 different addresses [coalesce-constant-serialisation]
}

__global__ void two(float *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[(l / 16) * 100];
  // CHECK: :[[@LINE-1]]:30: warning: constant load from 'cst' is serialised into 2 constant-cache requests per instruction (ideal 1): the lanes read 2 different addresses [coalesce-constant-serialisation]
}

__global__ void stride(float *out) {
  int l = threadIdx.x;
  out[blockIdx.x * 32 + l] = cst[l * 32];
  // CHECK: :[[@LINE-1]]:30: warning: constant load from 'cst' is serialised into 32 constant-cache requests per instruction (ideal 1): the lanes read 32 different addresses [coalesce-constant-serialisation]
}

__global__ void some_lanes(float *out) {
  int l = threadIdx.x;
  float v = 0;
  if (l < 8)
    v = cst[l];
  // CHECK: :[[@LINE-1]]:9: warning: constant load from 'cst' is serialised into 8 constant-cache requests per instruction (ideal 1): the lanes read 8 different addresses [coalesce-constant-serialisation]
  out[blockIdx.x * 32 + l] = v;
}

__global__ void from_data(float *out, const int *idx) {
  int i = blockIdx.x * 32 + threadIdx.x;
  out[i] = cst[idx[i]];
  // CHECK: :[[@LINE-1]]:12: remark: constant load from 'cst' cannot be predicted: depends on data loaded by `idx[i]` [coalesce-constant-serialisation]
}

// A 2-D block: warps hold 2 rows of 16, so cst[threadIdx.y] has 2 addresses.
__global__ void rows(float *out) {
  out[threadIdx.y * 16 + threadIdx.x] = cst[threadIdx.y];
  // CHECK: :[[@LINE-1]]:41: warning: constant load from 'cst' is serialised into 2 constant-cache requests per instruction (ideal 1): the lanes read 2 different addresses [coalesce-constant-serialisation]
}

int main() {
  float *o;
  int *idx;
  uniform<<<64, 32>>>(o, 3);
  compile_time<<<64, 32>>>(o);
  lane<<<64, 32>>>(o);
  four<<<64, 32>>>(o);
  two<<<64, 32>>>(o);
  stride<<<64, 32>>>(o);
  some_lanes<<<64, 32>>>(o);
  from_data<<<64, 32>>>(o, idx);
  rows<<<1, dim3(16, 8)>>>(o);
}
