//===- MatrixDescriptor.cpp - wgmma and its shared-memory descriptors -----===//

#include "model/MatrixDescriptor.h"

#include <cctype>

namespace coalesce {

std::optional<DescriptorFields> decodeDescriptorFields(uint64_t Bits) {
  // Reserved: bits 14-15, 30-31, 46-48, 52-61.
  const uint64_t Reserved = (uint64_t(3) << 14) | (uint64_t(3) << 30) | (uint64_t(7) << 46) |
                            (uint64_t(0x3FF) << 52);
  if (Bits & Reserved)
    return std::nullopt;
  DescriptorFields F;
  F.LeadingBytes = static_cast<unsigned>((Bits >> 16) & 0x3FFF) << 4;
  F.StrideBytes = static_cast<unsigned>((Bits >> 32) & 0x3FFF) << 4;
  F.BaseOffset = static_cast<unsigned>((Bits >> 49) & 7);
  F.Mode = static_cast<unsigned>((Bits >> 62) & 3);
  return F;
}

unsigned descriptorSwizzleSpan(unsigned Mode) {
  switch (Mode) {
  case 1: return 128;
  case 2: return 64;
  case 3: return 32;
  default: return 0;
  }
}

std::string descriptorSwizzleText(unsigned Mode) {
  const unsigned Span = descriptorSwizzleSpan(Mode);
  return (Span ? "the " + std::to_string(Span) + "B swizzle" : std::string("no swizzle")) +
         " (mode " + std::to_string(Mode) + ")";
}

namespace {

/// "m64n8k16" -> 64, 8, 16.
bool parseMnk(const std::string &P, unsigned &M, unsigned &N, unsigned &K) {
  unsigned *Out[3] = {&M, &N, &K};
  const char Tags[3] = {'m', 'n', 'k'};
  size_t I = 0;
  for (int F = 0; F < 3; ++F) {
    if (I >= P.size() || P[I] != Tags[F])
      return false;
    ++I;
    size_t J = I;
    while (J < P.size() && std::isdigit(static_cast<unsigned char>(P[J])))
      ++J;
    if (J == I || J - I > 4)
      return false;
    *Out[F] = static_cast<unsigned>(std::stoul(P.substr(I, J - I)));
    I = J;
  }
  return I == P.size();
}

} // namespace

std::optional<WgmmaShape> parseWgmmaShape(const std::vector<std::string> &Opcode) {
  if (Opcode.size() < 2 || Opcode[0] != "wgmma" || Opcode[1] != "mma_async")
    return std::nullopt;
  WgmmaShape S;
  size_t At = Opcode.size();
  for (size_t I = 2; I < Opcode.size(); ++I) {
    if (Opcode[I] == "sp")
      return std::nullopt; // sparse A: half its bytes, and metadata
    if (parseMnk(Opcode[I], S.M, S.N, S.K)) {
      At = I;
      break;
    }
  }
  // dtype, atype, btype follow the shape.
  if (At + 3 >= Opcode.size() || S.M != 64 || S.N < 8 || S.N > 256 || S.N % 8)
    return std::nullopt;
  const std::string &A = Opcode[At + 2], &B = Opcode[At + 3];
  if (A != B && !((A == "e4m3" || A == "e5m2") && (B == "e4m3" || B == "e5m2")))
    return std::nullopt;
  unsigned K = 0;
  if (A == "f16" || A == "bf16") {
    S.ElemBits = 16, K = 16, S.Transposable = true;
  } else if (A == "tf32") {
    S.ElemBits = 32, K = 8;
  } else if (A == "e4m3" || A == "e5m2") {
    S.ElemBits = 8, K = 32;
  } else {
    // .s8/.u8 (IGMMA) and .b1 are not measured.
    return std::nullopt;
  }
  if (S.K != K)
    return std::nullopt;
  return S;
}

unsigned wgmmaSharedBytes(const WgmmaShape &S, bool AInRegisters) {
  const unsigned B = S.N * S.K * S.ElemBits / 8;
  return AInRegisters ? B : B + S.M * S.K * S.ElemBits / 8;
}

} // namespace coalesce
