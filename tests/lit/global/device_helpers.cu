// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// __device__ helpers are entered with their arguments bound: pointer
// parameters carry the caller's offsets, references alias the caller's
// element, returned pointers keep their region. An access in a helper is
// reported at the helper's line once per calling context, except in a helper
// that only dereferences the pointer or reference it is given (read_ref,
// store_ref): there the caller's argument chose the address, and the finding
// is shown at it, with a note at the helper's line (in JSON, `shown_at`).

__device__ float load_at(const float *p, int k) {
  return p[k];
  // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: in 'load_at' called at device_helpers.cu:[[#@LINE+20]];
}

__device__ float read_ref(const float &src) {
  return src;
}

__device__ void store_ref(float &dst, float v) {
  dst = v;
}

__device__ const float *row_of(const float *base, int r) {
  return base + r * 1024;
}

__global__ void helpers(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // (Assignments, not initialisations: see device_helper_init.cu.)
  float a, b, c, d;
  a = load_at(in, i);
  b = load_at(in, 2 * i);
  c = read_ref(in[3 * i]);
  // CHECK: :[[@LINE-1]]:16: warning: global load from 'in' uses 12 sectors per request (ideal 4): lanes are 12 bytes apart [coalesce-uncoalesced-global]
  // CHECK: device_helpers.cu:[[#@LINE-19]]:10: note: the access is in 'read_ref', which only dereferences what it is given; shown at the argument that chooses the address
  store_ref(out[i], a + b);
  store_ref(out[4 * i], c);
  // CHECK: :[[@LINE-1]]:13: warning: global store to 'out' uses 16 sectors per request (ideal 4): lanes are 16 bytes apart [coalesce-uncoalesced-global]
  // CHECK: device_helpers.cu:[[#@LINE-19]]:3: note: the access is in 'store_ref', which only dereferences what it is given; shown at the argument that chooses the address
  d = row_of(in, i)[0];
  // CHECK: :[[@LINE-1]]:7: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart [coalesce-uncoalesced-global]
  out[i] = d;
}

int main() {
  float *a, *b;
  helpers<<<64, 256>>>(a, b);
}
