// A string literal followed by a macro without a space, as C++03 code and
// code for nvcc (whose host compiler only warns) write it: clang makes it an
// error in C++11 and later, which silenced the kernel. The nvcc
// compatibility flags expand the macro as C++03 did (docs/nvcc-compat.md).
// RUN: %lint %s 2>&1 | FileCheck %s --check-prefix=COMPAT --implicit-check-not=error: --implicit-check-not=remark:
// RUN: %expect-exit 2 %lint --no-nvcc-compat %s 2>&1 | FileCheck %s --check-prefix=CLANG
// UNSUPPORTED: tidy
#define NODE_FMT "%d"

__global__ void walk(float *out, const int *nodes) {
  // CLANG-DAG: :[[@LINE+1]]:39: error: invalid suffix on literal; C++11 requires a space between literal and identifier
  if (threadIdx.x == 0) printf("node "NODE_FMT"\n", nodes[0]);
  // COMPAT: :[[@LINE+1]]:3: warning: global store to 'out' uses 8 sectors per request (ideal 4)
  out[threadIdx.x * 2] = 1;
}
// CLANG-DAG: note: kernel 'walk' is not analysed: clang reports an error in its code
// COMPAT: coalesce-lint: 2 accesses in 1 kernel: 1 warning (1 uncoalesced-global), 0 remarks
