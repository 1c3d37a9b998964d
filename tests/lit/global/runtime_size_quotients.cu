// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --format=json | FileCheck %s --check-prefix=JSON
// RUN: %lint %s --assume=n=1000 --assume=nb=4096 | FileCheck %s --check-prefix=EXACT
// A size the kernel computes from a parameter by a division (a byte stride
// made an element stride: llama.cpp's `stride_K = nb11 / sizeof(half2)`)
// takes every integer from its lower bound on, as the parameter does: the
// cost is given as a function of the quotient, and --assume on the
// parameter settles it. A quotient that skips values, or of a product of two
// parameters, is not a free size: unknown, as before.

// Rows of 16 int4 (256 bytes) at a stride of nb/16 elements: two rows per
// warp, 8 sectors each once the rows are apart.
__global__ void rows_of_bytes(const int4 *kv, int4 *out, int nb) {
  const int stride = nb / 16;
  const int row = threadIdx.x / 16, col = threadIdx.x % 16;
  out[blockIdx.x * 32 + threadIdx.x] = kv[row * stride + col];
  // JSON:      "expression": "kv[row * stride + col]",
  // JSON:      "parametric": {
  // JSON-NEXT:   "assume": "nb",
  // JSON:            "text": "when nb/16 is a multiple of 2 and nb/16 >= 16",
  // JSON:        "size": "nb/16",
  // JSON:      "sectors_per_request": 16,
}

// A rounded-up quotient: (n + 31) / 32 takes every value from 0 on.
__global__ void rows_plus(const float *a, float *out, int n) {
  const int stride = (n + 31) / 32;
  out[blockIdx.x * 32 + threadIdx.x] = a[threadIdx.x * stride];
  // CHECK: :[[@LINE-1]]:40: remark: global load from 'a' uses 32 sectors per request (ideal 4) for every (n + 31)/32 >= 8
  // CHECK: note: for other values of '(n + 31)/32': 1 sector (ideal 1) when (n + 31)/32 == 0; 4 sectors (ideal 4) when (n + 31)/32 == 1; {{.*}}; --assume n=VALUE gives the number for one value
  // CHECK: note: not a warning: {{.*}} state them with --assume n=VALUE (or n >= VALUE)
  // EXACT: :[[@LINE-4]]:40: warning: global load from 'a' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart
}

// Negative: (8n + 5) / 3 grows by 2 or 3 per step of n, skipping values.
__global__ void skipping(const float *a, float *out, int n) {
  const int stride = (8 * n + 5) / 3;
  out[blockIdx.x * 32 + threadIdx.x] = a[threadIdx.x * stride];
  // CHECK: :[[@LINE-1]]:40: remark: global load from 'a' cannot be predicted: the distance between lanes depends on '(8*n + 5)/3', which is not known statically
}

// Negative: a quotient of a product of two parameters.
__global__ void product(const float *a, float *out, int n, int m) {
  const int stride = (n * m) / 4;
  out[blockIdx.x * 32 + threadIdx.x] = a[threadIdx.x * stride];
  // CHECK: :[[@LINE-1]]:40: remark: global load from 'a' cannot be predicted: the distance between lanes depends on '(n*m)/4', which is not known statically
}
