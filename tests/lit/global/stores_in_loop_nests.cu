// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC --implicit-check-not=unknown
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// A loop changes what it assigns to, never the pointer it stores through:
// `out[i] = v` writes the memory `out` points to, `out` stays where it was.
// The walk once took every subscripted or dereferenced base a loop stores
// through as changed by the loop, so that in a nest with a run-time inner
// trip count the pointer was "not a fixed step per iteration" of the outer
// loop and every access through it was unknown (issue 37). Each access below
// is exact; the pointer that really moves (`out += w` in the outer loop
// only) keeps its step.

__global__ void nest(const float *a, int n, float *out) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      out[threadIdx.x] = a[threadIdx.x];
}
// REC: stores_in_loop_nests.cu:15:26: nest load global 'a' `a[threadIdx.x]` 4/4 ok
// REC: stores_in_loop_nests.cu:15:7: nest store global 'out' `out[threadIdx.x]` 4/4 ok

__global__ void three_deep(const float *a, int n, int m, float *out) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++)
      for (int k = 0; k < n; k++)
        out[threadIdx.x] = a[threadIdx.x + 1];
}
// REC: stores_in_loop_nests.cu:24:28: three_deep load global 'a' `a[threadIdx.x + 1]` 5/4 uncoalesced
// REC: stores_in_loop_nests.cu:24:9: three_deep store global 'out' `out[threadIdx.x]` 4/4 ok

__global__ void whiles(const float *a, int n, float *out) {
  int j = 0;
  while (j < n) {
    int i = 0;
    while (i < n) {
      out[2 * threadIdx.x] = a[threadIdx.x];
      ++i;
    }
    ++j;
  }
}
// REC: stores_in_loop_nests.cu:34:30: whiles load global 'a' `a[threadIdx.x]` 4/4 ok
// REC: stores_in_loop_nests.cu:34:7: whiles store global 'out' `out[2 * threadIdx.x]` 8/4 uncoalesced

// The pointer advanced in the outer loop only: a fixed step of w floats.
__global__ void advanced_outer(const float *a, int n, int w, float *out) {
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++)
      out[threadIdx.x] += a[threadIdx.x];
    out += w;
  }
}
// REC: stores_in_loop_nests.cu:47:7: advanced_outer load global 'out' `out[threadIdx.x]` 4/4 ok
// REC: stores_in_loop_nests.cu:47:27: advanced_outer load global 'a' `a[threadIdx.x]` 4/4 ok
// REC: stores_in_loop_nests.cu:47:7: advanced_outer store global 'out' `out[threadIdx.x]` 4/4 ok

// Through `->` and `*`: the struct array and the pointer stay put.
__global__ void through_arrow(float2 *s, float *p, int n) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      s[threadIdx.x].x = 1.0f;
      (s + threadIdx.x)->y = 2.0f;
      *(p + threadIdx.x) = 3.0f;
    }
}
// REC: stores_in_loop_nests.cu:59:7: through_arrow store global 's' `s[threadIdx.x].x` 8/4 uncoalesced
// REC: stores_in_loop_nests.cu:60:7: through_arrow store global 's' `(s + threadIdx.x)->y` 8/4 uncoalesced
// REC: stores_in_loop_nests.cu:61:7: through_arrow store global 'p' `*(p + threadIdx.x)` 4/4 ok

// A shared tile written in a nest stays shared memory.
__global__ void shared_tile(const float *a, int n, float *out) {
  __shared__ float tile[32][33];
  float *row = tile[threadIdx.y];
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      row[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][0];
}
// REC: stores_in_loop_nests.cu:74:26: shared_tile load global 'a' `a[threadIdx.x]` 4/4 ok
// REC: stores_in_loop_nests.cu:74:7: shared_tile store shared 'tile' `row[threadIdx.x]` 1/1 ok
// REC: stores_in_loop_nests.cu:76:22: shared_tile load shared 'tile' `tile[threadIdx.x][0]` 1/1 ok
// REC: stores_in_loop_nests.cu:76:3: shared_tile store global 'out' `out[threadIdx.x]` 4/4 ok

// Negative: a pointer to a variable of the kernel's own makes the store a
// change of that variable: `x` is left by the loop, the same on every lane
// but not known, and it spreads the lanes.
__global__ void local_via_pointer(int n, float *out) {
  int x = 0;
  int *p = &x;
  for (int j = 0; j < n; j++)
    *p += 1;
  out[threadIdx.x * x] = 1.0f;
}
// REC: stores_in_loop_nests.cu:91:3: local_via_pointer store global 'out' `out[threadIdx.x * x]` ?/? unknown
// JSON: "reason": "the distance between lanes depends on the value 'x' has after the loop at line 89, which is not known statically"

void launch(const float *a, float *out, float2 *s, int n, int m, int w) {
  nest<<<1, 32>>>(a, n, out);
  three_deep<<<1, 32>>>(a, n, m, out);
  whiles<<<1, 32>>>(a, n, out);
  advanced_outer<<<1, 32>>>(a, n, w, out);
  through_arrow<<<1, 32>>>(s, out, n);
  shared_tile<<<1, dim3(32, 32)>>>(a, n, out);
  local_via_pointer<<<1, 32>>>(n, out);
}

