// RUN: %lint --format=json %s | %records | FileCheck %s
// The fields of a local struct that a loop changes are loop-carried values
// like variables: a field stepped by a fixed amount (`s.x += 32`, an
// iterator's pointer advanced by a method) is an induction variable; one
// changed otherwise is not known in the loop nor after it. They were once
// left at the value of the one iteration the walk runs, which gave the
// cost of the first iteration to every iteration (4/4 for `out[s.x]` with
// s.x doubling: wrong).

struct P { int x, y; };

__global__ void doubling(float *out, int n) {
  P s;
  s.x = threadIdx.x;
  s.y = 0;
  for (int i = 0; i < n; ++i) {
    out[s.x] = 1.0f;
    // CHECK-DAG: struct_fields_in_loops.cu:[[@LINE-1]]:5: doubling store global 'out' `out[s.x]` ?/? unknown
    s.x = s.x * 2;
  }
  out[s.x + 1] = 2.0f;
  // CHECK-DAG: struct_fields_in_loops.cu:[[@LINE-1]]:3: doubling store global 'out' `out[s.x + 1]` ?/? unknown
}

__global__ void stepped(float *out, int n) {
  P s = {(int)threadIdx.x, 0};
  for (int i = 0; i < n; ++i) {
    out[s.x] = 1.0f;
    // CHECK-DAG: struct_fields_in_loops.cu:[[@LINE-1]]:5: stepped store global 'out' `out[s.x]` 4/4 ok
    s.x += 32;
  }
}

// An iterator advanced by a method: its pointer moves 32 floats a step.
struct Iter {
  const float *p;
  __device__ void advance() { p += 32; }
  __device__ float get() const { return p[threadIdx.x]; }
};

__global__ void iterate(const float *in, float *out, int n) {
  Iter it = {in};
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) {
    acc += it.get();
    // CHECK-DAG: struct_fields_in_loops.cu:38:41: iterate load global 'in' `p[threadIdx.x]` 4/4 ok [in 'get' called at struct_fields_in_loops.cu:[[@LINE-1]]]
    it.advance();
  }
  out[threadIdx.x] = acc;
}

void launch(const float *in, float *out, int n) {
  doubling<<<1, 32>>>(out, n);
  stepped<<<1, 32>>>(out, n);
  iterate<<<1, 32>>>(in, out, n);
}
