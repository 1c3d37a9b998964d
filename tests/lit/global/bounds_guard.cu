// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A bounds guard `if (i < n)` with an unknown n is taken as true for every
// lane of interior warps, and the note says so.

__global__ void guarded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    float w = in[2 * i];
    // CHECK: :[[@LINE-1]]:15: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
    // CHECK: note: assuming blockDim = (256, 1, 1) from the launch at bounds_guard.cu:{{[0-9]+}}; assuming `i < n`{{.*}}(line [[#@LINE-4]])
    out[i] = v + w;
  }
}

int main(int argc, char **argv) {
  float *a, *b;
  guarded<<<64, 256>>>(a, b, argc);
}
