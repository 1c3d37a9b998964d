/* Built-in minimal cuda_pipeline.h for coalesce-lint (no CUDA toolkit
   needed): the pipeline primitives of cuda_pipeline_primitives.h, as the
   toolkit's header writes them for sm_80 and later: a copy of 4 or 8 bytes is
   cp.async.ca, a copy of 16 bytes cp.async.cg; zfill bytes are not read. */
#ifndef COALESCE_BUILTIN_CUDA_PIPELINE_H
#define COALESCE_BUILTIN_CUDA_PIPELINE_H

#include "cuda_runtime.h"

static __device__ inline void __pipeline_memcpy_async(void *dst, const void *src,
                                                      size_t size_and_align, size_t zfill = 0) {
  const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  const unsigned read = (unsigned)(size_and_align - zfill);
  switch (size_and_align) {
  case 4:
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(src), "r"(read)
                 : "memory");
    return;
  case 8:
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(d), "l"(src), "r"(read)
                 : "memory");
    return;
  case 16:
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(read)
                 : "memory");
    return;
  default:
    return;
  }
}
static __device__ inline void __pipeline_commit() { asm volatile("cp.async.commit_group;"); }
static __device__ inline void __pipeline_wait_prior(size_t prior) {
  (void)prior;
  asm volatile("cp.async.wait_all;");
}

#endif
