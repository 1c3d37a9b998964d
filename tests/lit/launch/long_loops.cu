// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Host code that does real work next to its launches: loops over millions
// of elements (filling inputs, a CPU reference, checking results) are too
// long to run iteration by iteration. Such a loop is run to a fixpoint by
// itself; it neither makes the loop around it (a sweep over block sizes)
// give up, nor spends the budget of the walk before the launches.

void *malloc(unsigned long);
void free(void *);
int rand();
[[noreturn]] void exit(int);

__global__ void checked(float *p) { p[threadIdx.x * (blockDim.x / 32)] = 0; }
// CHECK-DAG: :[[@LINE-1]]:37: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (256, 1, 1) from the launch at long_loops.cu:[[#@LINE+19]];
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 8 sectors per request (ideal 4) for blockDim (64, 1, 1); 32 sectors per request (ideal 4) for blockDim (256, 1, 1).
//

__global__ void referenced(float *p) { p[threadIdx.x * blockDim.y + threadIdx.y * 4096] = 0; }
// CHECK-DAG: :[[@LINE-1]]:40: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (16, 8, 1) from the launch at long_loops.cu:[[#@LINE+14]];
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 16 sectors per request (ideal 4) for blockDim (32, 4, 1); 32 sectors per request (ideal 4) for blockDim (16, 8, 1).
//

void check(const float *got, const float *want, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (got[i] != want[i])
      bad++;
  if (bad)
    exit(1);
}

void launch_checked(float *p, int threads) { checked<<<1024, threads>>>(p); }
void launch_referenced(float *p, int x) { referenced<<<1024, dim3(x, 128 / x)>>>(p); }

// A sweep whose iterations each check the result over 4M elements.
void sweep(float *d, const float *want, int n) {
  int sizes[] = {64, 256};
  for (int j = 0; j < 2; j++) {
    launch_checked(d, sizes[j]);
    check(d, want, n);
  }
}

float *random_floats(unsigned long n) {
  float *a = (float *)malloc(n * sizeof(float));
  for (unsigned long i = 0; i < n; i++)
    a[i] = (float)rand() / 2147483647.0f;
  return a;
}

int *random_ints(unsigned long n, int v) {
  int *a = (int *)malloc(n * sizeof(int));
  for (unsigned long i = 0; i < n; i++)
    a[i] = rand() % v;
  return a;
}

// A CPU reference: three nested loops, 6M innermost iterations.
void reference(float *out, const int *idx, const float *table, const float *pos, int B, int T,
               int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      float *row = out + (b * T + t) * C;
      const float *src = table + idx[b * T + t] * C;
      const float *at = pos + t * C;
      for (int c = 0; c < C; c++)
        row[c] = src[c] + at[c];
    }
}

int main() {
  const int B = 8, T = 1024, C = 768, V = 50000;
  int *idx = random_ints(B * T, V);
  float *table = random_floats((unsigned long)V * C);
  float *pos = random_floats(T * C);
  float *want = random_floats(B * T * C);
  float *out = (float *)malloc(B * T * C * sizeof(float));
  reference(out, idx, table, pos, B, T, C);
  reference(want, idx, table, pos, B, T, C);
  float *d;
  cudaMalloc((void **)&d, B * T * C * sizeof(float));
  sweep(d, want, B * T * C);
  int widths[] = {32, 16};
  for (int j = 0; j < 2; j++) {
    launch_referenced(d, widths[j]);
    check(d, out, B * T * C);
  }
  free(out);
  return 0;
}
