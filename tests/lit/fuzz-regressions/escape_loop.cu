// Lanes leave a counted loop on values computed from loaded data (an
// escape-time fractal): the loop is not run to its bound on every lane.
// Found on cuda-samples' Mandelbrot: each branch copied the state and the
// loop ran iteration by iteration to its bound on every lane (minutes). The
// loop now goes symbolic when its lanes leave on unknown data.
// RUN: %lint %s 2>&1 | FileCheck %s --implicit-check-not=remark: --implicit-check-not=warning:
// UNSUPPORTED: tidy
// CHECK: coalesce-lint: 2 accesses in 1 kernel: 0 warnings, 0 remarks
__device__ int escape(float cx, float cy, int limit) {
  float x = 0, y = 0;
  for (int i = 0; i < limit; ++i) {
    float xx = x * x, yy = y * y;
    if (xx + yy > 4.0f) return i;
    y = 2.0f * x * y + cy;
    x = xx - yy + cx;
    if (x * y > 100.0f) return -i;
  }
  return limit;
}
__global__ void fractal(int *out, const float *cx, float cy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = escape(cx[i], cy, 100000);
}
void run(int *o, const float *c) { fractal<<<64, 256>>>(o, c, 0.5f); }
