// RUN: %lint %s | FileCheck %s
// An index that is unknown because of arithmetic on a kernel parameter's
// unknown value says which parameter, and the --assume that may settle it
// (issue 33: llm.c's encoder, `idx / C`, 142 such remarks in llm.c).
__global__ void enc(float *out, const int *inp, const float *wte, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * T * C) {
    int bt = idx / C;
    int b = bt / T;
    int t = bt % T;
    int ix = inp[b * T + t];
    // CHECK: unknown_hints.cu:[[@LINE-1]]:14: remark: global load from 'inp' cannot be predicted: '/' of values that differ between lanes and depend on a value not known here, so its result for each lane is not known; it depends on the value of 'C', which --assume C=VALUE may settle
    out[idx] = wte[ix * C + idx % C];
  }
}

// Not a parameter: a value loaded from memory. No hint.
__global__ void loaded(float *out, const int *div) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int d = div[0];
  out[i / d] = 1.0f;
  // CHECK: unknown_hints.cu:[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted
  // CHECK-NOT: --assume
}

void go(float *o, const int *i, const float *w, int B, int T, int C) {
  enc<<<(B * T * C + 255) / 256, 256>>>(o, i, w, B, T, C);
  loaded<<<64, 256>>>(o, i);
}
