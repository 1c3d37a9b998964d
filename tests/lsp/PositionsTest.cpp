//===- PositionsTest.cpp - LSP positions <-> byte columns, edits ----------===//

#include "Positions.h"

#include <gtest/gtest.h>

using namespace coalesce::lsp;
using llvm::lsp::Position;

namespace {

// "é" is 2 bytes in UTF-8, 1 UTF-16 unit; "𝑥" (U+1D465) 4 bytes, 2 units.
const std::string Text = "int a;\r\n// é 𝑥\nx = in[i];";

TEST(Positions, ByteColumnsAsUtf16Utf8Utf32) {
  LineTable T(Text);
  ASSERT_EQ(T.lines(), 3u);
  EXPECT_EQ(T.line(0), "int a;") << "the \\r of \\r\\n is not part of the line";
  // Line 2, the byte after "𝑥" (byte column 11: "// " 3 + "é" 2 + " " 1 + "𝑥" 4 = 10 bytes).
  EXPECT_EQ(T.position(2, 11, Encoding::UTF16), Position(1, 7));
  EXPECT_EQ(T.position(2, 11, Encoding::UTF8), Position(1, 10));
  EXPECT_EQ(T.position(2, 11, Encoding::UTF32), Position(1, 6));
  EXPECT_EQ(T.endOfLine(1, Encoding::UTF16), Position(1, 7));
  EXPECT_EQ(T.endOfLine(0, Encoding::UTF16), Position(0, 6));
}

TEST(Positions, OffsetsRoundTrip) {
  LineTable T(Text);
  for (Encoding E : {Encoding::UTF8, Encoding::UTF16, Encoding::UTF32})
    for (size_t Off : {size_t(0), size_t(5), size_t(8), size_t(11), size_t(18), Text.size()}) {
      Position P = T.position(Off, E);
      EXPECT_EQ(T.offset(P, E), static_cast<long long>(Off)) << Off << " " << encodingName(E);
    }
}

TEST(Positions, OutOfRangeIsClamped) {
  LineTable T(Text);
  EXPECT_EQ(T.offset(Position(0, 99), Encoding::UTF16), 6) << "end of line, before \\r\\n";
  EXPECT_EQ(T.offset(Position(9, 0), Encoding::UTF16), static_cast<long long>(Text.size()));
  EXPECT_EQ(T.offset(Position(-1, 0), Encoding::UTF16), -1);
  // Inside the surrogate pair of "𝑥": after the character.
  EXPECT_EQ(T.offset(Position(1, 6), Encoding::UTF16), 8 + 10);
}

TEST(Positions, IncrementalChanges) {
  std::string S = Text;
  llvm::lsp::TextDocumentContentChangeEvent C;
  C.range = llvm::lsp::Range(Position(1, 7), Position(1, 7)); // after "𝑥" in UTF-16
  C.text = "!";
  ASSERT_TRUE(applyChange(S, C, Encoding::UTF16));
  EXPECT_EQ(S, "int a;\r\n// é 𝑥!\nx = in[i];");
  C.range = llvm::lsp::Range(Position(0, 4), Position(2, 4)); // across lines
  C.text = "";
  ASSERT_TRUE(applyChange(S, C, Encoding::UTF16));
  EXPECT_EQ(S, "int in[i];");
  C.range = llvm::lsp::Range(Position(0, 3), Position(0, 1)); // end before start
  EXPECT_FALSE(applyChange(S, C, Encoding::UTF16));
  C.range.reset(); // the whole text
  C.text = "new";
  ASSERT_TRUE(applyChange(S, C, Encoding::UTF16));
  EXPECT_EQ(S, "new");
}

} // namespace
