// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A launch that passes a pointer to a data member (&Pair::b): the host
// walk asked eval() and lvalue() of `Pair::b` for each other, without end
// (the clang-tidy plugin crashed; the CLI lost the launch's shape).
struct Pair { float a, b; };
__global__ void pick(float *out, const Pair *in, float Pair::*m) {
  out[threadIdx.x] = in[threadIdx.x * 2].a;
}
// CHECK: :[[@LINE-2]]:22: warning: global load from 'in' uses 16 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (64, 1, 1) from the launch at member_pointer_arg.cu:[[#@LINE+1]];
void launch(float *o, const Pair *p) { pick<<<8, 64>>>(o, p, &Pair::b); }
