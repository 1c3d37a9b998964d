// A loop that a break or return can end before its condition does: the
// condition's trip count is only a bound, so the requests per warp are not
// known (the cost per request still is). Found with verify mode on a search
// loop (sample_kernels/launch_edges.cu): 64 requests per warp were claimed
// where the GPU ran 1.
// RUN: %lint --format=json %s | FileCheck %s
// UNSUPPORTED: tidy
__global__ void search(const float *cdf, const float *u, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float target = u[i];
  int index = n - 1;
  for (int x = 0; x < n; x++) {
    if (cdf[x] >= target) {
      index = x;
      break;
    }
  }
  out[i] = index;
}
// Without an exit, the trip count is the number of requests.
__global__ void scan(const float *cdf, float *out, int n) {
  float s = 0;
  for (int x = 0; x < n; x++)
    s += cdf[x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
void launch(const float *c, const float *u, int *o, float *f) {
  search<<<64, 128>>>(c, u, o, 5000);
  scan<<<64, 128>>>(c, f, 5000);
}
// CHECK: "expression": "cdf[x]",
// CHECK: "requests_per_warp": null,
// CHECK: "sectors_per_request": 1,
// CHECK: "expression": "cdf[x]",
// CHECK: "requests_per_warp": 5000,
