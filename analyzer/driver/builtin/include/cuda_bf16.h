/* coalesce-lint built-in minimal cuda_bf16.h: the layout of __nv_bfloat16/__nv_bfloat162. */
#ifndef COALESCE_LINT_BUILTIN_CUDA_BF16_H
#define COALESCE_LINT_BUILTIN_CUDA_BF16_H
#include "cuda_runtime.h"
struct __align__(2) __nv_bfloat16 { unsigned short __x; };
struct __align__(4) __nv_bfloat162 { __nv_bfloat16 x, y; };
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float, float);
__device__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *a, __nv_bfloat162 v);
#endif
