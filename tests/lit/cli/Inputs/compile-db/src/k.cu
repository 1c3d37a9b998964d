// A file that parses only with its build's flags: BLOCK from inc/cfg.h (found
// through -I), STRIDE from -D, and the -Xcompiler macro.
#include "cfg.h"
#ifndef FROM_XCOMPILER
#error "-Xcompiler=-DFROM_XCOMPILER was not forwarded"
#endif
__global__ void strided(float *a) { a[threadIdx.x * STRIDE] = 1.0f; }
void launch(float *a) { strided<<<1, BLOCK>>>(a); }
