/*===- cuda_runtime.h - coalesce-lint's built-in minimal CUDA header -------===
 *
 * Used when no CUDA toolkit is found (and by the project's tests): enough of
 * the CUDA runtime API, vector types and device intrinsics to parse kernels
 * and their host launch code with clang in device-only mode
 * (-nocudainc -nocudalib). Sizes and alignments of the vector types match
 * CUDA's vector_types.h, because the analysis depends on them.
 *===----------------------------------------------------------------------===*/
#ifndef COALESCE_LINT_BUILTIN_CUDA_RUNTIME_H
#define COALESCE_LINT_BUILTIN_CUDA_RUNTIME_H

#include "__clang_cuda_builtin_vars.h"

#define __COALESCE_LINT_BUILTIN_CUDA__ 1
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__ __attribute__((grid_constant))
#define __device_builtin__
#define CUDART_VERSION 13000
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0

typedef __SIZE_TYPE__ size_t;

/* Device-side libc that clang's cuda_wrappers (<new>, <cmath>) rely on. */
extern "C" {
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute__((nothrow));
__device__ void *malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *, const char *, unsigned, const char *, size_t);
}

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2
} cudaError_t;
typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

extern "C" {
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                              cudaStream_t stream = 0);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                     size_t sharedMem = 0, void *stream = 0);
// A launch compiled for the device (dynamic parallelism; with -fgpu-rdc, a
// launch in a lambda, which CUDA makes __host__ __device__).
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension,
                                        dim3 blockDimension, unsigned int sharedMemSize,
                                        cudaStream_t stream);
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags = 1);
cudaError_t cudaFree(void *devPtr);
enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2
};
#define cudaEnableDefault 0x0
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                             unsigned int cudaVersion, unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *driverStatus = 0);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
}

/* Devices: the properties whose values host code uses for launch shapes. */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int multiProcessorCount;
  int major;
  int minor;
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16
};
extern "C" {
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
}

/* Launches through the runtime API: the C forms of cuda_runtime_api.h and
   the C++ templates of cuda_runtime.h. */
typedef struct cudaLaunchAttribute_st cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;
extern "C" {
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                void **args);
}
template <class T>
static inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                                                      void **args, size_t sharedMem = 0,
                                                      cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem,
                                       stream);
}
template <typename... ExpTypes, typename... ActTypes>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                             void (*kernel)(ExpTypes...), ActTypes &&...args) {
  return [&](ExpTypes... coercedArgs) {
    void *pArgs[] = {&coercedArgs..., nullptr};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}
template <class T> static inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc((void **)devPtr, size);
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned flags = 1) {
  return cudaMallocManaged((void **)devPtr, size, flags);
}

/* Vector types: sizes and alignments as in CUDA's vector_types.h. */
#define COALESCE_VEC1(T, N, A) struct __align__(A) N##1 { T x; };
#define COALESCE_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; };
#define COALESCE_VEC3(T, N) struct N##3 { T x, y, z; };
#define COALESCE_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; };
#define COALESCE_VECS(T, N, S)                                                 \
  COALESCE_VEC1(T, N, S) COALESCE_VEC2(T, N, 2 * S) COALESCE_VEC3(T, N)        \
  COALESCE_VEC4(T, N, 4 * S)
COALESCE_VECS(signed char, char, 1)
COALESCE_VECS(unsigned char, uchar, 1)
COALESCE_VECS(short, short, 2)
COALESCE_VECS(unsigned short, ushort, 2)
COALESCE_VECS(int, int, 4)
COALESCE_VECS(unsigned int, uint, 4)
COALESCE_VECS(float, float, 4)
COALESCE_VEC1(long long, longlong, 8)
COALESCE_VEC2(long long, longlong, 16)
COALESCE_VEC3(long long, longlong)
COALESCE_VEC4(long long, longlong, 16)
COALESCE_VEC1(unsigned long long, ulonglong, 8)
COALESCE_VEC2(unsigned long long, ulonglong, 16)
COALESCE_VEC3(unsigned long long, ulonglong)
COALESCE_VEC4(unsigned long long, ulonglong, 16)
COALESCE_VEC1(double, double, 8)
COALESCE_VEC2(double, double, 16)
COALESCE_VEC3(double, double)
COALESCE_VEC4(double, double, 16)
#undef COALESCE_VECS
#undef COALESCE_VEC1
#undef COALESCE_VEC2
#undef COALESCE_VEC3
#undef COALESCE_VEC4

__host__ __device__ static inline float2 make_float2(float x, float y) { return {x, y}; }
__host__ __device__ static inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}
__host__ __device__ static inline int2 make_int2(int x, int y) { return {x, y}; }
__host__ __device__ static inline int4 make_int4(int x, int y, int z, int w) {
  return {x, y, z, w};
}
__host__ __device__ static inline double2 make_double2(double x, double y) { return {x, y}; }
__host__ __device__ static inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
__host__ __device__ static inline int3 make_int3(int x, int y, int z) { return {x, y, z}; }
__host__ __device__ static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
  return {x, y, z};
}
__host__ __device__ static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
  return {x, y, z, w};
}

/* Device functions: declarations are enough, the analysis knows them by name. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
template <class T> __device__ T __ldg(const T *p);
template <class T> __device__ T __ldcg(const T *p);
template <class T> __device__ T __ldcs(const T *p);
template <class T> __device__ T __ldca(const T *p);
template <class T> __device__ void __stcg(T *p, T v);
template <class T> __device__ void __stcs(T *p, T v);
template <class T> __device__ T __shfl_sync(unsigned mask, T v, int src, int width = 32);
template <class T> __device__ T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32);
template <class T> __device__ T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned mask, T v, int m, int width = 32);
__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ unsigned __activemask(void);
/* Address conversions (sm_20_intrinsics.h): a shared pointer's address in the
   shared window, for inline PTX. */
__device__ size_t __cvta_generic_to_shared(const void *p);
__device__ size_t __cvta_generic_to_global(const void *p);
__device__ unsigned __isShared(const void *p);
__device__ unsigned __isGlobal(const void *p);
__device__ int __any_sync(unsigned mask, int pred);
__device__ int __all_sync(unsigned mask, int pred);
__device__ int __popc(unsigned);
__device__ int __ffs(int);
__device__ int __clz(int);
__device__ unsigned __umulhi(unsigned, unsigned);
__device__ int __mulhi(int, int);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ long long __mul64hi(long long, long long);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__device__ int atomicAdd(int *a, int v);
__device__ unsigned atomicAdd(unsigned *a, unsigned v);
__device__ unsigned long long atomicAdd(unsigned long long *a, unsigned long long v);
__device__ float atomicAdd(float *a, float v);
__device__ double atomicAdd(double *a, double v);
__device__ float2 atomicAdd(float2 *a, float2 v);
__device__ float4 atomicAdd(float4 *a, float4 v);
__device__ int atomicMax(int *a, int v);
__device__ unsigned atomicMax(unsigned *a, unsigned v);
__device__ int atomicMin(int *a, int v);
__device__ int atomicExch(int *a, int v);
__device__ int atomicCAS(int *a, int c, int v);
__host__ __device__ static inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ static inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
__host__ __device__ static inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ static inline long long max(long long a, long long b) { return a > b ? a : b; }
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
__device__ float sqrtf(float);
__device__ float rsqrtf(float);
__device__ float expf(float);
__device__ float __expf(float);
__device__ float logf(float);
__device__ float fabsf(float);
__device__ float sinf(float);
__device__ float cosf(float);
__device__ float fmaf(float, float, float);
__device__ double sqrt(double);
__device__ double exp(double);
__device__ double fabs(double);
__device__ int __float2int_rn(float);

#endif /* COALESCE_LINT_BUILTIN_CUDA_RUNTIME_H */
