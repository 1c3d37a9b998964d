// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// 8- and 16-bit shared elements: lanes that touch the same 4-byte word share
// it. Consecutive chars (8 words) or shorts (16 words) are conflict-free, as
// is one char or short per word; 8 bytes apart is 2 words per bank (2-way);
// 128 bytes apart puts every lane in bank 0 (32-way).

__global__ void narrow(unsigned char *oc, short *os) {
  __shared__ unsigned char c[4096];
  __shared__ short h[2048];
  int t = threadIdx.x;
  c[t] = t;
  h[t] = t;
  __syncthreads();
  unsigned char a = c[t];
  a += c[4 * t];
  a += c[8 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'c' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  a += c[128 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'c' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  short b = h[t];
  b += h[2 * t];
  b += h[4 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'h' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  b += h[64 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'h' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  oc[t] = a;
  os[t] = b;
}

int main() {
  unsigned char *oc;
  short *os;
  narrow<<<1, 32>>>(oc, os);
}
