// The CLI's own suppression comments (coalesce-lint, a colon, ignore and an
// optional rule list in brackets) silence findings in the plugin as in the
// CLI, with the same rule lists (`coalesce-` optional, globs and `-`
// exclusions); nolint.cu has clang-tidy's NOLINT forms, which both honour too.
//
// RUN: %tidy %s -- %cuda-flags \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:

__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i]; // coalesce-lint: ignore
  out[i] = in[3 * i]; // coalesce-lint: ignore[uncoalesced-global]
  out[i] = in[4 * i]; // coalesce-lint: ignore[coalesce-uncoalesced-global]
  out[i] = in[5 * i]; // coalesce-lint: ignore[coalesce-*]

  // Another rule, or this one excluded: reported.
  out[i] = in[6 * i]; // coalesce-lint: ignore[shared-bank-conflict]
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 24 sectors per request (ideal 4): lanes are 24 bytes apart [coalesce-uncoalesced-global]
  out[i] = in[7 * i]; // coalesce-lint: ignore[*, -uncoalesced-global]
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 28 sectors per request (ideal 4)
  // Not the keyword.
  out[i] = in[8 * i]; // coalesce-lint: ignored
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 32 sectors per request (ideal 4)
}

__global__ void columns() {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = 1.0f; // coalesce-lint: ignore[shared-bank-conflict]
  tile[threadIdx.x][5] = 2.0f; // coalesce-lint: ignore[uncoalesced-global]
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

int main() {
  float *a, *b;
  strided<<<64, 256>>>(a, b);
  columns<<<1, 32>>>();
}
