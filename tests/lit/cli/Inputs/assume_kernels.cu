// Sizes from run-time input (for assume.test).
int atoi(const char *);

struct Shape {
  int cols;
  int rows;
};

__global__ void rows_of(const float *a, float *out, int cols) {
  out[blockIdx.x * cols + threadIdx.x] = a[blockIdx.x * cols + threadIdx.x];
}

__global__ void by_field(const float *a, float *out, Shape s) {
  out[threadIdx.x] = a[threadIdx.x * s.cols];
}

// coalesce-lint: assume n % 8 == 0
__global__ void commented(const float *a, float *out, int n) {
  out[blockIdx.x * n + threadIdx.x] = a[blockIdx.x * n + threadIdx.x];
}

__global__ void misspelt(float *out, int n) {
  // coalesce-lint: assume n % 8
  out[threadIdx.x * n] = 0;
}

void run(const float *a, float *o, char **argv) {
  int n = atoi(argv[1]);
  Shape s{n, n};
  rows_of<<<8, 32>>>(a, o, n);
  by_field<<<1, 32>>>(a, o, s);
  commented<<<8, 32>>>(a, o, n);
}
