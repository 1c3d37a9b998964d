// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --assume=C=768 --assume=a=2 --assume=b=3 --block=narrow=4,8,1 \
// RUN:   | FileCheck %s --check-prefix=STATED --implicit-check-not=remark:
// RUN: %lint %s --format=json | FileCheck %s --check-prefix=JSON
// RUN: %if !tidy %{ %lint %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SUM %}
// An unknown that a value the user knows would settle names the option that
// states it, in a note and in the JSON (`settle`); the summary counts them.

__global__ void per_row(const int *inp, float *out, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int row = idx / C;
  out[idx] = inp[row];
  // CHECK: :[[@LINE-1]]:14: remark: global load from 'inp' cannot be predicted: '/' of values that differ between lanes and depend on a value not known here, so its result for each lane is not known; it depends on the value of 'C', which --assume C=VALUE may settle
  // CHECK: note: no launch in this file makes the value known: state it with `--assume C=VALUE` to get a number
  // JSON: "expression": "inp[row]",
  // JSON: "settle": [
  // JSON-NEXT: "--assume C=VALUE"
  // JSON-NEXT: ],
}

__global__ void two_strides(const float *in, float *out, int a, int b) {
  int i = threadIdx.x;
  out[i] = in[i * a * b];
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' cannot be predicted: the distance between lanes depends on 'a' and 'b', which are not known statically
  // CHECK: note: no launch in this file makes the values known: state it with `--assume a=VALUE` and `--assume b=VALUE`
  // STATED: :[[@LINE-3]]:12: warning: global load from 'in' uses 24 sectors per request (ideal 4): lanes are 24 bytes apart
}

__global__ void narrow(float *p) { p[threadIdx.y * 64 + threadIdx.x] = 1; }
// CHECK: :[[@LINE-1]]:36: remark: global store to 'p' cannot be predicted: which threads share a warp is not known: the block shape is (4, ?, 1), and a warp spans the unknown y
// CHECK: note: the block shape of the launch is not known statically: state it with {{`--block=narrow=X,Y,Z`|the check option Block=narrow=X,Y,Z}} to get a number
// STATED: :[[@LINE-3]]:36: warning: global store to 'p' uses 8 sectors per request (ideal 4)

// Negative: data loaded from memory is nothing a user states; no note.
__global__ void gather(const int *idx, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' cannot be predicted: depends on data loaded by `idx[i]`
  // CHECK-NOT: state it with
  // SUM: coalesce-lint: {{.*}}4 remarks (3 of them unknowns that a stated value may settle: see their notes for the --assume or --block)
  // STATED: :[[@LINE-4]]:12: remark: global load from 'in' cannot be predicted: depends on data loaded by `idx[i]`
  // JSON: "expression": "in[idx[i]]",
  // JSON: "settle": [],
}

int main(int argc, char **argv) {
  float *a, *b;
  int *c;
  per_row<<<64, 256>>>(c, a, argc);
  two_strides<<<64, 256>>>(a, b, argc, argc + 1);
  narrow<<<64, dim3(4, argc, 1)>>>(a);
  gather<<<64, 256>>>(c, a, b);
}
