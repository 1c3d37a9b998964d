//===- LaunchFacts.h - What a launch tells the interpreter ----------------===//
//
// The output of the launch stage (Launches.h) that the interpreter reads:
// the block and grid shape and the kernel arguments whose values the host
// code makes known.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCH_LAUNCHFACTS_H
#define COALESCE_ANALYZER_LAUNCH_LAUNCHFACTS_H

#include "launch/StatedFacts.h"
#include "model/TensorMap.h"
#include "report/Report.h"

#include <map>
#include <string>
#include <utility>

namespace clang {
class ParmVarDecl;
}

namespace coalesce {

/// Facts about one launch of a kernel that the interpreter uses.
struct LaunchFacts {
  LaunchConfig Config;
  std::map<const clang::ParmVarDecl *, int64_t> IntArgs;
  std::map<const clang::ParmVarDecl *, int64_t> PtrOffsets;
  /// Integer fields of struct parameters known at the launch ("p" ".width").
  std::map<std::pair<const clang::ParmVarDecl *, std::string>, int64_t> FieldArgs;
  /// Tensor maps (CUtensorMap parameters) an encode call of the host code
  /// made: what TMA copies through them do (model/TensorMap.h).
  std::map<const clang::ParmVarDecl *, TensorMapEncoding> TensorMaps;
  /// What the user states about the kernel's parameters (--assume, assume
  /// comments): applies where the launch leaves a value unknown.
  std::vector<StatedFact> Stated;
  /// Host variables (`n = atoi(argv[1])`) that took a stated value before
  /// the launch (by name): the launch's values rest on those facts.
  std::vector<std::string> HostStated;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCH_LAUNCHFACTS_H
