// NOLINT comments silence the plugin's findings, per check, like any
// clang-tidy check. The CLI honours the same comments
// (tools/output/Suppressions.h): both report the same two findings. Both
// honour the CLI's own form too (ignore.cu).
//
// RUN: %tidy %s -- %cuda-flags \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:

__global__ void stride2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i]; // NOLINT(coalesce-uncoalesced-global)
  out[i] = in[2 * i + 1]; // NOLINT(coalesce-*)
  out[i] = in[4 * i]; // NOLINT
  // NOLINTNEXTLINE(coalesce-uncoalesced-global)
  out[i] = in[8 * i];

  // A NOLINT for another check does not silence this one.
  out[i] = in[3 * i]; // NOLINT(coalesce-shared-bank-conflict)
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 12 sectors per request (ideal 4): lanes are 12 bytes apart [coalesce-uncoalesced-global]

  // NOLINTBEGIN(coalesce-uncoalesced-global)
  out[i] = in[5 * i];
  out[i] = in[6 * i];
  // NOLINTEND(coalesce-uncoalesced-global)
}

__global__ void columns() {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = 1.0f; // NOLINT(coalesce-shared-bank-conflict)
  tile[threadIdx.x][5] = 2.0f; // NOLINT(coalesce-uncoalesced-global)
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

int main() {
  float *a, *b;
  stride2<<<64, 256>>>(a, b);
  columns<<<1, 32>>>();
}
