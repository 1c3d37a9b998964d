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

# Debian builds LLVM and Clang as shared libraries (with RTTI on): targets
# link the two shared libraries, through coalesceClang (below). Never static
# clang*/LLVM* archives in the clang-tidy plugin: it would register duplicate
# cl::opts and abort clang-tidy.
#
# COALESCE_STATIC_LLVM (the wheel, tools/wheel/): the coalesce-lint executable
# alone links clang's and LLVM's static archives, libstdc++ and libgcc
# statically, so that it runs where no LLVM is installed. Only the final link
# changes; the plugin, the tests and the installed CMake package keep the
# shared libraries.
option(COALESCE_STATIC_LLVM
       "Link the coalesce-lint executable statically with LLVM/Clang (for the wheel)" OFF)

# What a target that uses clang links: include directories, LLVM's
# definitions, and the libraries. An executable with the target property
# COALESCE_STATIC_LLVM gets the static archives (coalesce_link_llvm_statically),
# everything else the shared libraries.
add_library(coalesceClang INTERFACE)
set_target_properties(coalesceClang PROPERTIES EXPORT_NAME clang)
# (The installed package adds the headers and definitions of the LLVM it
# finds: cmake/CoalesceLintConfig.cmake.in.)
target_include_directories(coalesceClang SYSTEM INTERFACE
  "$<BUILD_INTERFACE:${LLVM_INCLUDE_DIRS};${CLANG_INCLUDE_DIRS}>")
separate_arguments(_coalesce_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
list(TRANSFORM _coalesce_llvm_defs REPLACE "^-D" "")
target_compile_definitions(coalesceClang INTERFACE
  "$<BUILD_INTERFACE:${_coalesce_llvm_defs}>")
set(_coalesce_static "$<BOOL:$<TARGET_PROPERTY:COALESCE_STATIC_LLVM>>")
target_link_libraries(coalesceClang INTERFACE
  "$<BUILD_INTERFACE:$<$<NOT:${_coalesce_static}>:clang-cpp>>"
  "$<BUILD_INTERFACE:$<$<NOT:${_coalesce_static}>:LLVM>>"
  "$<INSTALL_INTERFACE:clang-cpp>" "$<INSTALL_INTERFACE:LLVM>")
set(COALESCE_CLANG_LIBS coalesceClang)

# A target that uses clang's and LLVM's headers and libraries.
function(coalesce_use_llvm target)
  target_link_libraries(${target} PUBLIC coalesceClang)
endfunction()

# The static archives a libTooling executable needs. Clang's: clangTooling,
# clangASTMatchers and the clang libraries they depend on, as clang's CMake
# package lists them. LLVM's: every component archive, in one link group with
# clang's; the linker takes only the members that are referenced. (Debian's
# package says "LLVM", the shared library, where clang's archives need LLVM
# components, so the components cannot be read from it.) Then zstd and zlib,
# statically too.
function(_coalesce_static_llvm_archives out)
  set(todo clangTooling clangASTMatchers)
  set(seen "")
  while(todo)
    list(POP_FRONT todo lib)
    if(lib IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${lib})
    get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
    foreach(dep IN LISTS deps)
      if(dep MATCHES "^clang[A-Za-z]+$" AND TARGET ${dep})
        list(APPEND todo ${dep})
      endif()
    endforeach()
  endwhile()
  foreach(lib IN LISTS LLVM_AVAILABLE_LIBS)
    if(lib MATCHES "^LLVM[A-Za-z0-9]+$")
      list(APPEND seen ${lib})
    endif()
  endforeach()
  set(archives "")
  foreach(lib IN LISTS seen)
    set(archive "${LLVM_LIBRARY_DIR}/lib${lib}.a")
    if(EXISTS "${archive}")
      list(APPEND archives "${archive}")
    elseif(lib MATCHES "^clang")
      message(FATAL_ERROR "COALESCE_STATIC_LLVM: ${archive} is missing (libclang-${LLVM_VERSION_MAJOR}-dev)")
    endif()
  endforeach()
  foreach(name zstd z)
    find_library(COALESCE_STATIC_${name} NAMES lib${name}.a)
    if(NOT COALESCE_STATIC_${name})
      message(FATAL_ERROR "COALESCE_STATIC_LLVM: lib${name}.a not found "
                          "(libzstd-dev, zlib1g-dev; tools/bootstrap.sh installs them)")
    endif()
  endforeach()
  set(${out} -Wl,--start-group ${archives} -Wl,--end-group
      ${COALESCE_STATIC_zstd} ${COALESCE_STATIC_z} -lpthread -ldl -lrt -lm PARENT_SCOPE)
endfunction()

if(COALESCE_STATIC_LLVM)
  _coalesce_static_llvm_archives(_coalesce_archives)
  list(LENGTH _coalesce_archives _n)
  message(STATUS "coalesce-lint: linking LLVM/Clang statically (${_n} link items)")
  foreach(item IN LISTS _coalesce_archives)
    target_link_libraries(coalesceClang INTERFACE
      "$<BUILD_INTERFACE:$<${_coalesce_static}:${item}>>")
  endforeach()
  target_link_options(coalesceClang INTERFACE
    "$<BUILD_INTERFACE:$<${_coalesce_static}:-static-libstdc++>>"
    "$<BUILD_INTERFACE:$<${_coalesce_static}:-static-libgcc>>")
endif()

# Makes `target` (an executable) link LLVM/Clang statically when
# COALESCE_STATIC_LLVM is on; otherwise it links the shared libraries.
function(coalesce_link_llvm_statically target)
  if(COALESCE_STATIC_LLVM)
    set_target_properties(${target} PROPERTIES COALESCE_STATIC_LLVM ON)
  endif()
endfunction()
