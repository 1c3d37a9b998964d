// Not a translation unit: it uses types that main.cu defines before it
// includes this file.
__global__ void scale(real *p, params q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < q.n) p[i] *= q.scale;
}
