# The one place that knows which LLVM/Clang the project is built against.
# Debian bookworm ships LLVM 22.1.x in bookworm-security; find_package(Clang 22)
# fails because its version file wants major.minor, hence 22.1 and the hints.
set(COALESCE_LLVM_MAJOR 22)
set(COALESCE_LLVM_VERSION 22.1)
set(COALESCE_LLVM_PREFIX "/usr/lib/llvm-${COALESCE_LLVM_MAJOR}" CACHE PATH
    "Installation prefix of LLVM/Clang ${COALESCE_LLVM_MAJOR}")

find_package(LLVM ${COALESCE_LLVM_VERSION} REQUIRED CONFIG
             HINTS "${COALESCE_LLVM_PREFIX}/lib/cmake/llvm" NO_DEFAULT_PATH)
find_package(Clang ${COALESCE_LLVM_VERSION} REQUIRED CONFIG
             HINTS "${COALESCE_LLVM_PREFIX}/lib/cmake/clang" NO_DEFAULT_PATH)

message(STATUS "coalesce-lint: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# Clang's resource directory (builtin headers, cuda_wrappers/). A libTooling
# binary outside ${LLVM_TOOLS_BINARY_DIR} would compute a wrong one and
# silently lose cuda_wrappers/, so the default is compiled in.
set(COALESCE_CLANG_RESOURCE_DIR
    "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
set(COALESCE_CLANG_TIDY "${LLVM_TOOLS_BINARY_DIR}/clang-tidy")
set(COALESCE_FILECHECK "${LLVM_TOOLS_BINARY_DIR}/FileCheck")
set(COALESCE_LIT "${LLVM_TOOLS_BINARY_DIR}/lit")

# Debian builds LLVM and Clang as shared libraries (with RTTI on): link the
# two shared libraries only. Never static clang*/LLVM* archives: the clang-tidy
# plugin would register duplicate cl::opts and abort clang-tidy.
set(COALESCE_CLANG_LIBS clang-cpp LLVM)

function(coalesce_use_llvm target)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  separate_arguments(_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${target} PUBLIC ${_defs})
  target_link_directories(${target} PUBLIC ${LLVM_LIBRARY_DIR})
endfunction()
