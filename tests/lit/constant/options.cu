// RUN: %lint --min-ratio=3 %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --no-unknown --rules=constant-serialisation %s | FileCheck %s --check-prefix=ONLY --implicit-check-not=warning: --implicit-check-not=remark:
// The rule's options, the same in both front-ends: --min-ratio (MinRatio),
// --no-unknown (ReportUnknown), --rules (--checks), and its suppression
// comments.

__constant__ float cst[1024];

__global__ void k(const float *in, float *out, const int *idx) {
  int l = threadIdx.x;
  float v = cst[l / 16];
  // ONLY: :[[@LINE-1]]:13: warning: constant load from 'cst' is serialised into 2 constant-cache requests per instruction (ideal 1): the lanes read 2 different addresses [coalesce-constant-serialisation]
  v += cst[l / 8];
  // CHECK: :[[@LINE-1]]:8: warning: constant load from 'cst' is serialised into 4 constant-cache requests per instruction (ideal 1): the lanes read 4 different addresses [coalesce-constant-serialisation]
  // ONLY: :[[@LINE-2]]:8: warning: constant load from 'cst' is serialised into 4 constant-cache requests per instruction (ideal 1)
  v += cst[l]; // coalesce-lint: ignore[constant-serialisation]
  v += cst[l * 2]; // NOLINT(coalesce-constant-serialisation)
  v += cst[idx[l]];
  // CHECK: :[[@LINE-1]]:8: remark: constant load from 'cst' cannot be predicted: depends on data loaded by `idx[l]` [coalesce-constant-serialisation]
  out[l * 32] = v + in[l];
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *i, *o;
  int *x;
  k<<<64, 32>>>(i, o, x);
}
