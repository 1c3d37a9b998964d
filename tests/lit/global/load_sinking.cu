// RUN: %lint --format=json %s | %records --requests | FileCheck %s
// A value loaded before a loop and used only in its body: nvcc loads it after
// the loop's first test (models/LoadSinking.cpp), so warps none of whose
// lanes enter the loop issue no request. Read in SASS (nvcc 13 -O3 sm_90) and
// measured on an H200 in llm.c's rstd_kernel (tests/verify/fixtures/real-h200/llmc):
// with 1024 threads and C = 768, warps 24-31 never enter: 0.75 requests per
// warp.

__global__ void rstd(float *out, const float *inp, const float *mean, int C, int bs) {
  int idx = blockIdx.x;
  int tid = threadIdx.x;
  const float *x = inp + idx * C;
  float m = mean[idx];
  // CHECK: load_sinking.cu:[[#@LINE-1]]:13: rstd load global 'mean' `mean[idx]` 1/1 ok r=0.75
  float sum = 0.0f;
  for (int i = tid; i < C; i += bs) {
    float d = x[i] - m;
    sum += d * d;
  }
  out[idx * 1024 + tid] = sum;
}

// Used after the loop too: loaded before the test, by every warp.
__global__ void used_after(float *out, const float *inp, const float *mean, int C, int bs) {
  int idx = blockIdx.x, tid = threadIdx.x;
  float m = mean[idx];
  // CHECK: load_sinking.cu:[[#@LINE-1]]:13: used_after load global 'mean' `mean[idx]` 1/1 ok r=1
  float sum = 0.0f;
  for (int i = tid; i < C; i += bs)
    sum += inp[i] - m;
  out[idx * 1024 + tid] = sum + m;
}

// A store between the load and the loop (through a pointer that may alias
// it): the load stays before it.
__global__ void store_between(float *out, float *mean, int C, int bs) {
  int idx = blockIdx.x, tid = threadIdx.x;
  float m = mean[idx];
  // CHECK: load_sinking.cu:[[#@LINE-1]]:13: store_between load global 'mean' `mean[idx]` 1/1 ok r=1
  out[tid] = 1.0f;
  float sum = 0.0f;
  for (int i = tid; i < C; i += bs)
    sum += m * i;
  out[idx * 1024 + tid] = sum;
}

// Used in the loop's condition: needed by the first test.
__global__ void in_condition(float *out, const int *limit, int bs) {
  int tid = threadIdx.x;
  int n = limit[blockIdx.x];
  // CHECK: load_sinking.cu:[[#@LINE-1]]:11: in_condition load global 'limit' `limit[blockIdx.x]` 1/1 ok r=1
  float sum = 0.0f;
  for (int i = tid; i < n; i += bs)
    sum += i;
  out[blockIdx.x * 1024 + tid] = sum;
}

// The trip count is not known (C is not): whether a warp enters is not
// known, and neither are the requests per warp.
__global__ void unknown_trips(float *out, const float *inp, const float *mean, int C, int bs) {
  int idx = blockIdx.x, tid = threadIdx.x;
  float m = mean[idx];
  // CHECK: load_sinking.cu:[[#@LINE-1]]:13: unknown_trips load global 'mean' `mean[idx]` 1/1 ok r=?
  float sum = 0.0f;
  for (int i = tid; i < C; i += bs)
    sum += inp[idx * C + i] * m;
  out[idx * 1024 + tid] = sum;
}

int main(int argc, char **argv) {
  float *a, *b, *c;
  int *l;
  rstd<<<64, 1024>>>(a, b, c, 768, 1024);
  used_after<<<64, 1024>>>(a, b, c, 768, 1024);
  store_between<<<64, 1024>>>(a, c, 768, 1024);
  in_condition<<<64, 1024>>>(a, l, 1024);
  unknown_trips<<<64, 1024>>>(a, b, c, argc * 100, 1024);
}
