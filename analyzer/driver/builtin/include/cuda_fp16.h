/* coalesce-lint built-in minimal cuda_fp16.h: the layout of __half/__half2. */
#ifndef COALESCE_LINT_BUILTIN_CUDA_FP16_H
#define COALESCE_LINT_BUILTIN_CUDA_FP16_H
#include "cuda_runtime.h"
struct __align__(2) __half { unsigned short __x; };
struct __align__(4) __half2 { __half x, y; };
typedef __half half;
typedef __half2 half2;
__host__ __device__ __half __float2half(float);
__device__ unsigned short __half_as_ushort(__half);
__device__ __half __ushort_as_half(unsigned short);
__host__ __device__ float __half2float(__half);
__device__ __half __hadd(__half, __half);
__device__ __half __hmul(__half, __half);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__device__ __half2 atomicAdd(__half2 *a, __half2 v);
#endif
