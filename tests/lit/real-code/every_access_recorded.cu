// Every memory access of an analysed kernel has a record (issue 11): the
// analysis lists the accesses the source spells (subscripts, `*`, `->`,
// `->*`, struct copies, in the kernel and the functions it calls) and checks
// each against what the interpreter reached. An access the interpreter
// evaluated without knowing its memory becomes unknown with that reason; an
// access on a path no lane takes (a branch that is false on every lane of
// the launch) has no record, as no warp executes it.
// EXPECT-UNEVALUATED: 1
// RUN: %lint %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
struct Pair { float a, b; };

// CHECK-DAG: :[[@LINE+1]]:59: remark: global load from 'p->*m' cannot be predicted: the analysis did not evaluate this access: it evaluated `p->*m` without knowing which memory it names
__device__ float member(Pair *p, float Pair::*m) { return p->*m; }

__global__ void k(float *out, const float *in, Pair *pairs, float Pair::*m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  // An input operand of inline assembly is a load.
  // CHECK-DAG: :[[@LINE+1]]:54: warning: global load from 'in' uses 8 sectors per request (ideal 4)
  asm volatile("add.f32 %0, %0, %1;" : "+f"(s) : "f"(in[2 * i]));
  s += member(pairs + i, m);
  // False on every lane of a 128-thread block: no record.
  if (threadIdx.x >= 128)
    out[i * 32] = in[i * 64];
  out[i] = s;
}
void launch(float *o, const float *i, Pair *p) { k<<<8, 128>>>(o, i, p, &Pair::b); }
