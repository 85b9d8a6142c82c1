# cgofuzz_unit, the unit tests (one gtest file per module): from
# tests/CMakeLists.txt, and alone for a cross build (CGOFUZZ_TESTS=UNIT in
# the top CMakeLists.txt), where GoogleTest is built from its sources.
file(GLOB CGOFUZZ_UNIT_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/*.cc)
add_executable(cgofuzz_unit ${CGOFUZZ_UNIT_SRC})
if(TARGET GTest::gtest_main)
  target_link_libraries(cgofuzz_unit PRIVATE cgofuzz GTest::gtest_main m)
else()
  target_link_libraries(cgofuzz_unit PRIVATE cgofuzz gtest_main m)
endif()
target_compile_definitions(cgofuzz_unit PRIVATE
  CGOFUZZ_TESTDATA="${CMAKE_SOURCE_DIR}/testdata")
# The cgo loop and its mutations (tests/unit/test_cgo_mutate.cc,
# test_cgo_pick.cc) are compiled into the tests from their source:
# libcgofuzz_cgo.a is never sanitized, the tests' build is.
target_sources(cgofuzz_unit PRIVATE
  ${CMAKE_SOURCE_DIR}/csrc/runtime/cgo/cgo_mutate.c
  ${CMAKE_SOURCE_DIR}/csrc/runtime/cgo/cgo_loop.c)
target_include_directories(cgofuzz_unit PRIVATE
  ${CMAKE_SOURCE_DIR}/csrc/runtime/cgo)
