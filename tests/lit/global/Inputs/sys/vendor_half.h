// A system header of our own (the test passes -isystem), shaped like a
// toolkit's 16-bit float type: operators that take their operands by
// reference, methods that read *this, and helpers that copy the bits
// between locals through reinterpret_cast, which issue no memory instruction.
#pragma once
#include <utility>

#define VH_BITS(v) (*reinterpret_cast<unsigned short *>(&(v)))
#define VH_CBITS(v) (*reinterpret_cast<const unsigned short *>(&(v)))

struct __align__(2) vhalf {
  unsigned short bits;
  vhalf() = default;
  vhalf(const vhalf &) = default;
  __device__ vhalf &operator=(const vhalf &o) {
    VH_BITS(*this) = VH_CBITS(o);
    return *this;
  }
  __device__ vhalf &operator=(vhalf &&o) {
    VH_BITS(*this) = ::std::move(VH_CBITS(o));
    return *this;
  }
  __device__ vhalf &operator=(float f);
  __device__ operator float() const;
};

__device__ inline vhalf vh_from_float(float f) {
  vhalf r;
  VH_BITS(r) = (unsigned short)f;
  return r;
}
__device__ inline float vh_to_float(const vhalf h) { return (float)VH_CBITS(h); }
__device__ inline vhalf vh_add(const vhalf a, const vhalf b) {
  vhalf r;
  VH_BITS(r) = VH_CBITS(a) + VH_CBITS(b);
  return r;
}
__device__ inline vhalf operator+(const vhalf &l, const vhalf &r) { return vh_add(l, r); }
__device__ inline vhalf &vhalf::operator=(float f) {
  bits = vh_from_float(f).bits;
  return *this;
}
__device__ inline vhalf::operator float() const { return vh_to_float(*this); }

// Helpers that take a pointer and index it themselves.
__device__ inline float vh_load_strided(const vhalf *p, int i) { return (float)p[2 * i]; }
__device__ inline void vh_store(vhalf *p, float v) { *p = v; }
