// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Strided float reads: sectors per request = distinct 32-byte sectors of the
// lanes' addresses; stride 1 is ideal and silent.

__global__ void stride1(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void stride2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: lane 0 -> byte +0, lane 1 -> byte +8, lane 2 -> byte +16, ..., lane 31 -> byte +248 (relative to lane 0); the lanes are spread by `2 * i`
  // CHECK: note: assuming blockDim = (256, 1, 1) from the launch at stride.cu:{{[0-9]+}}
}

__global__ void stride3(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 3];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 12 sectors per request (ideal 4): lanes are 12 bytes apart
}

int main() {
  float *a, *b;
  stride1<<<64, 256>>>(a, b);
  stride2<<<64, 256>>>(a, b);
  stride3<<<64, 256>>>(a, b);
}
