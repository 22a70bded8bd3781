# Golden .amps scripts: every tests/lang/<feature>/<case>.amps is one ctest, checked by
# golden_runner against its inline `# expect` comments. Every example runs as a smoke test.
add_executable(golden_runner ${CMAKE_CURRENT_SOURCE_DIR}/golden/golden_runner.cpp)
file(GLOB_RECURSE AMPS_GOLDEN CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/lang/*.amps)
foreach(script ${AMPS_GOLDEN})
  file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${script})
  string(REGEX REPLACE "\\.amps$" "" name ${rel})
  add_test(NAME ${name} COMMAND golden_runner $<TARGET_FILE:amps> ${rel}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS lang TIMEOUT 60)
endforeach()
