// RUN: %lint %s | FileCheck %s
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// When an access's requests per warp are not known, the note says which
// loop or branch makes them so, on the accesses it concerns only (issue 39:
// SGEMM_CUDA's naive kernel got "the cost is per loop iteration" on the
// store after the loop, whose requests are unknown because of the branch).

__global__ void naive(int M, int N, int K, const float *A, const float *B, float *C) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float t = 0.0;
    for (int i = 0; i < K; ++i)
      t += A[x * K + i] * B[i * N + y];
    // CHECK: requests_unknown_why.cu:[[@LINE-1]]:12: note: {{.*}}; the loop at line [[#@LINE-2]] runs a number of iterations not known: the cost is per iteration{{$}}
    C[x * N + y] = t;
    // CHECK: requests_unknown_why.cu:[[@LINE-1]]:5: note: {{.*}}; how many warps take each side of the branch at line [[#@LINE-6]] is not known: the cost is per request of the warps that do{{$}}
    // CHECK-NOT: requests_unknown_why.cu:[[@LINE-2]]:5: note: {{.*}}loop
    // JSON: "requests_unknown_why": "how many warps take each side of the branch at line 11 is not known: the cost is per request of the warps that do"
  }
}

// After a loop of unknown trip count outside any branch: known, no note.
__global__ void after_loop(int K, const float *A, float *C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0;
  for (int k = 0; k < K; ++k)
    t += A[k * 4096 + i];
  C[2 * i] = t;
  // CHECK: requests_unknown_why.cu:[[@LINE-1]]:3: warning: global store to 'C' uses 8 sectors per request (ideal 4)
  // CHECK-NOT: requests_unknown_why.cu:[[@LINE-2]]:3: note: {{.*}}not known
  // JSON: "requests_unknown_why": null
}

void go(int M, int N, int K, float *A, float *B, float *C) {
  naive<<<dim3(M / 32, N / 32), dim3(32, 32)>>>(M, N, K, A, B, C);
  after_loop<<<64, 256>>>(K, A, C);
}
