// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// extern __shared__ (dynamic) memory with typed views at offsets: a float
// view at 0, a double view 1 KB in, an int4 view 3 KB in. Offsets that are
// multiples of 128 bytes do not move the banks; the views' own strides do:
// d[2 * t] is 2-way (4 wavefronts, ideal 2), q[2 * t] is 2-way (8, ideal 4).

extern __shared__ float smem[];

__global__ void views(float *out) {
  int t = threadIdx.x;
  float *f = smem;
  double *d = reinterpret_cast<double *>(smem + 256);
  int4 *q = reinterpret_cast<int4 *>(&smem[768]);
  f[t] = t;
  d[t] = t;
  d[2 * t] = t;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'smem' has a 2-way bank conflict: 4 wavefronts per request (ideal 2) [coalesce-shared-bank-conflict]
  q[t] = make_int4(t, t, t, t);
  q[2 * t] = make_int4(t, t, t, t);
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'smem' has a 2-way bank conflict: 8 wavefronts per request (ideal 4) [coalesce-shared-bank-conflict]
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = f[t] + d[t];
}

int main() {
  float *o;
  views<<<64, 256, 16384>>>(o);
}
