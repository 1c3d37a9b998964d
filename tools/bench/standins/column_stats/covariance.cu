// Stand-in for a benchmark suite's data-mining kernels (benchmark input,
// tools/bench, issue 35): the mean, centring and covariance of the columns
// of an (N, M) matrix, one thread per column, each looping over every row
// (and, for the covariance, over the columns after its own: a triangle).
// O(M * N) work per thread, which ran the analysis out of its budget.
#define M 2048
#define N 2048

__global__ void columnMean(float *Mean, const float *Data) {
  int J = blockIdx.x * blockDim.x + threadIdx.x;
  if (J < M) {
    Mean[J] = 0.0f;
    for (int I = 0; I < N; I++)
      Mean[J] += Data[I * M + J];
    Mean[J] /= (float)N;
  }
}

__global__ void centre(const float *Mean, float *Data) {
  int J = blockIdx.x * blockDim.x + threadIdx.x;
  int I = blockIdx.y * blockDim.y + threadIdx.y;
  if (I < N && J < M)
    Data[I * M + J] -= Mean[J];
}

__global__ void covariance(float *Sym, const float *Data) {
  int J1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (J1 < M) {
    for (int J2 = J1; J2 < M; J2++) {
      Sym[J1 * M + J2] = 0.0f;
      for (int I = 0; I < N; I++)
        Sym[J1 * M + J2] += Data[I * M + J1] * Data[I * M + J2];
      Sym[J2 * M + J1] = Sym[J1 * M + J2];
    }
  }
}

void run(float *Data, float *Mean, float *Sym) {
  dim3 Block(256, 1), Block2(32, 8);
  columnMean<<<(M + 255) / 256, Block>>>(Mean, Data);
  centre<<<dim3(M / 32, N / 8), Block2>>>(Mean, Data);
  covariance<<<(M + 255) / 256, Block>>>(Sym, Data);
}
