//===- SharedLayout.h - Other layouts of a shared array, as algebra -------===//
//
// A bank-conflicted shared tile is fixed by changing where its elements live,
// not how they are indexed: every access of the array moves, so a layout is
// judged by re-costing all of them (cost/LayoutChoice.h). Two families:
//
//  - Padding: each row (the innermost dimension) gets P extra bytes, so rows
//    start P bytes further along the banks. `float tile[32][32]` read by
//    column is 32-way; `float tile[32][33]` is conflict-free. Padding keeps an
//    access of W bytes aligned only if the new row pitch is a multiple of W:
//    a tile written with float4 stores can be padded by 4 floats, not by 1.
//  - XOR swizzles: the row's units of U bytes (4, 8, 16 or 32) are permuted per
//    row, unit u of row r going to u ^ ((r >> S) & (2^B - 1)). No memory is
//    added, and an access of at most U bytes that starts on a unit stays one
//    contiguous, aligned access (a float4 store into 16-byte units). It is
//    CuTe's Swizzle<B, M, S'> on element offsets, with 2^M elements per unit
//    and S' = log2(row length in elements) + S - M, for a power-of-two row.
//
// Rows are the innermost dimension of the declared array: the flattened index
// of the outer dimensions is the row (a [2][32][32] double buffer has 64 rows
// of 32). A lane's byte offset b from the array's start is row b / R, byte
// b % R of it (R: bytes per row), as the subscripts put it when each is in
// range.
//
// Exactness: a warp's lanes are known constants plus a warp-uniform symbolic
// part (another warp, tile, iteration). The remapped offset is exact when that
// part moves every lane by whole rows (padding) or by whole periods of the
// swizzle's row bits, 2^(S+B) rows (swizzle): remap() says no otherwise.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_SHAREDLAYOUT_H
#define COALESCE_ANALYZER_MODEL_SHAREDLAYOUT_H

#include "model/Poly.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// A declared shared array of constant dimensions.
struct ArrayShape {
  std::vector<int64_t> Dims; // outermost first
  int64_t ElemSize = 0;      // bytes
  int64_t rowBytes() const { return Dims.empty() ? 0 : Dims.back() * ElemSize; }
  int64_t rows() const;      // the product of the outer dimensions
  int64_t bytes() const { return rows() * rowBytes(); }
};

struct SharedLayout {
  enum Kind { Pad, Swizzle } K = Pad;
  int64_t PadBytes = 0;        // Pad: bytes added to each row
  unsigned UnitBytes = 0;      // Swizzle: the permuted unit
  unsigned Bits = 0, Shift = 0; // Swizzle: u ^ ((row >> Shift) & (2^Bits - 1))
  /// Swizzle: bytes taken off each row first (the padding a tile was given
  /// by hand, `[16][17]` -> `[16][16]`), so that its rows hold whole units.
  int64_t UnpadBytes = 0;

  static SharedLayout pad(int64_t Bytes);
  static SharedLayout swizzle(unsigned UnitBytes, unsigned Bits, unsigned Shift,
                              int64_t UnpadBytes = 0);
  /// Rows a swizzle repeats after (2^(Shift+Bits)); 1 for padding.
  int64_t rowPeriod() const;
  /// Bytes the layout adds to the array.
  int64_t extraBytes(const ArrayShape &S) const;
  /// "pad4", "swz16:3:0": identity, for comparing the same layout of one
  /// array found in several launches.
  std::string key() const;
  bool operator==(const SharedLayout &O) const { return key() == O.key(); }
};

/// The layouts worth trying for an array whose widest access is MaxWidth
/// bytes: paddings by a multiple of max(element, MaxWidth) up to 128 bytes
/// (the banks' period), so the row pitch keeps every access aligned, and the
/// swizzles of units of 4, 8, 16 and 32 bytes (no narrower than an element or
/// MaxWidth) whose XOR stays inside the row and inside 128 bytes, for row
/// shifts 0-3. Padding comes first, smallest first. With Unpad, a row of
/// 2^k + p elements (p <= 2^k / 4: a tile padded by hand) also gets the
/// swizzles of rows of 2^k elements (SharedLayout::UnpadBytes).
std::vector<SharedLayout> layoutCandidates(const ArrayShape &S, unsigned MaxWidth,
                                           bool Unpad = false);

/// The byte offset, in layout L, of the access whose offset in the declared
/// layout is Offset (from the array's start; per-lane constants plus a
/// uniform symbolic part) and which reads Width bytes per lane on Active.
/// None, with Why, when the remapped offset is not exact (the symbolic part
/// does not move whole periods) or the access does not fit (it crosses a
/// row, or a swizzle unit).
std::optional<Poly> remapOffset(const Poly &Offset, unsigned Width, LaneMask Active,
                                const ArrayShape &S, const SharedLayout &L,
                                std::string *Why = nullptr);

/// The same for an access written as a full subscript of the array: its
/// subscripts (outermost first) and its byte offset (the element's, plus
/// what is inside it: a field, a chunk of a wide access). Exact whatever the
/// subscripts' symbolic parts for padding (the program's own subscripts are
/// re-weighed); for a swizzle, when they keep the row's swizzle bits and the
/// column's unit bits.
std::optional<Poly> remapSubscripts(const std::vector<Poly> &Subscripts, const Poly &Offset,
                                    unsigned Width, LaneMask Active, const ArrayShape &S,
                                    const SharedLayout &L, std::string *Why = nullptr);

/// floor(log2(V)) for V >= 1.
unsigned floorLog2(int64_t V);

/// Element offset o -> new element offset for a swizzle, as CuTe writes it:
/// Swizzle<B, M, S'>; none when the row length is not a power of two.
struct CuteSwizzle {
  unsigned B = 0, M = 0, S = 0;
};
std::optional<CuteSwizzle> cuteSwizzle(const ArrayShape &S, const SharedLayout &L);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_SHAREDLAYOUT_H
