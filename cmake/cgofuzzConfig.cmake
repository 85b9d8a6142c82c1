# cgofuzzConfig.cmake: find_package(cgofuzz) for C fuzz targets.
#
# Usable from an install (`cmake --install build --prefix DIR`: this file is
# DIR/lib/cmake/cgofuzz/cgofuzzConfig.cmake, found with
# -DCMAKE_PREFIX_PATH=DIR or in /usr, the libraries are DIR/lib/cgofuzz and
# the headers DIR/include; the tree may be moved) or from a build tree
# (-Dcgofuzz_DIR=<cgofuzz source>/cmake, with CGOFUZZ_BUILD_DIR or
# $ENV{CGOFUZZ_BUILD_DIR} naming the build directory, default
# <source>/build).
#
# Provides the imported targets cgofuzz::runtime and cgofuzz::main and
#   cgofuzz_add_fuzz_target(NAME SOURCES... [SEED_CORPUS dir])
# which builds NAME with clang's SanitizerCoverage (inline 8-bit counters,
# pc-table, trace-cmp) and -fno-builtin for the libc comparison functions
# (so their operands reach the mutator, as `cgofuzz cc` does), links the
# runtime and its main, and the comparison interceptors
# (libcgofuzz_interceptors.a) unless CMAKE_C_FLAGS/CMAKE_CXX_FLAGS have a
# sanitizer that intercepts them itself (address, memory, thread), and
# registers a ctest
# test NAME that runs the binary in regression mode (every target's f.Add
# seeds and testdata/fuzz/<Target>/* under SEED_CORPUS, default the current
# source directory), as `go test` does. The targets must be compiled by
# clang (the coverage flags are clang's).
get_filename_component(_cgofuzz_here "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
if(EXISTS "${_cgofuzz_here}/../../cgofuzz/libcgofuzz.a")
  get_filename_component(_cgofuzz_lib "${_cgofuzz_here}/../../cgofuzz" ABSOLUTE)
  get_filename_component(_cgofuzz_inc "${_cgofuzz_here}/../../../include"
                         ABSOLUTE)
elseif(EXISTS "${_cgofuzz_here}/../../libcgofuzz.a")
  get_filename_component(_cgofuzz_lib "${_cgofuzz_here}/../.." ABSOLUTE)
  get_filename_component(_cgofuzz_inc "${_cgofuzz_here}/../../../include"
                         ABSOLUTE)
else()
  get_filename_component(_cgofuzz_src "${_cgofuzz_here}/.." ABSOLUTE)
  if(NOT CGOFUZZ_BUILD_DIR)
    if(DEFINED ENV{CGOFUZZ_BUILD_DIR})
      set(CGOFUZZ_BUILD_DIR "$ENV{CGOFUZZ_BUILD_DIR}")
    else()
      set(CGOFUZZ_BUILD_DIR "${_cgofuzz_src}/build")
    endif()
  endif()
  set(_cgofuzz_lib "${CGOFUZZ_BUILD_DIR}")
  set(_cgofuzz_inc "${_cgofuzz_src}/include")
endif()
if(NOT EXISTS "${_cgofuzz_lib}/libcgofuzz.a"
   OR NOT EXISTS "${_cgofuzz_inc}/cgofuzz/target.h")
  set(cgofuzz_FOUND FALSE)
  set(cgofuzz_NOT_FOUND_MESSAGE
      "libcgofuzz.a not in ${_cgofuzz_lib} (set CGOFUZZ_BUILD_DIR)")
  return()
endif()

if(NOT TARGET cgofuzz::runtime)
  find_package(Threads REQUIRED)
  add_library(cgofuzz::runtime STATIC IMPORTED)
  set_target_properties(cgofuzz::runtime PROPERTIES
    IMPORTED_LOCATION "${_cgofuzz_lib}/libcgofuzz.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_cgofuzz_inc}"
    INTERFACE_LINK_LIBRARIES "Threads::Threads;m")
  add_library(cgofuzz::main STATIC IMPORTED)
  set_target_properties(cgofuzz::main PROPERTIES
    IMPORTED_LOCATION "${_cgofuzz_lib}/libcgofuzz_main.a"
    INTERFACE_LINK_LIBRARIES cgofuzz::runtime)
endif()
set(cgofuzz_INCLUDE_DIR "${_cgofuzz_inc}")
set(cgofuzz_FOUND TRUE)

set(CGOFUZZ_COVERAGE_FLAGS
    -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp
    -fno-builtin-memcmp -fno-builtin-bcmp -fno-builtin-strcmp
    -fno-builtin-strncmp -fno-builtin-strcasecmp -fno-builtin-strncasecmp
    -fno-builtin-strstr -fno-builtin-strcasestr -fno-builtin-memmem)

function(cgofuzz_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "SEED_CORPUS" "" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_compile_options(${name} PRIVATE ${CGOFUZZ_COVERAGE_FLAGS})
  target_link_libraries(${name} PRIVATE cgofuzz::main)
  if(EXISTS "${_cgofuzz_lib}/libcgofuzz_interceptors.a" AND NOT
     "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}" MATCHES
     "-fsanitize=[^ ]*(address|memory|thread)")
    # Whole archive: the definitions must win over libc's.
    target_link_libraries(${name} PRIVATE -Wl,--whole-archive
      "${_cgofuzz_lib}/libcgofuzz_interceptors.a" -Wl,--no-whole-archive dl)
  endif()
  if(NOT ARG_SEED_CORPUS)
    set(ARG_SEED_CORPUS "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  add_test(NAME ${name} COMMAND ${name}
           WORKING_DIRECTORY "${ARG_SEED_CORPUS}")
endfunction()
