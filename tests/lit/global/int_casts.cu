// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Integer conversions of the index (int, unsigned, long, size_t, and a
// truncation to unsigned char that is exact here: i % 256 == threadIdx.x)
// keep its per-lane value.

__global__ void casts(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned u = (unsigned)i;
  out[u] = in[u];
  long l = (long)i * 2;
  out[i] = in[l];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  size_t s = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  out[s] = in[s * 4];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 16 sectors per request (ideal 4): lanes are 16 bytes apart [coalesce-uncoalesced-global]
  unsigned long long w = (unsigned long long)(unsigned)(long)i;
  out[w] = in[(int)w];
  out[i] = in[(unsigned char)i];
}

int main() {
  float *a, *b;
  casts<<<64, 256>>>(a, b);
}
