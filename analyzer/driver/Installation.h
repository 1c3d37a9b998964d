//===- Installation.h - The files an installed coalesce-lint carries ------===//
//
// An installed coalesce-lint (`cmake --install`, or the wheel built by
// tools/wheel/) finds the files it needs at run time beside its executable,
// in the layout cmake/CoalesceInstall.cmake installs:
//
//   <prefix>/bin/coalesce-lint
//   <prefix>/lib/coalesce-lint/clang/<major>/include   clang's builtin headers
//                                                      (statically linked builds)
//   <prefix>/share/coalesce-lint/                      verify mode's script and
//                                                      the sample kernels
//
// They are looked up relative to the running executable, so the prefix can
// be anywhere (a virtual environment, ~/.local). Each function returns ""
// when the file is not there (a build tree, or a build that did not bundle
// it); callers then use the paths compiled in: LLVM's resource directory and
// the source tree's files.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_DRIVER_INSTALLATION_H
#define COALESCE_ANALYZER_DRIVER_INSTALLATION_H

#include <string>

namespace coalesce {

/// The directory of the running executable, symlinks resolved ("" if unknown).
std::string executableDir();
/// The clang resource directory installed with coalesce-lint, or "".
std::string installedResourceDir();
/// `<prefix>/share/coalesce-lint/<Relative>` if it exists, or "".
std::string installedDataFile(const std::string &Relative);

} // namespace coalesce

#endif // COALESCE_ANALYZER_DRIVER_INSTALLATION_H
