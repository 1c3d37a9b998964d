// RUN: %lint %s -- -isystem %S/Inputs/sys | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s -- -isystem %S/Inputs/sys | %records \
// RUN:   | FileCheck %s --check-prefix=REC --implicit-check-not=vendor_half \
// RUN:   --implicit-check-not=' load ' --implicit-check-not=' store '
// Accesses made inside a system header (Inputs/sys/vendor_half.h, a
// toolkit-like 16-bit float type) are reported at the user's code that leads
// to them: at the argument the header reads through (a reference, a pointer,
// the object of a method), with the user's context, once per access, in the
// space of what the user's expression names. The header's copies between its
// own locals (`VH_CBITS(a)`, `*this` of a local) issue no memory instruction
// and are not reported; nothing is reported inside the header.

#include <vendor_half.h>

// The user's own helper: its reads of `h` are its lines, in its context.
__device__ float twice(const vhalf &h) { return (float)h + (float)h; }

__global__ void halves(vhalf *a, const vhalf *b, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  vhalf x = b[i];
  // REC: [[#@LINE-1]]:13: halves load global 'b' `b[i]` 2/2 ok{{$}}
  vhalf y = b[i] + b[i + 1];
  // REC-NEXT: [[#@LINE-1]]:13: halves load global 'b' `b[i]` 2/2 ok{{$}}
  // REC-NEXT: [[#@LINE-2]]:20: halves load global 'b' `b[i + 1]` 3/2 uncoalesced{{$}}
  // CHECK: :[[@LINE-3]]:20: remark: global load from 'b' uses 3 sectors per request (ideal 2)
  a[i] = x + y;
  // REC-NEXT: [[#@LINE-1]]:3: halves store global 'a' `a[i]` 2/2 ok{{$}}
  a[2 * i] = b[i];
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'a' uses 4 sectors per request (ideal 2)
  // REC-NEXT: [[#@LINE-2]]:14: halves load global 'b' `b[i]` 2/2 ok{{$}}
  // REC-NEXT: [[#@LINE-3]]:3: halves store global 'a' `a[2 * i]` 4/2 uncoalesced{{$}}
  a[i + 32] = std::move(x);
  // REC-NEXT: [[#@LINE-1]]:3: halves store global 'a' `a[i + 32]` 2/2 ok{{$}}
  f[i] = (float)b[i] + vh_to_float(x);
  // REC-NEXT: [[#@LINE-1]]:17: halves load global 'b' `b[i]` 2/2 ok{{$}}
  // REC-NEXT: [[#@LINE-2]]:3: halves store global 'f' `f[i]` 4/4 ok{{$}}
  a[i + 64] = 1.0f;
  // REC-NEXT: [[#@LINE-1]]:3: halves store global 'a' `a[i + 64]` 2/2 ok{{$}}
  f[i + 32] = vh_load_strided(b, i);
  // CHECK: :[[@LINE-1]]:31: warning: global load from 'b' uses 4 sectors per request (ideal 2)
  // REC-NEXT: [[#@LINE-2]]:31: halves load global 'b' `b` 4/2 uncoalesced{{$}}
  // REC-NEXT: [[#@LINE-3]]:3: halves store global 'f' `f[i + 32]` 4/4 ok{{$}}
  vh_store(&a[i * 16], 2.0f);
  // CHECK: :[[@LINE-1]]:12: warning: global store to 'a' uses 32 sectors per request (ideal 2)
  // REC-NEXT: [[#@LINE-2]]:12: halves store global 'a' `&a[i * 16]` 32/2 uncoalesced{{$}}
  f[i + 64] = twice(b[i]);
  // REC-NEXT: 16:56: halves load global 'b' `h` 2/2 ok [in 'twice' called at system_headers.cu:[[#@LINE-1]]]{{$}}
  // REC-NEXT: 16:67: halves load global 'b' `h` 2/2 ok [in 'twice' called at system_headers.cu:[[#@LINE-2]]]{{$}}
  // REC-NEXT: [[#@LINE-3]]:3: halves store global 'f' `f[i + 64]` 4/4 ok{{$}}
}

// The space follows the declaration of what the user's expression names.
__global__ void shared_halves(float *out, const vhalf *in) {
  __shared__ vhalf s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  // REC-NEXT: [[#@LINE-1]]:10: shared_halves load global 'in' `in[blockIdx.x * 256 + t]` 2/2 ok{{$}}
  // REC-NEXT: [[#@LINE-2]]:3: shared_halves store shared 's' `s[t]` 1/1 ok{{$}}
  __syncthreads();
  out[t] = (float)(s[t] + s[2 * t % 256]);
  // REC-NEXT: [[#@LINE-1]]:20: shared_halves load shared 's' `s[t]` 1/1 ok{{$}}
  // REC-NEXT: [[#@LINE-2]]:27: shared_halves load shared 's' `s[2 * t % 256]` 1/1 ok{{$}}
  // REC-NEXT: [[#@LINE-3]]:3: shared_halves store global 'out' `out[t]` 4/4 ok{{$}}
}

int main() {
  vhalf *a;
  float *f;
  halves<<<64, 256>>>(a, a, f, 1 << 14);
  shared_halves<<<64, 256>>>(f, a);
}
