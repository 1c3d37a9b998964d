// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Loops report the pattern per iteration and, with a known trip count, the
// requests per warp; nested loops multiply; a loop whose bound is not known
// gives the cost per iteration (requests unknown). Ternaries and lane
// conditions shape the active lanes.

__global__ void nested(const float *a, float *out) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      s += a[(i * 4 + j) * 1024 + col];
  out[col] = s;
}

__global__ void unbounded(const float *a, float *out, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += a[row * 512 + j];
  // CHECK: :[[@LINE-1]]:10: warning: global load from 'a' uses 32 sectors per request (ideal 4): lanes are 2048 bytes apart
  // CHECK: note: {{.*}}the loop at line [[#@LINE-3]] runs a number of iterations not known: the cost is per iteration
  out[row] = s;
}

__global__ void ternary(const float *a, const float *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *src = (threadIdx.x & 1) ? a : b;
  // Warp 0: lanes 0-15 read a, 16-31 read b; the other seven warps read b
  // with all lanes: (4 + 7 * 8) / 8 = 7.5 sectors, ideal (2 + 7 * 4) / 8.
  out[i] = (threadIdx.x < 16) ? a[i] : b[2 * i];
  // CHECK: :[[@LINE-1]]:40: warning: global load from 'b' uses 7.5 sectors per request (ideal 3.75): lanes are 8 bytes apart in the warp shown; the warps or iterations differ (4 to 8 sectors per request)
  out[i] += src[i];
  // CHECK: :[[@LINE-1]]:3: remark: global load from 'out' needs no instruction of its own: `out[i]` (line [[@LINE-3]]) stored this value
  // CHECK: :[[@LINE-2]]:13: remark: global load from 'src[i]' cannot be predicted: the lanes take different pointers
}

int main(int argc, char **) {
  float *a, *o;
  nested<<<4, 256>>>(a, o);
  unbounded<<<4, 256>>>(a, o, argc * 1000);
  ternary<<<4, 256>>>(a, a, o);
}
// Keys are printed in alphabetical order within each record.
// JSON: "kernel": "nested"
// JSON: "requests_per_warp": 32
// JSON: "sectors_per_request": 4
// JSON: "kernel": "unbounded"
// JSON: "requests_per_warp": null
