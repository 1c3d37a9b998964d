// RUN: %lint --format=json %s | %records | grep -v negatives | FileCheck %s --implicit-check-not=unknown
// RUN: %lint --format=json %s | %records | grep negatives | FileCheck %s --check-prefix=NEG
// Issue 38: a method called on a temporary object (CUTLASS's
// `ref.stride()[0]`, the stride returned by value), the array of a by-value
// kernel parameter struct copied into a local object (Coord<2> extent), a
// condition on a float that is the same on every lane (CUTLASS's
// `beta != 0` in is_source_needed()), and a pointer compared with nullptr
// (not null, as `if (p)` has always been taken).

struct Stride {
  int s[2];
  __device__ int operator[](int i) const { return s[i]; }
};
struct Layout {
  Stride st;
  __device__ Stride stride() const { return st; }
};
struct Extent { int idx[2]; };
struct Box {
  Extent e;
  __device__ explicit Box(Extent x) : e(x) {}
  __device__ int rows() const { return e.idx[0]; }
};

__global__ void temporaries(float *out, Extent ext, float beta, const float *alpha) {
  Layout l;
  l.st.s[0] = 2;
  l.st.s[1] = 64;
  // The stride of a temporary, read through its operator[].
  out[threadIdx.x * l.stride()[0]] = 1.0f;
  // CHECK: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:3: temporaries store global 'out' `out[threadIdx.x * l.stride()[0]]` 8/4 uncoalesced
  // A kernel parameter's array, copied into a local object: a parameter of
  // its own (`ext.idx[0]`), the same on every lane.
  Box b(ext);
  out[b.rows() + threadIdx.x] = 2.0f;
  // CHECK: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:3: temporaries store global 'out' `out[b.rows() + threadIdx.x]` 4/4 ok
  float a = 0.0f;
  if (alpha != nullptr)
    a = *alpha;
  // CHECK: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:9: temporaries load global 'alpha' `*alpha` 1/1 ok
  if (beta != 0.0f)
    a += out[threadIdx.x * 4];
  // CHECK: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:10: temporaries load global 'out' `out[threadIdx.x * 4]` 16/4 uncoalesced
  out[threadIdx.x] = a;
  // CHECK: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:3: temporaries store global 'out' `out[threadIdx.x]` 4/4 ok
}

struct Holder {
  float f;
};

// A float that differs between lanes decides per lane: not known which.
__global__ void negatives(float *out, const float *in) {
  const float t = threadIdx.x * 0.5f;
  if (t > 3.0f)
    out[threadIdx.x] = 1.0f;
  // NEG: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:5: negatives store global 'out' `out[threadIdx.x]` ?/? unknown
  const float v = in[threadIdx.x];
  // NEG: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:19: negatives load global 'in' `in[threadIdx.x]` 4/4 ok
  if (v != 0.0f)
    out[threadIdx.x + 32] = 2.0f;
  // NEG: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:5: negatives store global 'out' `out[threadIdx.x + 32]` ?/? unknown
  // A field set to one of two uniform floats by a branch that lanes take
  // differently: not the same on every lane.
  Holder h;
  h.f = in[0];
  if (threadIdx.x < 16)
    h.f = 2.0f;
  if (h.f > 1.0f)
    out[threadIdx.x + 64] = 3.0f;
  // NEG: temporaries_params_and_float_conditions.cu:[[@LINE-1]]:5: negatives store global 'out' `out[threadIdx.x + 64]` ?/? unknown
}

int main(int argc, char **) {
  float *o, *a;
  Extent e = {{argc, argc}};
  temporaries<<<1, 32>>>(o, e, 0.5f, a);
  negatives<<<1, 32>>>(o, a);
}
