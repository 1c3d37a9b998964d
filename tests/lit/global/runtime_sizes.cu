// RUN: %lint %s | FileCheck %s --check-prefix=PARAM --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --assume=cols=2049 --assume=D=2049 --assume=pitch=2056 --assume=rows=512 \
// RUN:   | FileCheck %s --check-prefix=EXACT --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --format=json | FileCheck %s --check-prefix=JSON
// Sizes that come from run-time input: without --assume each access states
// its cost as a function of the size (the case for large sizes, with its
// condition); with --assume the number for that size. A warning must hold
// for every size the program can have: where some size gives the ideal
// (cols == 1: contiguous), the cost is a remark, with the case that is fine
// and what decides it (issue 37). A byte pitch below 4 would misalign the
// float loads, which the hardware does not allow: no such pitch can occur,
// and the pitched rows stay a warning.

__global__ void strided(const float *a, float *out, int cols) {
  int r = blockIdx.x * 32 + threadIdx.x;
  out[r] = a[r * cols];
  // PARAM: :[[@LINE-1]]:12: remark: global load from 'a' uses 32 sectors per request (ideal 4) for every cols >= 8
  // PARAM: note: for other values of 'cols': 1 sector (ideal 1) when cols == 0; 4 sectors (ideal 4) when cols == 1; 8 sectors (ideal 4) when cols == 2; 12 sectors (ideal 4) when cols == 3; and 4 more cases (--explain lists them); --assume cols=VALUE gives the number for one value
  // PARAM: note: not a warning: the cost is 4 sectors (ideal 4) when cols == 1, and the values 'cols' takes decide which case holds; state them with --assume cols=VALUE (or cols >= VALUE), or check them in the host code before the launch
  // EXACT: :[[@LINE-4]]:12: warning: global load from 'a' uses 32 sectors per request (ideal 4): lanes are 8196 bytes apart
  // EXACT: note: {{.*}}with {{--assume 'cols = 2049'|'cols = 2049' from the check option Assume}}
}

// A 16x16 block: each warp spans two rows, D floats apart.
__global__ void rows16(const float *m, float *out, int D) {
  int row = blockIdx.y * 16, col = blockIdx.x * 16;
  out[(row + threadIdx.y) * D + col + threadIdx.x] = m[(row + threadIdx.y) * D + col + threadIdx.x];
  // Multiples of 8 keep both rows aligned (4 sectors, no warning); the other
  // residues put some rows 4, 8 or 16 bytes past a sector (5 to 6 per warp).
  // JSON:      "expression": "m[(row + threadIdx.y) * D + col + threadIdx.x]",
  // JSON:      "parametric": {
  // JSON-NEXT:   "assume": "D",
  // JSON-NEXT:   "cases": [
  // JSON-NEXT:     {
  // JSON-NEXT:       "alignment_known": true,
  // JSON-NEXT:       "cost": 4,
  // JSON-NEXT:       "ideal": 4,
  // JSON-NEXT:       "text": "when D is a multiple of 8 and D >= 16",
  // JSON-NEXT:       "when": {
  // JSON-NEXT:         "max": null,
  // JSON-NEXT:         "min": 16,
  // JSON-NEXT:         "modulus": 8,
  // JSON-NEXT:         "residues": [
  // JSON-NEXT:           0
  // JSON-NEXT:         ]
  // JSON:            "cost": 5.75,
  // JSON:            "text": "when D % 8 is 1, 3, 5 or 7 and D >= 23",
  // JSON:            "cost": 5.5,
  // JSON:            "text": "when D % 8 is 2 or 6 and D >= 22",
  // JSON:            "cost": 5,
  // JSON:            "text": "when D % 8 == 4 and D >= 20",
  // JSON:        "period": 8,
  // JSON-NEXT:   "periodic_from": 24,
  // JSON-NEXT:   "size": "D",
  // JSON-NEXT:   "table": [
  // JSON:        "sectors_per_request": 4,
  // EXACT-DAG: :[[@LINE-30]]:54: remark: global load from 'm' uses 5.75 sectors per request (ideal 4)
  // EXACT-DAG: :[[@LINE-31]]:3: remark: global store to 'out' uses 5.75 sectors per request (ideal 4)
}

// Pitched rows (cudaMallocPitch), one thread per row: the lanes are
// `pitch` bytes apart.
__global__ void pitched(const float *img, float *out, int pitch) {
  int y = blockIdx.y * 32 + threadIdx.x;
  const float *r = (const float *)((const char *)img + y * pitch);
  out[y] = r[blockIdx.x];
  // PARAM: :[[@LINE-1]]:12: warning: global load from 'img' uses 32 sectors per request (ideal 4) when pitch is a multiple of 4 and pitch >= 32
  // PARAM: note: for other values of 'pitch': 35 sectors (ideal 4) when pitch % 4 is 1 or 3 and pitch >= 35; 34 sectors (ideal 4) when pitch % 4 == 2 and pitch >= 34; 1 sector (ideal 1) when pitch == 0; 2 sectors (ideal 2) when pitch == 1; and 31 more cases
  // EXACT: :[[@LINE-3]]:12: warning: global load from 'img' uses 32 sectors per request (ideal 4): lanes are 2056 bytes apart
}

// A transpose: the read is contiguous, the write walks down a column.
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  out[x * rows + y] = in[y * cols + x];
  // PARAM: :[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4) for every rows >= 8
  // PARAM: note: for other values of 'rows': 1 sector (ideal 1) when rows == 0; 4.875 sectors (ideal 4) when rows == 1; 8.75 sectors (ideal 4) when rows == 2;
  // With cols = 2049 the rows of 'in' start at every 4-byte offset.
  // EXACT-DAG: :[[@LINE-4]]:23: remark: global load from 'in' uses 4.875 sectors per request (ideal 4)
  // EXACT-DAG: :[[@LINE-5]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4): lanes are 2048 bytes apart
}

int atoi(const char *);
void run(const float *a, float *o, char **argv) {
  int n = atoi(argv[1]);
  strided<<<4, 32>>>(a, o, n);
  rows16<<<dim3(4, 4), dim3(16, 16)>>>(a, o, n);
  pitched<<<dim3(2, 2), 32>>>(a, o, n);
  transpose<<<dim3(2, 2), dim3(32, 8)>>>(a, o, n, n);
}
