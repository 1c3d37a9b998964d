// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A contiguous warp that does not start on a 32-byte boundary straddles one
// extra sector: in[i + 1] on floats is 5 sectors, not 4. Offsets that are a
// multiple of 32 bytes are silent.

__global__ void shift(const float *in, float *out, const double *d, double *dout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i + 1];
  // CHECK: :[[@LINE-1]]:13: remark: global load from 'in' uses 5 sectors per request (ideal 4): the warp's bytes start 4 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  // CHECK: note: the accesses are contiguous but misaligned; starting the warp on a 32-byte boundary gives 4 sectors per request (1.25x fewer)
  float b = in[i + 8];
  float c = in[i + 31];
  // CHECK: :[[@LINE-1]]:13: remark: global load from 'in' uses 5 sectors per request (ideal 4): the warp's bytes start 28 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  out[i + 3] = a + b + c;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' uses 5 sectors per request (ideal 4): the warp's bytes start 12 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  dout[i] = d[i + 1];
  // CHECK: :[[@LINE-1]]:13: remark: global load from 'd' uses 9 sectors per request (ideal 8): the warp's bytes start 8 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
  dout[i] = d[i + 4];
}

int main() {
  float *a, *b;
  double *c, *e;
  shift<<<64, 256>>>(a, b, c, e);
}
