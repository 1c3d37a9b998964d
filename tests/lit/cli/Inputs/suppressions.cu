// Every access below is uncoalesced (lanes 128 bytes apart) or bank-conflicted;
// the comments decide which are reported. See suppressions.test.
__global__ void k(const float *in, float *out) {
  __shared__ float tile[32][32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i * 32]; // reported: no comment
  float b = in[i * 32 + 1]; // coalesce-lint: ignore
  float c = in[i * 32 + 2]; // coalesce-lint: ignore[uncoalesced-global]
  float d = in[i * 32 + 3]; // coalesce-lint: ignore[shared-bank-conflict] (reported: other rule)
  float e = in[i * 32 + 4]; // NOLINT(coalesce-uncoalesced-global)
  float f = in[i * 32 + 5]; // NOLINT
  float g = in[i * 32 + 6]; // NOLINT(coalesce-*)
  float h = in[i * 32 + 7]; // NOLINT(bugprone-*) (reported: other check)
  // NOLINTNEXTLINE(coalesce-uncoalesced-global)
  float j = in[i * 32 + 8];
  // NOLINTBEGIN(coalesce-uncoalesced-global)
  float l = in[i * 32 + 9];
  float m = in[i * 32 + 10];
  // NOLINTEND(coalesce-uncoalesced-global)
  float n = in[i * 32 + 11]; // reported: after NOLINTEND
  float o = in[i * 32 + 12]; // coalesce-lint: ignored (reported: not the keyword)
  float p = in[i * 32 + 13]; // NOLINT(coalesce-*, -coalesce-uncoalesced-global) (reported: excluded)
  tile[threadIdx.x][0] = a; // coalesce-lint: ignore[coalesce-shared-bank-conflict]
  tile[threadIdx.x][5] = b; // reported: shared
  out[i] = a + b + c + d + e + f + g + h + j + l + m + n + o + p + tile[threadIdx.y][threadIdx.x];
}

void launch(const float *in, float *out) { k<<<8, 32>>>(in, out); }
