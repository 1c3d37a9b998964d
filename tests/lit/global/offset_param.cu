// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// An offset parameter: a value known from the launch is used exactly; an
// unknown one is assumed to keep the 32-byte alignment, with the range of
// costs over all alignments stated (stride 2 floats: 8 to 9 sectors).

__global__ void known(const float *in, float *out, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + off];
  // CHECK: :[[@LINE-1]]:12: remark: global load from 'in' uses 5 sectors per request (ideal 4): the warp's bytes start 4 bytes past a 32-byte sector boundary [coalesce-misaligned-global]
}

__global__ void unknown_off(const float *in, float *out, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + off];
  out[i] = in[2 * i + off];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: {{.*}}assuming 'off' keeps the 32-byte alignment of the address; otherwise 8 to 9 sectors
}

int main(int argc, char **argv) {
  float *a, *b;
  known<<<64, 256>>>(a, b, 1);
  unknown_off<<<64, 256>>>(a, b, argc);
}
