// RUN: %lint --format=json %s | FileCheck %s
// A loop over block sizes launches each size: one launch configuration per
// value. A loop that launches with more than 16 different arguments gives
// one configuration with what they share. Lambdas see captured variables as
// C++ does: by reference, the value when the lambda runs; by copy, the value
// when it was made. A kernel called through a function pointer is the one
// the pointer holds.

__global__ void sweep(float *p) { p[threadIdx.x * 2] = 0; }
__global__ void each(float *p, int i) { p[threadIdx.x * 2 + i] = 0; }
__global__ void by_ref(float *p) { p[threadIdx.x * 2] = 0; }
__global__ void by_copy(float *p) { p[threadIdx.x * 2] = 0; }
__global__ void pointed(float *p) { p[threadIdx.x * 2] = 0; }

int main() {
  float *p;
  const int n = 1 << 20;
  for (int b = 32; b <= 1024; b *= 2)
    sweep<<<n / b, b>>>(p);

  for (int i = 0; i < 100; ++i)
    each<<<1, 128>>>(p, i);

  int t = 64;
  auto f = [&] { by_ref<<<1, t>>>(p); };
  auto g = [t, p] { by_copy<<<1, t>>>(p); };
  t = 128;
  f();
  g();

  void (*k)(float *) = pointed;
  k<<<2, 96>>>(p);
  return 0;
}
// Keys are printed in alphabetical order within each record.
// CHECK: "kernel": "sweep"
// CHECK: "block": [
// CHECK-NEXT: 32,
// CHECK: "grid": [
// CHECK-NEXT: 32768,
// CHECK: "kernel": "sweep"
// CHECK: "block": [
// CHECK-NEXT: 64,
// CHECK: "kernel": "sweep"
// CHECK: "block": [
// CHECK-NEXT: 128,
// CHECK: "kernel": "sweep"
// CHECK: "block": [
// CHECK-NEXT: 256,
// CHECK: "kernel": "sweep"
// CHECK: "block": [
// CHECK-NEXT: 512,
// CHECK: "kernel": "sweep"
// CHECK: "block": [
// CHECK-NEXT: 1024,
// CHECK: "grid": [
// CHECK-NEXT: 1024,
// CHECK-NOT: "kernel": "sweep"
// CHECK: "kernel": "each"
// CHECK: "args": {},
// CHECK: "block": [
// CHECK-NEXT: 128,
// CHECK-NOT: "kernel": "each"
// CHECK: "kernel": "by_ref"
// CHECK: "block": [
// CHECK-NEXT: 128,
// CHECK: "kernel": "by_copy"
// CHECK: "block": [
// CHECK-NEXT: 64,
// CHECK: "kernel": "pointed"
// CHECK: "block": [
// CHECK-NEXT: 96,
// CHECK: "grid": [
// CHECK-NEXT: 2,
