// Misspelt rule names in suppression comments: see suppression-typos.test.
__global__ void k(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i]; // coalesce-lint: ignore[uncoalesced-globl]
  out[i] += in[i]; // coalesce-lint: ignore[shared-bank-conflict, -coalesce-bank-conflicts]
  out[i] += in[3 * i]; // coalesce-lint: ignore[uncoalesced-*]
}

int main() {
  float *a, *b;
  k<<<64, 256>>>(a, b);
}
