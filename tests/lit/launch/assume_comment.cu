// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// `// coalesce-lint: assume ...` on the comment lines right before a kernel
// (or its template header) or inside its body states facts about the
// kernel's parameters, as --assume does for every kernel.

__global__ void in_body(const float *a, float *out, int stride) {
  // coalesce-lint: assume stride=4
  out[threadIdx.x] = a[threadIdx.x * stride];
  // CHECK: :[[@LINE-1]]:22: warning: global load from 'a' uses 16 sectors per request (ideal 4): lanes are 16 bytes apart
  // CHECK: note: {{.*}}with 'stride = 4' from the comment at line [[#@LINE-3]]
}

// Rows of a matrix whose width is a multiple of 8 floats: each row starts
// on a sector boundary, so the cost is exact, not an assumption.
// coalesce-lint: assume width % 8 == 0
template <int N>
__global__ void before_template(const float *a, float *out, int width) {
  out[blockIdx.x * width + threadIdx.x] = a[(blockIdx.x * width + threadIdx.x) * N];
  // CHECK: :[[@LINE-1]]:43: warning: before_template<2>: global load from 'a' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart
  // CHECK: note: {{.*}}with 'width % 8 == 0' from the comment at line 15
}
template __global__ void before_template<2>(const float *, float *, int);

// Not a comment right before the kernel (a blank line between): no fact,
// and the lanes stay spread by an unknown size.
// coalesce-lint: assume step=1

__global__ void too_far(const float *a, float *out, int step) {
  out[threadIdx.x] = a[threadIdx.x * step];
  // CHECK: :[[@LINE-1]]:22: remark: global load from 'a' uses 32 sectors per request (ideal 4) for every step >= 8
  // CHECK: note: not a warning: the cost is 4 sectors (ideal 4) when step == 1
}
