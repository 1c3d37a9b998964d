// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Fields of an array of structs: the lanes are a whole struct apart, whatever
// the field's offset (32-byte struct -> 32 sectors, 12-byte -> 12). A struct
// of arrays passed by value is coalesced.

struct Particle { float x, y, z, vx, vy, vz, mass, charge; }; // 32 bytes
struct Point { float x, y, z; };                              // 12 bytes
struct Arrays { const float *x; const float *y; };

__global__ void aos32(Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x;
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'p' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: the lanes stride over whole 32-byte structs to reach one field; storing this field in its own array (structure of arrays) gives 4 sectors per request (8x fewer)
  out[i] = p[i].charge;
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'p' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart [coalesce-uncoalesced-global]
  p[i].vx = out[i];
  // (The CLI prints in evaluation order, the clang-tidy plugin by column.)
  // CHECK-DAG: :[[@LINE-2]]:13: remark: global load from 'out' needs no instruction of its own: `out[i]` (line [[@LINE-4]]) stored this value
  // CHECK-DAG: :[[@LINE-3]]:3: warning: global store to 'p' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart [coalesce-uncoalesced-global]
}

__global__ void aos12(const Point *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].y;
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'p' uses 12 sectors per request (ideal 4): lanes are 12 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: the lanes stride over whole 12-byte structs to reach one field; storing this field in its own array (structure of arrays) gives 4 sectors per request (3x fewer)
}

__global__ void soa(Arrays a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a.x[i] + a.y[i];
}

int main() {
  Particle *p;
  Point *q;
  Arrays s;
  float *o;
  aos32<<<64, 256>>>(p, o);
  aos12<<<64, 256>>>(q, o);
  soa<<<64, 256>>>(s, o);
}
