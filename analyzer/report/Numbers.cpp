//===- Numbers.cpp - How numbers read in messages -------------------------===//

#include "report/Numbers.h"

#include <cmath>
#include <cstdio>

namespace coalesce {

std::string formatNumber(double V) {
  if (!std::isfinite(V))
    return std::isnan(V) ? "nan" : V < 0 ? "-inf" : "inf";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.3f", V);
  std::string S = Buf;
  // Drop the zeros after the point, and the point when nothing is left.
  const size_t Dot = S.find('.');
  if (Dot != std::string::npos) {
    size_t End = S.find_last_not_of('0');
    if (End == Dot)
      --End;
    S.erase(End + 1);
  }
  if (S == "-0")
    S = "0";
  return S;
}

const char *articleFor(const std::string &Word) {
  if (Word.empty())
    return "a";
  const char C = Word[0];
  if (C == '8')
    return "an";
  if (C >= '0' && C <= '9') {
    // "11" and "18" read eleven and eighteen; so do 11,000 to 18,999 and
    // 11 to 18 million (the digits up to the first non-digit).
    size_t Digits = 0;
    while (Digits < Word.size() && Word[Digits] >= '0' && Word[Digits] <= '9')
      ++Digits;
    const bool ElevenOrEighteen = Word.compare(0, 2, "11") == 0 || Word.compare(0, 2, "18") == 0;
    return ElevenOrEighteen && Digits % 3 == 2 ? "an" : "a";
  }
  return std::string("aeiouAEIOU").find(C) != std::string::npos ? "an" : "a";
}

std::string formatCount(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.0f", V < 0 ? -V : V);
  std::string Digits = Buf, Out;
  for (size_t I = 0; I < Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += ',';
    Out += Digits[I];
  }
  return (V < 0 && Out != "0" ? "-" : "") + Out;
}

std::string quantity(double V, const std::string &Unit) {
  std::string N = formatNumber(V);
  return N + " " + Unit + (N == "1" ? "" : "s");
}

} // namespace coalesce
