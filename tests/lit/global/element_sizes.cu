// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The element size sets the ideal: a coalesced warp of char is 1 sector,
// __half 2, float 4, double 8, float4 16. Reading every other element (every
// fourth char) touches more sectors than that.
#include <cuda_fp16.h>

__global__ void sizes(const char *c, const __half *h, const double *d,
                      const float4 *f, char *oc, __half *oh, double *od,
                      float4 *of) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  oc[i] = c[i];
  oc[i] = c[4 * i];
  // CHECK: :[[@LINE-1]]:11: warning: global load from 'c' uses 4 sectors per request (ideal 1): lanes are 4 bytes apart [coalesce-uncoalesced-global]
  oh[i] = h[i];
  oh[i] = h[2 * i];
  // CHECK: :[[@LINE-1]]:11: warning: global load from 'h' uses 4 sectors per request (ideal 2): lanes are 4 bytes apart [coalesce-uncoalesced-global]
  od[i] = d[i];
  od[i] = d[2 * i];
  // CHECK: :[[@LINE-1]]:11: warning: global load from 'd' uses 16 sectors per request (ideal 8): lanes are 16 bytes apart [coalesce-uncoalesced-global]
  of[i] = f[i];
  of[i] = f[2 * i];
  // CHECK: :[[@LINE-1]]:11: warning: global load from 'f' uses 32 sectors per request (ideal 16): lanes are 32 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  char *c, *oc;
  __half *h, *oh;
  double *d, *od;
  float4 *f, *of;
  sizes<<<64, 256>>>(c, h, d, f, oc, oh, od, of);
}
