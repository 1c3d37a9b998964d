// RUN: %lint --format=json %s | FileCheck %s --implicit-check-not='"block": null'
// A benchmark driver: for each block size, time the launcher over many
// repetitions through a helper that takes it as a function pointer, check
// the results on the host and log through layers of helpers. Each
// iteration of the sweep costs the walk thousands of steps; a loop that
// reaches a launch has a larger budget than one that does not (100,000
// steps, not 20,000), so every size is still launched.

void *malloc(unsigned long);
int atoi(const char *);
[[noreturn]] void exit(int);

__global__ void timed(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f;
}

void launch_timed(int version, float *out, const float *in, int n, int block_size) {
  switch (version) {
  case 1:
    timed<<<(n + block_size - 1) / block_size, block_size>>>(out, in, n);
    break;
  case 2:
    timed<<<(n + 4 * block_size - 1) / (4 * block_size), block_size>>>(out, in, n);
    break;
  case 3:
    timed<<<(n + 8 * block_size - 1) / (8 * block_size), block_size>>>(out, in, n);
    break;
  default:
    timed<<<(n + 2 * block_size - 1) / (2 * block_size), block_size>>>(out, in, n);
    break;
  }
}

template <class F, class... A> float benchmark(int repeats, F f, A... args) {
  float total = 0;
  for (int r = 0; r < repeats; r++) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    f(args...);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    total += ms;
  }
  return total / repeats;
}

void check(const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i])
      exit(1);
}

// About 6,000 steps of straight-line code for the walk.
int log_value(int v) { return v % 7 + v / 7; }
int log_row(int v) { return log_value(v) + log_value(v + 1) + log_value(v + 2) + log_value(v + 3) + log_value(v + 4); }
int log_table(int v) { return log_row(v) + log_row(v + 1) + log_row(v + 2) + log_row(v + 3) + log_row(v + 4); }
int log_report(int v) { return log_table(v) + log_table(v + 1) + log_table(v + 2) + log_table(v + 3) + log_table(v + 4); }

int main(int argc, char **argv) {
  const int n = 1 << 22;
  int version = argc > 1 ? atoi(argv[1]) : 1;
  float *in, *out;
  cudaMalloc((void **)&in, n * sizeof(float));
  cudaMalloc((void **)&out, n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  float *got = (float *)malloc(n * sizeof(float));
  int block_sizes[] = {32, 64, 128, 256, 512, 1024};
  float *times = (float *)malloc(256 * sizeof(float));
  for (int j = 0; j < 6; j++) {
    for (int k = 0; k < 256; k++)
      times[k] = 0;
    float ms = benchmark(2000, launch_timed, version, out, in, n, block_sizes[j]);
    cudaMemcpy(got, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    check(got, want, n);
    cudaMemcpy(got, in, n * sizeof(float), cudaMemcpyDeviceToHost);
    check(got, want, n);
    check(want, got, n);
    if (ms < 0 || log_report(block_sizes[j]) < 0)
      return 1;
  }
  return 0;
}
// Every size; never an unknown block.
// CHECK: "block": [
// CHECK-NEXT: 32,
// CHECK: "block": [
// CHECK-NEXT: 64,
// CHECK: "block": [
// CHECK-NEXT: 128,
// CHECK: "block": [
// CHECK-NEXT: 256,
// CHECK: "block": [
// CHECK-NEXT: 512,
// CHECK: "block": [
// CHECK-NEXT: 1024,
// CHECK-NOT: "block": [
