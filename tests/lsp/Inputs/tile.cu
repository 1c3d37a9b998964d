// The language server's test kernel (tests/lsp/test_lsp.py): coalesced and
// strided global accesses, a 32 x 32 shared tile read down its columns (a
// 32-way bank conflict that padding fixes), a 2-way conflict, an access that
// cannot be predicted and a finding silenced by a comment. Block 32 x 8.
__global__ void tile_kernel(const float *in, float *out, const int *idx) {
  __shared__ float tile[32][32];
  __shared__ float pairs[64];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];
  __syncthreads();
  out[y * 32 + x] = tile[x][y];
  pairs[2 * x] = in[x * 32];
  out[x] = in[idx[x]];
  out[x + 32] = in[x * 64]; // coalesce-lint: ignore[uncoalesced-global]
}

int main() {
  float *in, *out;
  int *idx;
  tile_kernel<<<1, dim3(32, 8)>>>(in, out, idx);
}
