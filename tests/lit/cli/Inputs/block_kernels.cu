// Two kernels for the --block tests: `rows` is not launched; `sized` is
// launched with a block shape read from the command line.
__global__ void rows(const float *in, float *out) {
  out[threadIdx.x * 1024 + threadIdx.y] = in[threadIdx.x];
}

__global__ void sized(float *p) { p[threadIdx.x * 1024 + threadIdx.y] = 0; }

int atoi(const char *);

int main(int argc, char **argv) {
  float *p;
  sized<<<1, atoi(argv[1])>>>(p);
  return 0;
}
