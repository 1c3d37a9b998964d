// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Grid-stride loops to an unknown bound: the loop counter is warp-uniform and
// the stride (blockDim.x * gridDim.x floats) keeps the alignment, so each
// iteration costs what the first does; the note says the cost is per
// iteration and that the bound check is assumed to pass.

__global__ void gs_copy(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

__global__ void gs_pairs(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[2 * i];
  // CHECK: :[[@LINE-1]]:14: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: assuming blockDim = (256, 1, 1) from the launch at grid_stride.cu:{{[0-9]+}}; assuming `i < n`{{.*}}(line [[#@LINE-3]]){{.*}}; the loop at line [[#@LINE-3]] runs a number of iterations not known: the cost is per iteration
}

int main(int argc, char **argv) {
  float *a, *b;
  gs_copy<<<64, 256>>>(a, b, argc);
  gs_pairs<<<64, 256>>>(a, b, argc);
}
