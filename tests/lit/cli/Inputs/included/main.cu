// The translation unit: it defines the types its kernel file uses, then
// includes that file (an older code base's way of splitting kernels out).
struct params { int n; float scale; };
typedef float real;
#include "kernels/scale_kernel.cu"

void run(real *p, params q) { scale<<<4, 256>>>(p, q); }
