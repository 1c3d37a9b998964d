// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Fields of structs in shared memory: a 32-bit field of s[t] is t * sizeof
// struct apart. 8-byte struct -> stride 2 words (2-way); 12-byte -> 3 words
// (odd: conflict-free); 16-byte -> 4 words (4-way), also for the int field
// of a {double, int} struct. Its double field is a 64-bit access 4 words
// apart: in each half-warp lanes L and L + 8 hit the same two banks with
// different words (2-way: 4 wavefronts, ideal 2).

struct Pair { float a, b; };
struct Triple { float x, y, z; };
struct Quad { float v[4]; };
struct Keyed { double d; int k; }; // 16 bytes, 8-byte aligned

__global__ void fields(float *out) {
  __shared__ Pair p[256];
  __shared__ Triple q[256];
  __shared__ Quad r[256];
  __shared__ Keyed kd[256];
  int t = threadIdx.x;
  p[t].b = t;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'p' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  q[t].y = t;
  r[t].v[2] = t;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'r' has a 4-way bank conflict: 4 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  __syncthreads();
  float v = p[t].a;
  // CHECK: :[[@LINE-1]]:13: warning: shared load from 'p' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  v += q[t].z;
  v += r[t].v[3];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'r' has a 4-way bank conflict: 4 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  kd[t].k = t;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'kd' has a 4-way bank conflict: 4 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  v += kd[t].d;
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'kd' has a 2-way bank conflict: 4 wavefronts per request (ideal 2) [coalesce-shared-bank-conflict]
  out[blockIdx.x * blockDim.x + t] = v;
}

int main() {
  float *o;
  fields<<<64, 256>>>(o);
}
