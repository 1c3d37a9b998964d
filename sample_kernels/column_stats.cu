// Issue 35: the loop structure of a benchmark suite's data-mining kernels
// (covariance of the columns of an (N, M) matrix), one thread per column, each
// looping over every row and, for the covariance, over the columns from its
// own on (a triangle: lanes stop one iteration apart). It ran the analysis out
// of its budget. The covariance's accesses are unknown: some blocks' loops are
// counted and others' walked symbolically; weighing one against the other gave
// 31.06 sectors for `sym` where Nsight Compute measures 31.52 (docs/reasons.md).
#include "harness.cuh"

#define M 2048
#define N 2048

__global__ void column_mean(float *mean, const float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < M) {
    mean[j] = 0.0f; // expect: store mean 4/4
    for (int i = 0; i < N; i++)
      mean[j] += data[i * M + j]; // expect: load mean 4/4; store mean 4/4; load data 4/4
    mean[j] /= (float)N; // expect: store mean 4/4 // expect(source): load mean 4/4 // expect(witness): load mean none
  }
}

__global__ void column_stddev(const float *mean, float *stddev, const float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < M) {
    float s = 0.0f;
    for (int i = 0; i < N; i++)
      s += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]); // expect: load data 4/4; load mean 4/4; load data none; load mean none
    stddev[j] = sqrtf(s / N); // expect: store stddev 4/4
  }
}

__global__ void centre(const float *mean, float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < M)
    data[i * M + j] -= mean[j]; // expect: load data 4/4; load mean 4/4; store data 4/4
}

__global__ void covariance(float *sym, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M) {
    for (int j2 = j1; j2 < M; j2++) {
      sym[j1 * M + j2] = 0.0f; // expect: store sym unknown
      for (int i = 0; i < N; i++)
        sym[j1 * M + j2] += data[i * M + j1] * data[i * M + j2]; // expect: load sym unknown; store sym unknown; load data unknown; load data unknown
      sym[j2 * M + j1] = sym[j1 * M + j2]; // expect: store sym unknown // expect(source): load sym unknown // expect(witness): load sym none
    }
  }
}

int main() {
  float *data = sample::alloc<float>(size_t(N) * M);
  float *mean = sample::alloc<float>(M);
  float *stddev = sample::alloc<float>(M);
  float *sym = sample::alloc<float>(size_t(M) * M);
  const double Bytes = double(N) * M * sizeof(float);
  sample::run("column_mean", Bytes, [&] { column_mean<<<M / 256, 256>>>(mean, data); });
  sample::run("column_stddev", Bytes, [&] { column_stddev<<<M / 256, 256>>>(mean, stddev, data); });
  sample::run("centre", 2 * Bytes, [&] { centre<<<dim3(M / 32, N / 8), dim3(32, 8)>>>(mean, data); });
  sample::run("covariance", Bytes * M / 2, [&] { covariance<<<M / 256, 256>>>(sym, data); });
  return 0;
}
