//===- Numbers.h - How numbers read in messages ---------------------------===//
//
// The one formatter of costs, ratios and counts in the text that every
// front-end prints (diagnostics, notes, warp-map captions, reasons): the
// value rounded to 3 decimals, without trailing zeros, never in scientific
// notation. JSON prints numbers itself (tools/output/Emit.h).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_NUMBERS_H
#define COALESCE_ANALYZER_REPORT_NUMBERS_H

#include <string>

namespace coalesce {

/// "4.875", "32", "0.333", "12345678.25".
std::string formatNumber(double V);

/// The indefinite article of a word or a number as it is read aloud: "an"
/// for "8-way", "11-way", "18", "80", "800" (eight..., eleven, eighteen),
/// "a" for "2-way", "16-way", "1.5".
const char *articleFor(const std::string &Word);

/// "65,536", "1,048,576": an integer count with thousands separators.
std::string formatCount(double V);

/// "1 sector", "4.5 sectors": a number and its unit, plural unless it reads 1.
std::string quantity(double V, const std::string &Unit);

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_NUMBERS_H
