# Golden .amps scripts: every tests/lang/<feature>/<case>.amps is one ctest, checked by
# golden_runner against its inline `# expect` comments. Every example runs as a smoke test.
add_executable(golden_runner ${CMAKE_CURRENT_SOURCE_DIR}/golden/golden_runner.cpp)
file(GLOB_RECURSE AMPS_GOLDEN CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/lang/*.amps)
foreach(script ${AMPS_GOLDEN})
  file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${script})
  string(REGEX REPLACE "\\.amps$" "" name ${rel})
  add_test(NAME ${name} COMMAND golden_runner $<TARGET_FILE:amps> ${rel}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS lang TIMEOUT 60 SKIP_RETURN_CODE 77)  # 77: `# requires: cuda`, no GPU
endforeach()

# AST dumps: every tests/ast/NAME.amps must print exactly tests/ast/NAME.sexp with --dump-ast.
file(GLOB AMPS_AST_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/ast/*.amps)
foreach(script ${AMPS_AST_CASES})
  get_filename_component(case ${script} NAME_WE)
  add_test(NAME ast/${case}
           COMMAND ${CMAKE_COMMAND} -DAMPS=$<TARGET_FILE:amps> -DSCRIPT=${script}
                   -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/ast/${case}.sexp -P ${CMAKE_CURRENT_SOURCE_DIR}/ast/compare_ast.cmake)
  set_tests_properties(ast/${case} PROPERTIES LABELS lang TIMEOUT 60)
endforeach()

# Command line (LANGUAGE.md §5): exit status 2 for a bad command line, 0/1 otherwise.
function(amps_cli_test name status args)
  add_test(NAME cli/${name}
           COMMAND ${CMAKE_COMMAND} -DAMPS=$<TARGET_FILE:amps> "-DARGS=${args}" -DSTATUS=${status} ${ARGN}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_cli.cmake)
  set_tests_properties(cli/${name} PROPERTIES LABELS lang TIMEOUT 60)
endfunction()
amps_cli_test(unknown_flag 2 "--no-such-flag" "-DSTDERR=unknown option '--no-such-flag'")
amps_cli_test(unknown_short_flag 2 "-x|script.amps")
amps_cli_test(e_without_code 2 "-e")
amps_cli_test(version 0 "--version" "-DSTDOUT=^amps [0-9]")
amps_cli_test(help 0 "--help" "-DSTDOUT=Exit status: 0 success, 1 error in the script, 2 bad command line")
amps_cli_test(run_code 0 "-e|print(1 + 2)" "-DSTDOUT=^3\n$")
amps_cli_test(code_error_exit_1 1 "-e|print(nope)" "-DSTDERR=^<string>:1:7: NameError: name 'nope' is not defined")
# The dump stages report a syntax error with its source line intact (it was printed from freed memory).
amps_cli_test(dump_ast_syntax_error 1 "--dump-ast|-e|let a_longer_name = 1 {" "-DSTDERR=1 \\| let a_longer_name = 1 {\n")
amps_cli_test(missing_script 1 "no_such_script.amps" "-DSTDERR=FileNotFoundError: cannot open script 'no_such_script.amps'")
amps_cli_test(args_reach_script 0 "-e|print(args)|a|b" "-DSTDOUT=\\['a', 'b'\\]")
# exit()/sys.exit(): Python's SystemExit as the process status, finally blocks run, no traceback; a text code is
# printed on stderr with status 1.
amps_cli_test(exit_status 3 "-e|try { exit(3) } finally { print('cleanup') }" "-DSTDOUT=^cleanup\n$" "-DSTDERR=^$")
amps_cli_test(sys_exit_zero 0 "-e|import sys\nsys.exit()\nprint('not reached')" "-DSTDOUT=^$")
amps_cli_test(exit_text_code 1 "-e|exit('bad config')" "-DSTDERR=^bad config\n$")
amps_cli_test(exit_caught 0 "-e|try { exit(4) } catch e { print(e.kind, e.message) }" "-DSTDOUT=^SystemExit 4\n$")
# Exception classes (docs/language.md §7.6): an uncaught user exception prints its class name as the kind, with the
# call stack, and exits 1; a `raise ... from` cause is printed after the error; a SystemExit (a subclass too) that
# `except Exception` lets through exits with its code.
amps_cli_test(uncaught_user_exception 1 "-e|class ConfigError(ValueError) { }\nfn f() { raise ConfigError('bad lr') }\nf()"
              "-DSTDERR=^<string>:2:16: ConfigError: bad lr\n.*call stack \\(most recent call first\\):\n  in f at <string>:2:16\n  in <script> at <string>:3:1\n$")
amps_cli_test(uncaught_cause 1 "-e|try { {}['k'] } except KeyError as e { raise RuntimeError('no k') from e }"
              "-DSTDERR=^<string>:1:[0-9]+: RuntimeError: no k\n.*\nThe error above was raised from this one [^\n]*\n<string>:1:7: KeyError: 'k'\n")
amps_cli_test(raise_system_exit_class 5 "-e|class Quit(SystemExit) { }\ntry { raise Quit(5) } except Exception { print('not an Exception') }" "-DSTDOUT=^$")
amps_cli_test(sys_argv_and_streams 0 "-e|import sys\nprint(sys.argv)\nsys.stderr.write('err line\\n')|x"
              "-DSTDOUT=^\\['-c', 'x'\\]\n$" "-DSTDERR=^err line\n$")
amps_cli_test(argparse_help 0 "${CMAKE_CURRENT_SOURCE_DIR}/cli/argparse_demo.amps|--help"
              "-DSTDOUT=^usage: argparse_demo.amps \\[-h\\] \\[--lr LR\\]\n\ndemo\n")
amps_cli_test(argparse_value 0 "${CMAKE_CURRENT_SOURCE_DIR}/cli/argparse_demo.amps|--lr|0.5" "-DSTDOUT=^0.5\n$")
amps_cli_test(argparse_bad_value 2 "${CMAKE_CURRENT_SOURCE_DIR}/cli/argparse_demo.amps|--lr|x"
              "-DSTDERR=argparse_demo.amps: error: argument --lr: invalid float value: 'x'\n$")
amps_cli_test(profile_table 0 "--profile|-e|let a = ones(4, 4)\nprint(mm(a, a).sum().item())" "-DSTDOUT=^64.0\n$"
              "-DSTDERR=^profile: [0-9.]+ ms wall, [0-9.]+ ms \\([0-9]+%\\) in 3 op calls.*\n  mm +float32 +cpu +1 ")
# --profile-gpu waits for the device around each op (no device here: the same table); --profile-rows cuts it.
amps_cli_test(profile_gpu_rows 0 "--profile-gpu|--profile-rows|1|-e|let a = ones(4, 4)\nprint(mm(a, a).sum().item())"
              "-DSTDOUT=^64.0\n$" "-DSTDERR=in 3 op calls.*\n  mm +float32 +cpu +1 [^\n]*\n  \\(2 more rows")
amps_cli_test(profile_after_an_error 1 "--profile|-e|let a = ones(2, 2)\nmm(a, ones(3, 3))"
              "-DSTDERR=mm: shapes \\(2, 2\\) and \\(3, 3\\) cannot be multiplied.*\nprofile: .* in 2 op calls")
# Both streams into one file (a non-terminal, so stdout is block-buffered): the script's order is kept.
add_test(NAME cli/stdout_flushed_before_diagnostics
         COMMAND sh -c "'$<TARGET_FILE:amps>' '${CMAKE_CURRENT_SOURCE_DIR}/cli/stream_order.amps' > stream_order.log 2>&1; cat stream_order.log"
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli/stdout_flushed_before_diagnostics PROPERTIES LABELS lang TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "^first\nloop: 1/1[^\n]*\nlast\n$")

# Every benchmark script runs at a tiny size, so `make bench` cannot be the first to find one broken.
foreach(spec "dispatch|50" "mlp|1" "cnn|1" "gpt_block|1|2|8|32|2|1|16" "lstm|1" "mm|5|bf16|512" "cuda_ops|1")
  string(REPLACE "|" ";" parts "${spec}")
  list(POP_FRONT parts name)
  string(REPLACE ";" "|" rest "${parts}")
  amps_cli_test(bench_${name} 0 "${PROJECT_SOURCE_DIR}/bench/${name}.amps|${rest}"
                "-DSTDOUT=\"bench\": \"${name}\", \"case\": \"[a-z0-9_]+\"")
endforeach()

# The dispatch floor program, and run_bench.py's ratio and finding logic on made-up medians.
add_test(NAME bench/add_raw COMMAND $<TARGET_FILE:add_raw> 100)
set_tests_properties(bench/add_raw PROPERTIES LABELS bench TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "\"case\": \"add_1\", \"side\": \"raw\", \"us_per_op\": [0-9.]+}\n.*\"add_64x64\"")
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME bench/run_bench_findings COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/bench/test_run_bench.py)
set_tests_properties(bench/run_bench_findings PROPERTIES LABELS bench TIMEOUT 60)

# Fuzzing smoke: every script-visible op called with odd arguments must raise amps errors, never crash the process.
foreach(seed 1 2 3 4)
  add_test(NAME fuzz/op_calls_${seed}
           COMMAND ${CMAKE_COMMAND} -DPYTHON=$<TARGET_FILE:Python3::Interpreter> -DAMPS=$<TARGET_FILE:amps>
                   -DOPS=${PROJECT_SOURCE_DIR}/runtime/ops.def -DGEN=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/op_calls.py
                   -DSEED=${seed} -DCALLS=30 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/fuzz
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_op_calls.cmake)
  set_tests_properties(fuzz/op_calls_${seed} PROPERTIES LABELS unit TIMEOUT 300)
endforeach()

# The REPL through a pseudo-terminal (forkpty), plus piped stdin.
add_executable(repl_tests ${CMAKE_CURRENT_SOURCE_DIR}/repl/repl_test.cpp)
target_link_libraries(repl_tests PRIVATE GTest::gtest util)
add_test(NAME repl COMMAND repl_tests $<TARGET_FILE:amps>)
set_tests_properties(repl PROPERTIES LABELS "unit;repl" TIMEOUT 120)

file(GLOB AMPS_EXAMPLES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*.amps)
foreach(script ${AMPS_EXAMPLES})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME examples/${name} COMMAND golden_runner --smoke $<TARGET_FILE:amps> ${script}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(examples/${name} PROPERTIES LABELS examples TIMEOUT 600)
endforeach()
