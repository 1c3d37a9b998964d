// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// A loop of launches whose arguments differ (Rodinia gaussian's 63 launches
// of Fan1/Fan2 per site, one per column t): each launch configuration is
// analysed as it runs, up to 64 per site, and configurations with the same
// figures share a record that counts its launches. Beyond 64, one
// configuration with what they all share (t is then not known).

__global__ void shift(float *a, int t) { a[threadIdx.x + t] = 0.f; }
// CHECK: :[[@LINE-1]]:42: remark: global store to 'a' uses 5 sectors per request (ideal 4): the warp's bytes start 4 bytes past a 32-byte sector boundary
// CHECK: note: assuming blockDim = (32, 1, 1) from the launch at many_configs.cu:[[@LINE+7]] (35 launches)

// t = 0..39: 5 values with t % 8 == 0 (4 sectors), 35 others (5 sectors).
// t = 0, 2, ..., 198: 100 values, more than 64: t is not known, and the
// alignment is assumed.
void run(float *a) {
  for (int t = 0; t < 40; ++t)
    shift<<<1, 32>>>(a, t);
  for (int t = 0; t < 100; ++t)
    shift<<<1, 32>>>(a, 2 * t);
}
// JSON:      "args": {
// JSON-NEXT:   "t": 0
// JSON:      "sectors_per_request": 4,
// JSON:      "args": {
// JSON-NEXT:   "t": 1
// JSON:      "sectors_per_request": 5,
// JSON:      "assuming 't' keeps the 32-byte alignment of the address; otherwise 4 to 5 sectors"
