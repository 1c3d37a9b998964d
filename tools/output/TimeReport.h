//===- TimeReport.h - Where the time of a run went (--time-report) --------===//
//
// Renders the per-phase wall times that runAnalysis() measured (driver/
// Runner.h) with the front end's own output time: per file the precompiled
// headers, clang's parse, finding kernels and launches, and per kernel the
// warps interpreted and the time spent walking them and costing their
// events, most expensive first.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_TIMEREPORT_H
#define COALESCE_TOOLS_OUTPUT_TIMEREPORT_H

#include "driver/Runner.h"

#include <string>
#include <vector>

namespace coalesce {

struct FileTimeEntry {
  std::string File;
  FileTimes Times;
};

/// OutputSeconds: rules, filters and printing, after every file was analysed.
std::string renderTimeReport(const std::vector<FileTimeEntry> &Files, double OutputSeconds);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_TIMEREPORT_H
