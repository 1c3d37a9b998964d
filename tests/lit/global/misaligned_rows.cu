// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --warn-misaligned | FileCheck %s --check-prefix=WARN
// RUN: %lint %s --rules=uncoalesced-global | FileCheck %s --check-prefix=OFF --implicit-check-not=misaligned-global
// Accesses whose lanes are contiguous but whose rows start off a 32-byte
// boundary are coalesce-misaligned-global (remarks by default), with the fix
// that fits: pad the row pitch, align the base. Accesses with gaps between
// their lanes stay coalesce-uncoalesced-global.

// One warp per row of C floats: with C = 50257 each row starts 4 bytes later
// than the one before, so the warp's offset from the sectors changes.
__global__ void rows_odd(const float *inp, float *out, int C) {
  const float *x = inp + blockIdx.x * C;
  out[blockIdx.x * 32 + threadIdx.x] = x[threadIdx.x];
  // CHECK: :[[@LINE-1]]:40: remark: global load from 'inp' uses 4.875 sectors per request (ideal 4): the warp's bytes are contiguous, but their offset from the 32-byte sectors changes from one block or iteration to the next (4 to 5 sectors per request) [coalesce-misaligned-global]
  // CHECK: note: the accesses are contiguous but misaligned; the rows start where a row pitch or an offset that is not a multiple of 32 bytes puts them: padding the row pitch to a multiple of 32 bytes (a multiple of 8 elements) and starting the array on a 32-byte boundary gives 4 sectors per request (1.219x fewer)
  // WARN: :[[@LINE-3]]:40: warning: global load from 'inp' uses 4.875 sectors per request (ideal 4)
}

// A 16x16 block reading rows 33 floats apart: each warp is two rows of 64
// bytes (2 sectors each when aligned); the second starts 4 bytes off.
__global__ void two_rows(const float *m, float *out) {
  out[threadIdx.y * 16 + threadIdx.x] = m[threadIdx.y * 33 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:41: remark: global load from 'm' uses 5.75 sectors per request (ideal 4): the warp's bytes are 2 rows of contiguous bytes, each a whole number of sectors long, whose offset from the 32-byte sectors changes from one warp, block or iteration to the next (5 to 6 sectors per request) [coalesce-misaligned-global]
  // CHECK: note: the accesses are contiguous but misaligned; the rows start where a row pitch
}

// The same rows with a pitch of 40 floats: aligned, no finding.
__global__ void two_rows_padded(const float *m, float *out) {
  out[threadIdx.y * 16 + threadIdx.x] = m[threadIdx.y * 40 + threadIdx.x];
}

// A constant offset: the warp starts 4 bytes past a sector.
__global__ void shifted(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' uses 5 sectors per request (ideal 4): the warp's bytes start 4 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  // CHECK: note: the accesses are contiguous but misaligned; starting the warp on a 32-byte boundary gives 4 sectors per request (1.25x fewer)
  // WARN: :[[@LINE-3]]:12: warning: global load from 'in' uses 5 sectors per request (ideal 4){{.*}}[coalesce-misaligned-global]
  // OFF-NOT: :[[@LINE-4]]:12:
}

// Negative: lanes two floats apart are uncoalesced, not misaligned.
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i + 1];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // OFF: :[[@LINE-2]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4)
}

// Negative: rows of 24 bytes (6 floats) take a whole sector each even when
// aligned, so the excess is not misalignment alone.
__global__ void short_rows(const float *in, float *out) {
  out[threadIdx.y * 8 + threadIdx.x] = in[threadIdx.y * 64 + threadIdx.x];
  // CHECK-DAG: :[[@LINE-1]]:40: warning: global load from 'in' uses 6 sectors per request (ideal 4): the lanes' addresses are not evenly spaced [coalesce-uncoalesced-global]
  // CHECK-DAG: :[[@LINE-2]]:3: warning: global store to 'out' uses 6 sectors per request (ideal 4)
}

int main() {
  float *a, *b;
  rows_odd<<<1024, 32>>>(a, b, 50257);
  two_rows<<<64, dim3(16, 16)>>>(a, b);
  two_rows_padded<<<64, dim3(16, 16)>>>(a, b);
  shifted<<<64, 256>>>(a, b);
  strided<<<64, 256>>>(a, b);
  short_rows<<<64, dim3(6, 32)>>>(a, b);
}
