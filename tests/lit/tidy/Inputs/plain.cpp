void scale(const float *in, float *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[32 * i];
}
