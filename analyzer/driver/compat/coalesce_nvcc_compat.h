/* coalesce_nvcc_compat.h - what nvcc gives CUDA code that clang does not.
 *
 * Included before every file coalesce-lint parses (after the CUDA runtime
 * header), unless --no-nvcc-compat. Code written for nvcc relies on these;
 * without them clang rejects it. Each section says what nvcc does; the list
 * of differences, and the ones this header does not paper over, is
 * docs/nvcc-compat.md. Nothing here changes the meaning of device code that
 * clang accepts: it only declares what would otherwise be missing.
 */
#ifndef COALESCE_NVCC_COMPAT_H
#define COALESCE_NVCC_COMPAT_H
/* A toolkit-like header: its code is not the user's (no warnings in it; the
 * analysis does not list its accesses as the user's, ast/AccessSites.h). */
#pragma clang system_header
#if defined(__cplusplus) && defined(__CUDA__)

/* 1. Host headers. nvcc's cuda_runtime.h includes, through
 * crt/common_functions.h and crt/math_functions.h, <string.h>, <time.h>,
 * <stdio.h>, <stdlib.h>, <assert.h> and <math.h>; code calls clock(),
 * printf(), assert() or an unqualified isfinite() without including them.
 * Clang's CUDA wrapper includes only <cmath>. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 4. (also below) Runtime functions removed from CUDA (deprecated since
 * CUDA 4, gone in CUDA 13) that old code still calls. */
static inline __host__ cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline __host__ cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

#ifndef __COALESCE_LINT_BUILTIN_CUDA__
/* 2. min and max on the host. CUDA's math_functions.hpp declares them
 * __host__ __device__ for nvcc; clang's wrapper declares them __device__
 * only, so host code calling an unqualified min/max does not compile.
 * Host-only templates: device code still calls CUDA's exact overloads. */
template <class __CoalesceA, class __CoalesceB>
static inline __host__ auto min(__CoalesceA __a, __CoalesceB __b) -> decltype(__a < __b ? __a : __b) {
  return __b < __a ? __b : __a;
}
template <class __CoalesceA, class __CoalesceB>
static inline __host__ auto max(__CoalesceA __a, __CoalesceB __b) -> decltype(__a < __b ? __a : __b) {
  return __a < __b ? __b : __a;
}

/* 3. Cache-hinted stores (sm_32_intrinsics.h). Clang defines the
 * cache-hinted loads itself but not __stcs, __stcg and __stwb, which nvcc
 * has for every scalar, vector and 16-bit float type. A hinted store is a
 * store to the same address (STG with a cache hint): the same sectors. */
template <class __CoalesceT, class __CoalesceV>
static __device__ __forceinline__ void __stcs(__CoalesceT *__p, __CoalesceV __v) { *__p = __v; }
template <class __CoalesceT, class __CoalesceV>
static __device__ __forceinline__ void __stcg(__CoalesceT *__p, __CoalesceV __v) { *__p = __v; }
template <class __CoalesceT, class __CoalesceV>
static __device__ __forceinline__ void __stwb(__CoalesceT *__p, __CoalesceV __v) { *__p = __v; }

/* 4. Runtime functions removed from CUDA (deprecated since CUDA 4, gone in
 * CUDA 13) that old code still calls, with their replacements. */
static inline __host__ cudaError_t cudaThreadSetLimit(enum cudaLimit __l, size_t __v) {
  return cudaDeviceSetLimit(__l, __v);
}
static inline __host__ cudaError_t cudaThreadGetLimit(size_t *__v, enum cudaLimit __l) {
  return cudaDeviceGetLimit(__v, __l);
}
static inline __host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache __c) {
  return cudaDeviceSetCacheConfig(__c);
}
static inline __host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *__c) {
  return cudaDeviceGetCacheConfig(__c);
}

/* 5. Texture references (texture<T, dim, mode>, tex1Dfetch(ref, i),
 * cudaBindTexture), removed in CUDA 12. Declared as CUDA 11 declared them:
 * a texture<> variable is a device object. A fetch goes through the texture
 * path, not the load/store unit: its body is not visible, so the analysis
 * reports it as unknown. */
template <class __CoalesceT, int __CoalesceDim = 1,
          enum cudaTextureReadMode __CoalesceMode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
};
#define __COALESCE_TEX texture<__CoalesceT, __CoalesceDim, __CoalesceMode>
#define __COALESCE_TEX_TEMPLATE                                                          \
  template <class __CoalesceT, int __CoalesceDim, enum cudaTextureReadMode __CoalesceMode>
__COALESCE_TEX_TEMPLATE __device__ __CoalesceT tex1Dfetch(__COALESCE_TEX, int);
__COALESCE_TEX_TEMPLATE __device__ __CoalesceT tex1D(__COALESCE_TEX, float);
__COALESCE_TEX_TEMPLATE __device__ __CoalesceT tex2D(__COALESCE_TEX, float, float);
__COALESCE_TEX_TEMPLATE __device__ __CoalesceT tex3D(__COALESCE_TEX, float, float, float);
__COALESCE_TEX_TEMPLATE static inline __host__ cudaError_t
cudaBindTexture(size_t *, const __COALESCE_TEX &, const void *, size_t = ~(size_t)0) {
  return cudaSuccess;
}
__COALESCE_TEX_TEMPLATE static inline __host__ cudaError_t
cudaBindTexture(size_t *, const __COALESCE_TEX &, const void *, const cudaChannelFormatDesc &,
                size_t = ~(size_t)0) {
  return cudaSuccess;
}
__COALESCE_TEX_TEMPLATE static inline __host__ cudaError_t
cudaBindTexture2D(size_t *, const __COALESCE_TEX &, const void *, const cudaChannelFormatDesc &,
                  size_t, size_t, size_t) {
  return cudaSuccess;
}
__COALESCE_TEX_TEMPLATE static inline __host__ cudaError_t
cudaBindTextureToArray(const __COALESCE_TEX &, cudaArray_const_t,
                       const cudaChannelFormatDesc & = cudaChannelFormatDesc()) {
  return cudaSuccess;
}
__COALESCE_TEX_TEMPLATE static inline __host__ cudaError_t cudaUnbindTexture(const __COALESCE_TEX &) {
  return cudaSuccess;
}
static inline __host__ cudaError_t cudaBindTexture(size_t *, const void *, const void *,
                                                   const cudaChannelFormatDesc *,
                                                   size_t = ~(size_t)0) {
  return cudaSuccess;
}
static inline __host__ cudaError_t cudaUnbindTexture(const void *) { return cudaSuccess; }
#undef __COALESCE_TEX
#undef __COALESCE_TEX_TEMPLATE

#endif /* !__COALESCE_LINT_BUILTIN_CUDA__ */

/* 6. nvcc's built-in atomic functions (CUDA 12.8 and later, "Built-in Atomic
 * Functions" in the CUDA C++ Programming Guide): __nv_atomic_load_n,
 * __nv_atomic_fetch_add, ... with a memory order and a thread scope. They
 * are compiler builtins of nvcc's front end; crt/device_functions.h declares
 * only their order and scope constants, and clang's CUDA wrapper keeps that
 * header out (it defines its guard, __DEVICE_FUNCTIONS_H__). Code that
 * tests __CUDACC_VER_MAJOR__ (defined as nvcc does, docs/nvcc-compat.md)
 * calls them: CUTLASS's subbyte_reference.h. Each is
 * declared as the access it makes: a load, a store, or CUDA's atomic
 * function of the same operation (the order and scope change what the
 * memory system guarantees, not which bytes an instruction touches). With
 * the built-in header too, which defines CUDA 13's version macros. */
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
template <class __CoalesceT>
static __device__ __forceinline__ __CoalesceT __nv_atomic_load_n(const __CoalesceT *__p, int,
                                                                  int = __NV_THREAD_SCOPE_SYSTEM) {
  return *__p;
}
template <class __CoalesceT>
static __device__ __forceinline__ void __nv_atomic_load(const __CoalesceT *__p, __CoalesceT *__r,
                                                        int, int = __NV_THREAD_SCOPE_SYSTEM) {
  *__r = *__p;
}
template <class __CoalesceT, class __CoalesceV>
static __device__ __forceinline__ void __nv_atomic_store_n(__CoalesceT *__p, __CoalesceV __v, int,
                                                           int = __NV_THREAD_SCOPE_SYSTEM) {
  *__p = __v;
}
template <class __CoalesceT>
static __device__ __forceinline__ void __nv_atomic_store(__CoalesceT *__p, __CoalesceT *__v, int,
                                                         int = __NV_THREAD_SCOPE_SYSTEM) {
  *__p = *__v;
}
#define __COALESCE_NV_FETCH(__name, __cuda)                                                    \
  template <class __CoalesceT, class __CoalesceV>                                              \
  static __device__ __forceinline__ __CoalesceT __name(__CoalesceT *__p, __CoalesceV __v, int,  \
                                                       int = __NV_THREAD_SCOPE_SYSTEM) {       \
    return __cuda(__p, (__CoalesceT)__v);                                                      \
  }
__COALESCE_NV_FETCH(__nv_atomic_fetch_add, atomicAdd)
__COALESCE_NV_FETCH(__nv_atomic_fetch_sub, atomicSub)
__COALESCE_NV_FETCH(__nv_atomic_fetch_min, atomicMin)
__COALESCE_NV_FETCH(__nv_atomic_fetch_max, atomicMax)
__COALESCE_NV_FETCH(__nv_atomic_fetch_and, atomicAnd)
__COALESCE_NV_FETCH(__nv_atomic_fetch_or, atomicOr)
__COALESCE_NV_FETCH(__nv_atomic_fetch_xor, atomicXor)
__COALESCE_NV_FETCH(__nv_atomic_exchange_n, atomicExch)
#undef __COALESCE_NV_FETCH
template <class __CoalesceT>
static __device__ __forceinline__ void __nv_atomic_exchange(__CoalesceT *__p, __CoalesceT *__v,
                                                            __CoalesceT *__r, int,
                                                            int = __NV_THREAD_SCOPE_SYSTEM) {
  *__r = atomicExch(__p, *__v);
}
template <class __CoalesceT>
static __device__ __forceinline__ bool
__nv_atomic_compare_exchange_n(__CoalesceT *__p, __CoalesceT *__e, __CoalesceT __d, bool, int, int,
                               int = __NV_THREAD_SCOPE_SYSTEM) {
  __CoalesceT __old = atomicCAS(__p, *__e, __d);
  const bool __ok = __old == *__e;
  *__e = __old;
  return __ok;
}
template <class __CoalesceT>
static __device__ __forceinline__ bool
__nv_atomic_compare_exchange(__CoalesceT *__p, __CoalesceT *__e, __CoalesceT *__d, bool, int, int,
                             int = __NV_THREAD_SCOPE_SYSTEM) {
  return __nv_atomic_compare_exchange_n(__p, __e, *__d, false, 0, 0);
}
static __device__ __forceinline__ void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __threadfence();
}

#endif /* __cplusplus && __CUDA__ */
#endif /* COALESCE_NVCC_COMPAT_H */
