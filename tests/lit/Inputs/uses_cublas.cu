// Its kernel uses a type that only a CUDA toolkit's cuBLAS header declares.
#include <cublas_v2.h>

__global__ void scale_rows(cublasHandle_t h, float *p) { p[threadIdx.x] = 0; }
