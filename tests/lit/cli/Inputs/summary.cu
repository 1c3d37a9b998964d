// One finding of each kind, for summary.test: an uncoalesced load (8 sectors,
// 2x ideal), a 32-way bank conflict and an access that cannot be predicted.
__global__ void k(const float *in, const int *idx, float *out) {
  __shared__ float tile[32][32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x][0] = in[2 * i];
  out[i] = tile[0][threadIdx.x] + in[idx[i]];
}

int main() {
  float *a, *b;
  int *idx;
  k<<<64, 32>>>(a, idx, b);
}
