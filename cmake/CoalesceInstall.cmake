# What `cmake --install` puts where, by component:
#
#   cli          bin/coalesce-lint; share/coalesce-lint/ (verify mode's
#                script, the sample kernels verify mode runs by default); with
#                COALESCE_BUNDLE_RESOURCE_DIR, lib/coalesce-lint/clang/<major>/include
#                (clang's builtin headers, for a coalesce-lint that runs
#                without an LLVM installation: the wheel)
#   tidy-plugin  lib/CoalesceTidyModule.so (clang-tidy-22 --load=...)
#   development  include/coalesce-lint/ (the analysis library's headers, with
#                analyzer/ as include root: "Analysis.h", "driver/Runner.h",
#                "report/Report.h", and the rules' "Rule.h"), the static
#                libraries, and lib/cmake/CoalesceLint/ for
#                find_package(CoalesceLint): CoalesceLint::analyzer,
#                CoalesceLint::rules, CoalesceLint::support
#
# The executable finds the files of `cli` relative to itself
# (analyzer/driver/Installation.h), so the prefix can move (a virtual
# environment, ~/.local). Included once before the targets are defined (the
# layout) and once after (coalesce_install_rules).
include(GNUInstallDirs)

set(COALESCE_INSTALL_INCLUDE_DIR "${CMAKE_INSTALL_INCLUDEDIR}/coalesce-lint")
set(COALESCE_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/CoalesceLint")
set(COALESCE_INSTALL_RESOURCE_DIR "${CMAKE_INSTALL_LIBDIR}/coalesce-lint/clang/${LLVM_VERSION_MAJOR}")
set(COALESCE_INSTALL_DATA_DIR "${CMAKE_INSTALL_DATADIR}/coalesce-lint")

# The same directories relative to the executable's, compiled in.
function(_coalesce_from_bin out dir)
  if(IS_ABSOLUTE "${dir}")
    set(full "${dir}")
  else()
    set(full "${CMAKE_INSTALL_PREFIX}/${dir}")
  endif()
  file(RELATIVE_PATH rel "${CMAKE_INSTALL_FULL_BINDIR}" "${full}")
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()
_coalesce_from_bin(COALESCE_RESOURCE_DIR_FROM_BIN "${COALESCE_INSTALL_RESOURCE_DIR}")
_coalesce_from_bin(COALESCE_DATA_DIR_FROM_BIN "${COALESCE_INSTALL_DATA_DIR}")

option(COALESCE_BUNDLE_RESOURCE_DIR
       "Install clang's builtin headers with coalesce-lint (default: with COALESCE_STATIC_LLVM)"
       ${COALESCE_STATIC_LLVM})

# An installed executable that links the shared LLVM finds it where it was
# linked from (/usr/lib/llvm-22/lib is not on the loader's default path).
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

function(coalesce_install_rules)
  install(TARGETS coalesce-lint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
  install(FILES ${PROJECT_SOURCE_DIR}/tools/verify/coalesce_verify.py
                ${PROJECT_SOURCE_DIR}/tools/verify/verify_report.py
          DESTINATION ${COALESCE_INSTALL_DATA_DIR}/verify COMPONENT cli)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/sample_kernels/
          DESTINATION ${COALESCE_INSTALL_DATA_DIR}/sample_kernels COMPONENT cli
          FILES_MATCHING PATTERN "*.cu" PATTERN "*.cuh")
  if(COALESCE_BUNDLE_RESOURCE_DIR)
    # include/ is what a parse reads (-fsyntax-only); lib/ (runtime
    # libraries) and share/ (sanitizer lists) are for linking and codegen.
    install(DIRECTORY ${COALESCE_CLANG_RESOURCE_DIR}/include
            DESTINATION ${COALESCE_INSTALL_RESOURCE_DIR} COMPONENT cli)
  endif()

  install(TARGETS CoalesceTidyModule LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          COMPONENT tidy-plugin)

  # The analysis library. Headers keep their paths under analyzer/ (and the
  # rules' under rules/); the interpreter's walker (interp/WarpInterp.h) and
  # the embedded CUDA headers are private.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/analyzer/
          DESTINATION ${COALESCE_INSTALL_INCLUDE_DIR} COMPONENT development
          FILES_MATCHING PATTERN "*.h"
          PATTERN "builtin" EXCLUDE
          PATTERN "WarpInterp.h" EXCLUDE)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/
          DESTINATION ${COALESCE_INSTALL_INCLUDE_DIR} COMPONENT development
          FILES_MATCHING PATTERN "*.h" PATTERN "*.def"
          PATTERN "docs" EXCLUDE)
  set_target_properties(coalesceAnalyzer PROPERTIES EXPORT_NAME analyzer)
  set_target_properties(coalesceRules PROPERTIES EXPORT_NAME rules)
  set_target_properties(coalesceSupport PROPERTIES EXPORT_NAME support)
  install(TARGETS coalesceAnalyzer coalesceRules coalesceSupport coalesceClang
          EXPORT CoalesceLintTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
  install(EXPORT CoalesceLintTargets NAMESPACE CoalesceLint::
          DESTINATION ${COALESCE_INSTALL_CMAKE_DIR} COMPONENT development)

  include(CMakePackageConfigHelpers)
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/CoalesceLintConfig.cmake.in
    ${PROJECT_BINARY_DIR}/CoalesceLintConfig.cmake
    INSTALL_DESTINATION ${COALESCE_INSTALL_CMAKE_DIR})
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/CoalesceLintConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/CoalesceLintConfig.cmake
                ${PROJECT_BINARY_DIR}/CoalesceLintConfigVersion.cmake
          DESTINATION ${COALESCE_INSTALL_CMAKE_DIR} COMPONENT development)
endfunction()
