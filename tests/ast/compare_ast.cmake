# Runs `amps --dump-ast SCRIPT` and compares stdout with EXPECTED (an .sexp file).
# Usage: cmake -DAMPS=... -DSCRIPT=... -DEXPECTED=... -P compare_ast.cmake
execute_process(COMMAND ${AMPS} --dump-ast ${SCRIPT} OUTPUT_VARIABLE got ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "amps --dump-ast ${SCRIPT} exited ${rc}:\n${err}")
endif()
file(READ ${EXPECTED} want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "AST of ${SCRIPT} differs from ${EXPECTED}\n--- want ---\n${want}--- got ---\n${got}")
endif()
