// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// dim3 shapes set field by field: a default dim3 is (1, 1, 1); fields are
// set directly, through a pointer, or inside a struct that holds the shapes.
#define NUMBER_THREADS 128

struct Shape {
  dim3 grid, block;
};

__global__ void one_by_one(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:40: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (128, 1, 1) from the launch at dim3_fields.cu:[[@LINE+9]];
void run_one_by_one(float *p, int boxes) {
  dim3 threads;
  dim3 blocks;
  blocks.x = boxes;
  blocks.y = 1;
  threads.x = NUMBER_THREADS;
  threads.y = 1;
  // The launch with the shape the host code set.
  one_by_one<<<blocks, threads>>>(p);
}

// Transposed: with rows of 16 threads, a warp's two rows read neighbouring
// floats, 16 pairs 4096 bytes apart (32 rows would be 32 sectors).
__global__ void rows(float *p) { p[threadIdx.x * 1024 + threadIdx.y] = 0; }
// CHECK: :[[@LINE-1]]:34: warning: global store to 'p' uses 16 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (16, 8, 1) from the launch at dim3_fields.cu:[[@LINE+8]];
void run_through_pointer(float *p) {
  dim3 b;
  dim3 *pb = &b;
  pb->x = 16;
  pb->y = 8;
  Shape s;
  s.block = b;
  rows<<<s.grid, s.block>>>(p);
}

// A warp of 4 x 8 threads: 8 rows, 32 floats apart.
__global__ void in_struct(float *p) { p[threadIdx.y * 32 + threadIdx.x] = 0; }
// CHECK: :[[@LINE-1]]:39: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (4, 8, 2) from the launch at dim3_fields.cu:[[@LINE+6]];
void run_in_struct(float *p) {
  Shape s;
  s.block.x = 4;
  s.block.y = 8;
  s.block.z = 2;
  in_struct<<<s.grid, s.block>>>(p);
}
