// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Compound assignment and ++/-- read and write the same element: one load
// and one store, each with the same lane pattern.

__global__ void compound(float *a, int *cnt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] *= 2.0f;
  a[2 * i] += 1.0f;
  // The load and the store of one read-modify-write, one finding:
  // CHECK: :[[@LINE-2]]:3: warning: global load and store of 'a' each use 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  cnt[i]++;
  --cnt[i + 8];
  ++cnt[4 * i];
  // CHECK: :[[@LINE-1]]:5: warning: global load and store of 'cnt' each use 16 sectors per request (ideal 4): lanes are 16 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *a;
  int *c;
  compound<<<64, 256>>>(a, c);
}
