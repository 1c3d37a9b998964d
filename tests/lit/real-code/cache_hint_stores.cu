// Cache-hinted stores on 16-bit float and vector types (llm.c style): clang
// 22 has no __stcs/__stcg, nvcc has them for every type. With the nvcc
// compatibility header they are plain stores to the same address, so the
// analysis sees them: float4 stores are 128-bit, 16 sectors per request;
// bf16 stores 2 bytes per lane, 2 sectors. Needs the toolkit's cuda_bf16.h.
// REQUIRES: cuda-toolkit
// RUN: %coalesce-lint-bin --cuda-path=/usr/local/cuda --color=never --exit-zero --format=json %s | FileCheck %s
// UNSUPPORTED: tidy
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void store_hints(__nv_bfloat16 *out, float4 *out4, const float4 *in4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcs(out + i, __float2bfloat16(1.0f));
  __stcg(out4 + i, in4[i]);
}
void launch(__nv_bfloat16 *o, float4 *o4, const float4 *i4) { store_hints<<<64, 256>>>(o, o4, i4); }
// CHECK-DAG: "expression": "__stcs(out + i, __float2bfloat16(1.0f))"
// CHECK-DAG: "sectors_per_request": 2,
// CHECK-DAG: "expression": "__stcg(out4 + i, in4[i])"
// CHECK-DAG: "sectors_per_request": 16,
// CHECK-DAG: "not_analysed": null
