//===- TimeReport.cpp - Where the time of a run went (--time-report) ------===//

#include "TimeReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace coalesce {

namespace {

void row(llvm::raw_ostream &OS, double Seconds, double Total, llvm::StringRef What) {
  OS << llvm::format("  %9.3f s %5.1f%%  ", Seconds,
                     Total > 0 ? 100.0 * Seconds / Total : 0.0)
     << What << "\n";
}

} // namespace

std::string renderTimeReport(const std::vector<FileTimeEntry> &Files, double OutputSeconds) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  double Total = OutputSeconds;
  for (const FileTimeEntry &F : Files)
    Total += F.Times.total();
  OS << "coalesce-lint: time report (wall seconds; files analysed in parallel overlap)\n";
  for (const FileTimeEntry &F : Files) {
    const FileTimes &T = F.Times;
    OS << F.File << ": " << llvm::format("%.3f", T.total()) << " s\n";
    row(OS, T.Preamble, Total, "precompiled headers (look-up or build)");
    row(OS, T.Parse, Total, "clang parse");
    row(OS, T.Phases.FindKernels, Total, "finding kernels and launches");
    double Interp = 0, Costing = 0;
    unsigned Warps = 0;
    for (const KernelTime &K : T.Phases.Kernels) {
      Interp += K.Interpret;
      Costing += K.Costing;
      Warps += K.Warps;
    }
    row(OS, Interp, Total,
        "interpretation (" + std::to_string(T.Phases.Kernels.size()) + " kernel" +
            (T.Phases.Kernels.size() == 1 ? "" : "s") + ", " + std::to_string(Warps) + " warp" +
            (Warps == 1 ? "" : "s") + ")");
    row(OS, Costing, Total, "cost (records from events)");
    std::vector<const KernelTime *> ByTime;
    for (const KernelTime &K : T.Phases.Kernels)
      ByTime.push_back(&K);
    std::stable_sort(ByTime.begin(), ByTime.end(), [](const KernelTime *A, const KernelTime *B) {
      return A->Interpret + A->Costing > B->Interpret + B->Costing;
    });
    for (const KernelTime *K : ByTime)
      OS << llvm::format("    %9.3f s  interpret %.3f s, cost %.3f s, ",
                         K->Interpret + K->Costing, K->Interpret, K->Costing)
         << K->Configs << " launch configuration" << (K->Configs == 1 ? "" : "s") << ", "
         << K->Warps << " warp" << (K->Warps == 1 ? "" : "s") << " in " << K->Walks << " walk"
         << (K->Walks == 1 ? "" : "s") << ": " << K->Name << "\n";
    // Parts of the analysis spent waiting for nvcc and nvdisasm.
    if (T.WitnessWait >= 0.01) // a cache read is not worth a line
      row(OS, T.WitnessWait, Total,
          "of the analysis: waiting for the compiler witness (nvcc, nvdisasm; what the parse "
          "did not hide)");
    if (T.LayoutCompile >= 0.01)
      row(OS, T.LayoutCompile, Total,
          "of the analysis: compiling layout fixes' edited code (nvcc, nvdisasm)");
  }
  OS << "output: " << llvm::format("%.3f", OutputSeconds)
     << " s (rules, filters, printing)\n";
  OS << "total: " << llvm::format("%.3f", Total) << " s\n";
  return S;
}

} // namespace coalesce
