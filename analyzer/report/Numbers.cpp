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

} // namespace coalesce
