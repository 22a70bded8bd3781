# ctest fuzz/op_calls_SEED: writes tests/fuzz/op_calls.py's script for SEED and runs it; the run must exit 0 and
# print `done N` (every odd call raised an amps error; a crash is a signal and a non-zero status).
# cmake -DPYTHON=... -DAMPS=... -DOPS=runtime/ops.def -DGEN=tests/fuzz/op_calls.py -DSEED=N -DCALLS=N -DWORK=dir -P
file(MAKE_DIRECTORY ${WORK})
set(script ${WORK}/op_calls_${SEED}.amps)
execute_process(COMMAND ${PYTHON} ${GEN} ${OPS} ${SEED} ${CALLS} OUTPUT_FILE ${script} RESULT_VARIABLE gen_status)
if(NOT gen_status EQUAL 0)
  message(FATAL_ERROR "op_calls.py failed: ${gen_status}")
endif()
execute_process(COMMAND ${AMPS} ${script} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT out MATCHES "^done [0-9]+\n$")
  message(FATAL_ERROR "${script} (seed ${SEED}) ended with status ${status}: a call crashed amps or escaped its "
                      "try/catch; find it with a shorter prefix of the script.\nstdout: ${out}\nstderr: ${err}")
endif()
