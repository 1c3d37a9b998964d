// A 16-bit float type as a toolkit header declares one; the pragma makes
// this a system header, as the CUDA toolkit's headers are.
#pragma clang system_header

struct packed_half {
  unsigned short bits;
  operator float() const { return (float)(bits & 0x7fff) * (bits >> 15 ? -1.0f : 1.0f); }
  void clear() { bits = 0; }
};
