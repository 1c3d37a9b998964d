// Shared by the reference kernels: allocation and a run() helper.
//
// Every program launches each of its kernels exactly once through run(), so a
// run under Nsight Compute (verify mode) profiles one launch per kernel, in
// order. With COALESCE_TIMING=1, run() also times the launch: 3 warm-ups,
// then the median of 21 runs measured with CUDA events, printed as
//   COALESCE_TIME <label> <median ms> <bytes moved>
// so verify mode can show achieved bandwidth next to the sector numbers.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define SAMPLE_CHECK(call)                                                     \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__,    \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace sample {

inline bool timing() {
  const char *E = std::getenv("COALESCE_TIMING");
  return E && E[0] == '1';
}

/// A size the program takes at run time (from its command line, with a
/// default), announced on stdout so that verify mode can pick the case of a
/// parametric prediction that this run selects: `COALESCE_SIZE name value`.
inline int runtime_size(const char *Name, int Argc, char **Argv, int Index, int Default) {
  const int V = Index < Argc ? std::atoi(Argv[Index]) : Default;
  std::printf("COALESCE_SIZE %s %d\n", Name, V);
  return V;
}

template <class T> T *alloc(size_t Count) {
  T *P = nullptr;
  SAMPLE_CHECK(cudaMalloc(&P, Count * sizeof(T)));
  SAMPLE_CHECK(cudaMemset(P, 0, Count * sizeof(T)));
  return P;
}

template <class F> void run(const char *Label, double Bytes, F Launch) {
  Launch();
  SAMPLE_CHECK(cudaGetLastError());
  SAMPLE_CHECK(cudaDeviceSynchronize());
  if (!timing())
    return;
  for (int I = 0; I < 3; ++I)
    Launch();
  cudaEvent_t Start, Stop;
  SAMPLE_CHECK(cudaEventCreate(&Start));
  SAMPLE_CHECK(cudaEventCreate(&Stop));
  std::vector<float> Ms;
  for (int I = 0; I < 21; ++I) {
    SAMPLE_CHECK(cudaEventRecord(Start));
    Launch();
    SAMPLE_CHECK(cudaEventRecord(Stop));
    SAMPLE_CHECK(cudaEventSynchronize(Stop));
    float T = 0;
    SAMPLE_CHECK(cudaEventElapsedTime(&T, Start, Stop));
    Ms.push_back(T);
  }
  std::sort(Ms.begin(), Ms.end());
  std::printf("COALESCE_TIME %s %.6f %.0f\n", Label, Ms[Ms.size() / 2], Bytes);
  SAMPLE_CHECK(cudaEventDestroy(Start));
  SAMPLE_CHECK(cudaEventDestroy(Stop));
}

} // namespace sample
