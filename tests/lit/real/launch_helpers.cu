// RUN: %lint --format=json %s | FileCheck %s
// Launch shapes and arguments computed by host helpers: the helper's
// parameters are evaluated at its call sites, struct fields from their
// aggregate initialisers, (n + 255) / 256 grids from constants.
struct Image { float *data; int width, height, pitch; };

__global__ void rows(Image img) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img.data[y * img.pitch + x] = 0.0f;
}

__global__ void flat(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void launch_rows(const Image &im) {
  dim3 block(32, 8);
  dim3 grid((im.width + 31) / 32, (im.height + 7) / 8);
  rows<<<grid, block>>>(im);
}

void launch_flat(float *p, int n, int threads) {
  flat<<<(n + threads - 1) / threads, threads>>>(p, n);
}

int main() {
  const int W = 1000, H = 64;
  float *buf;
  Image im{buf, W, H, 1024};
  launch_rows(im);
  launch_flat(buf, 5000, 128);
}
// Keys are printed in alphabetical order within each record.
// CHECK: "alignment_known": true
// CHECK: "kernel": "rows"
// CHECK: "args": {
// CHECK-DAG: "img.height": 64
// CHECK-DAG: "img.pitch": 1024
// CHECK-DAG: "img.width": 1000
// CHECK: "block": [
// CHECK-NEXT: 32,
// CHECK-NEXT: 8,
// CHECK: "grid": [
// CHECK-NEXT: 32,
// CHECK-NEXT: 8,
// CHECK: "sectors_per_request": 4
// CHECK: "kernel": "flat"
// CHECK: "args": {
// CHECK-NEXT: "n": 5000
// CHECK: "block": [
// CHECK-NEXT: 128,
// CHECK: "grid": [
// CHECK-NEXT: 40,
