//===- TensorMap.cpp - TMA tensor maps: their contract and their layout ---===//

#include "model/TensorMap.h"

namespace coalesce {

bool TensorMapEncoding::operator==(const TensorMapEncoding &O) const {
  return At == O.At && DataType == O.DataType && Rank == O.Rank && Interleave == O.Interleave &&
         Swizzle == O.Swizzle && GlobalDims == O.GlobalDims && GlobalStrides == O.GlobalStrides &&
         Box == O.Box && ElementStrides == O.ElementStrides && AddressOffset == O.AddressOffset;
}

unsigned tensorElementBytes(int64_t T) {
  // CUtensorMapDataType, in the order cuda.h declares it.
  static const unsigned Bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return T >= 0 && T < static_cast<int64_t>(sizeof Bytes / sizeof Bytes[0]) ? Bytes[T] : 0;
}

std::string swizzleName(int64_t Mode) {
  static const char *const Names[] = {"NONE", "32B", "64B", "128B", "128B_ATOM_32B",
                                      "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"};
  if (Mode < 0 || Mode >= static_cast<int64_t>(sizeof Names / sizeof Names[0]))
    return "swizzle mode " + std::to_string(Mode);
  return std::string("CU_TENSOR_MAP_SWIZZLE_") + Names[Mode];
}

std::optional<unsigned> swizzleSpan(int64_t Mode) {
  switch (Mode) {
  case 0: return 0u;
  case 1: return 32u;
  case 2: return 64u;
  case 3: return 128u;
  default: return std::nullopt;
  }
}

int64_t swizzledOffset(unsigned Span, int64_t O) {
  if (Span < 32)
    return O;
  const int64_t Mask = Span / 16 - 1;
  return O ^ (((O >> 7) & Mask) << 4);
}

namespace {

std::string str(int64_t V) { return std::to_string(V); }

} // namespace

std::string tensorMapKey(const TensorMapEncoding &E) {
  auto V = [](const std::optional<int64_t> &X) { return X ? std::to_string(*X) : std::string("?"); };
  auto A = [&](const std::vector<std::optional<int64_t>> &Xs) {
    std::string S = "[";
    for (const std::optional<int64_t> &X : Xs)
      S += V(X) + ",";
    return S + "]";
  };
  return E.At + ";" + V(E.DataType) + ";" + V(E.Rank) + ";" + V(E.Interleave) + ";" +
         V(E.Swizzle) + ";" + A(E.GlobalDims) + A(E.GlobalStrides) + A(E.Box) +
         A(E.ElementStrides) + ";" + V(E.AddressOffset);
}

std::optional<int64_t> boxBytes(const TensorMapEncoding &E) {
  if (!E.DataType || !E.Rank || *E.Rank < 1 || *E.Rank > 5 ||
      E.Box.size() < static_cast<size_t>(*E.Rank))
    return std::nullopt;
  const unsigned Elem = tensorElementBytes(*E.DataType);
  if (!Elem)
    return std::nullopt;
  int64_t Bytes = Elem;
  for (int64_t I = 0; I < *E.Rank; ++I) {
    if (!E.Box[I] || *E.Box[I] < 1 || *E.Box[I] > 256)
      return std::nullopt;
    int64_t N = *E.Box[I];
    // Element strides other than 1 load ceil(box / stride) elements (the
    // first dimension's is ignored without interleave).
    if (I > 0 || (E.Interleave && *E.Interleave != 0)) {
      if (I >= static_cast<int64_t>(E.ElementStrides.size()) || !E.ElementStrides[I] ||
          *E.ElementStrides[I] < 1 || *E.ElementStrides[I] > 8)
        return std::nullopt;
      N = (N + *E.ElementStrides[I] - 1) / *E.ElementStrides[I];
    }
    Bytes *= N;
  }
  return Bytes;
}

std::vector<ContractBreak> encodeContract(const TensorMapEncoding &E) {
  std::vector<ContractBreak> Out;
  auto Break = [&](const char *Rule, std::string Text) {
    Out.push_back({Rule, std::move(Text)});
  };
  const bool Interleaved = E.Interleave && *E.Interleave != 0;
  const bool Interleave32 = E.Interleave && *E.Interleave == 2;
  if (E.Rank && (*E.Rank < 1 || *E.Rank > 5 || (Interleaved && *E.Rank < 3)))
    Break("tensor-rank", "the tensor's rank is " + str(*E.Rank) + "; it must be 1 to 5" +
                             (Interleaved ? " (at least 3 when interleaved)" : ""));
  const int64_t Rank = E.Rank && *E.Rank >= 1 && *E.Rank <= 5 ? *E.Rank : 0;
  const int64_t AddrAlign = Interleave32 ? 32 : 16;
  // An allocation's start is at least 256-byte aligned (cudaMalloc).
  if (E.AddressOffset && *E.AddressOffset % AddrAlign)
    Break("global-address-alignment",
          "the global address is " + str(*E.AddressOffset) +
              " bytes past the start of its allocation: it must be " + str(AddrAlign) +
              "-byte aligned");
  const int64_t StrideAlign = Interleave32 ? 32 : 16;
  for (int64_t I = 0; I + 1 < Rank && I < static_cast<int64_t>(E.GlobalStrides.size()); ++I)
    if (const std::optional<int64_t> S = E.GlobalStrides[I]) {
      if (*S % StrideAlign || *S <= 0 || *S >= (int64_t(1) << 40))
        Break("global-stride", "globalStrides[" + str(I) + "] is " + str(*S) +
                                   " bytes: it must be a multiple of " + str(StrideAlign) +
                                   " below 2^40");
    }
  for (int64_t I = 0; I < Rank && I < static_cast<int64_t>(E.GlobalDims.size()); ++I)
    if (const std::optional<int64_t> D = E.GlobalDims[I])
      if (*D < 1 || *D > (int64_t(1) << 32))
        Break("global-dim", "globalDim[" + str(I) + "] is " + str(*D) + ": it must be 1 to 2^32");
  for (int64_t I = 0; I < Rank && I < static_cast<int64_t>(E.Box.size()); ++I)
    if (const std::optional<int64_t> B = E.Box[I])
      if (*B < 1 || *B > 256)
        Break("box-dim", "boxDim[" + str(I) + "] is " + str(*B) + ": it must be 1 to 256");
  for (int64_t I = 0; I < Rank && I < static_cast<int64_t>(E.ElementStrides.size()); ++I)
    if (const std::optional<int64_t> S = E.ElementStrides[I])
      if (*S < 1 || *S > 8)
        Break("element-stride",
              "elementStrides[" + str(I) + "] is " + str(*S) + ": it must be 1 to 8");
  const unsigned Elem = E.DataType ? tensorElementBytes(*E.DataType) : 0;
  if (Elem && !Interleaved && !E.Box.empty() && E.Box[0] && *E.Box[0] >= 1 && *E.Box[0] <= 256) {
    const int64_t Inner = *E.Box[0] * Elem;
    if (Inner % 16)
      Break("box-inner-bytes", "the box's inner dimension is " + str(*E.Box[0]) + " x " +
                                   str(Elem) + " = " + str(Inner) +
                                   " bytes: without interleave it must be a multiple of 16");
    if (E.Swizzle)
      if (std::optional<unsigned> Span = swizzleSpan(*E.Swizzle); Span && *Span && Inner > *Span)
        Break("box-inner-exceeds-swizzle",
              "the box's inner dimension is " + str(Inner) + " bytes, more than the " +
                  str(*Span) + " bytes " + swizzleName(*E.Swizzle) +
                  " permutes: cuTensorMapEncodeTiled fails (CUDA_ERROR_INVALID_VALUE); use a "
                  "box of at most " + str(*Span / Elem) + " elements inner, or a wider swizzle");
  }
  if (Interleave32 && E.Swizzle && *E.Swizzle != 1)
    Break("interleave-swizzle",
          "with CU_TENSOR_MAP_INTERLEAVE_32B the swizzle must be CU_TENSOR_MAP_SWIZZLE_32B, not " +
              swizzleName(*E.Swizzle));
  return Out;
}

} // namespace coalesce
