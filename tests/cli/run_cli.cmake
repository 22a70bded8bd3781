# Runs the amps binary with ARGS ('|'-separated) and checks its exit status and output.
# Usage: cmake -DAMPS=... -DARGS="a|b" -DSTATUS=N [-DSTDOUT=text] [-DSTDERR=text] -P run_cli.cmake
string(REPLACE "|" ";" argv "${ARGS}")
execute_process(COMMAND ${AMPS} ${argv} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                TIMEOUT 30)
if(NOT rc STREQUAL "${STATUS}")
  message(FATAL_ERROR "amps ${ARGS}: exit status ${rc}, expected ${STATUS}\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "amps ${ARGS}: stdout does not match '${STDOUT}':\n${out}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "amps ${ARGS}: stderr does not match '${STDERR}':\n${err}")
endif()
