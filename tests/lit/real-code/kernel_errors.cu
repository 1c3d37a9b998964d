// A clang error silences only the kernels it touches (issue 11): kernels
// whose code is clean are analysed as in a clean file; a kernel with an error
// in its own body, or in a device function it calls, is listed as not
// analysed with the error; errors in host code and in helpers no kernel
// calls silence nothing, and the launch in a host function with an error
// still gives its block shape.
// RUN: %lint %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not='not analysed'
// UNSUPPORTED: tidy

// CHECK-DAG: :[[@LINE+2]]:75: warning: global load from 'in' uses 32 sectors per request (ideal 4)
// CHECK-DAG: :[[@LINE+1]]:75: note: assuming blockDim = (64, 1, 1) from the launch at kernel_errors.cu:30;
__global__ void strided(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x * 32]; }

__global__ void clean(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }

// CHECK-DAG: :[[@LINE+1]]:17: note: kernel 'own_error' is not analysed: clang reports an error in its code at {{.*}}kernel_errors.cu:[[@LINE+2]]:22: use of undeclared identifier 'undeclared_scale'
__global__ void own_error(float *out, const float *in) {
  out[threadIdx.x] = undeclared_scale * in[threadIdx.x * 2];
}

__device__ float helper_with_error(const float *p) { return p[threadIdx.x] + no_such_constant; }
// CHECK-DAG: :[[@LINE+1]]:17: note: kernel 'calls_helper' is not analysed: clang reports an error in 'helper_with_error', which it calls at {{.*}}kernel_errors.cu:[[@LINE-1]]:78: use of undeclared identifier 'no_such_constant'
__global__ void calls_helper(float *out, const float *in) { out[threadIdx.x] = helper_with_error(in); }

// Never called by a kernel: its error touches nothing.
__device__ float unused_helper(float x) { return x * missing_factor; }

void host_code(float *out, const float *in) {
  legacy_host_call(out);                        // an error in host code
  strided<<<4, 64>>>(out, in); // line 30
  clean<<<4, 64>>>(out, in);
}

// An instantiation with an error in the template's code: clang drops its
// body, the kernel is still listed (it was silently missing).
// CHECK-DAG: :[[@LINE+2]]:17: note: kernel 'scaled<Unscaled>' is not analysed: clang reports an error in its code at {{.*}}kernel_errors.cu:[[@LINE+3]]:25: no member named 'scale' in 'Unscaled'
template <class T>
__global__ void scaled(float *out) {
  out[threadIdx.x] = T::scale;
}
struct Unscaled {};
void launch_scaled(float *out) { scaled<Unscaled><<<1, 32>>>(out); }

// CHECK-DAG: coalesce-lint: warning: {{.*}}kernel_errors.cu: clang reported 5 errors (see above); 3 kernels not analysed, the others are
// CHECK-DAG: coalesce-lint: 4 accesses in 2 kernels: 1 warning (1 uncoalesced-global), 0 remarks; 5 clang errors, 3 kernels not analysed
