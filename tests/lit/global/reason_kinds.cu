// Reasons and assumptions are typed: the JSON carries each one's kind
// (docs/reasons.md) beside its text, and the text names what the analysis
// made up in the user's terms (a loop's iteration counter by its loop and
// the variables it steps, never an internal name such as 'k@L8').
// RUN: %lint --format=json %s | FileCheck %s
// UNSUPPORTED: tidy

__global__ void kinds(const float *in, const int *idx, float *out, int n, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < n; j += step)
    s += in[i + j];
  // CHECK-LABEL: "accesses"
  // CHECK: "assumption_kinds": [
  // CHECK-NEXT: "alignment-of-symbols"
  // CHECK-NEXT: ],
  // CHECK-NEXT: "assumptions": [
  // CHECK-NEXT: "assuming 'step' and the iteration of the loop at line 11 (which steps 'j') keep the 32-byte alignment of the address; otherwise 4 to 5 sectors"
  // CHECK: "expression": "in[i + j]",
  // CHECK: "reason": "",
  // CHECK-NEXT: "reason_cause": null,
  // CHECK-NEXT: "reason_kind": null,
  s += in[idx[i]];
  // CHECK: "expression": "idx[i]",
  // CHECK: "expression": "in[idx[i]]",
  // CHECK: "reason": "depends on data loaded by `idx[i]`",
  // CHECK-NEXT: "reason_cause": "loaded-data",
  // CHECK-NEXT: "reason_kind": "loaded-data",
  if (in[i] > 0.5f)
    out[i] = s;
  // CHECK: "expression": "in[i]",
  // CHECK: "expression": "out[i]",
  // CHECK: "reason": "which lanes are active depends on `in[i] > 0.5f` (line 29): the condition depends on floating-point or other data; with all lanes active it would be 4 sectors per request",
  // CHECK-NEXT: "reason_cause": "condition-on-data",
  // CHECK-NEXT: "reason_kind": "active-lanes-on-data",
  if (i < n)
    out[i + 1] = s;
  // CHECK: "assumption_kinds": [
  // CHECK-NEXT: "interior-guard",
  // CHECK-NEXT: "allocation-start"
  // CHECK-NEXT: ],
  // CHECK-NEXT: "assumptions": [
  // CHECK-NEXT: "assuming `i < n` is true on every lane of interior warps (line 36)",
  // CHECK-NEXT: "assuming 'out' points to the start of a cudaMalloc allocation (256-byte aligned)"
  // CHECK: "expression": "out[i + 1]",
}

void launch(const float *in, const int *idx, float *out, int n, int step) {
  kinds<<<64, 256>>>(in, idx, out, n, step);
}
