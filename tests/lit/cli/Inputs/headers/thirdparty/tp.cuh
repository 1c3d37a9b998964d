__device__ float tp_load(const float *p, int i) { return p[i * 4]; }
