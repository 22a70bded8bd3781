# AMP command-line behaviour: --trace-casts, --dump-cast-lists and the AMPS_USE_BF16 / AMPS_USE_F16
# whole-program precision flags (run through tests/cli/run_cli.cmake; amps_cli_test is defined above).
amps_cli_test(trace_casts 0 "--trace-casts|-e|let a = randn(2, 2)\nautocast cpu<> { let y = mm(a, a)\nlet z = exp(y) }"
              "-DSTDERR=<string>:2:[0-9]+: autocast: mm\\(float32, float32\\) -> bfloat16 \\[lower_precision_fp\\] under autocast cpu<bfloat16>\n<string>:3:[0-9]+: autocast: exp\\(bfloat16\\) -> bfloat16 \\[none\\]")
amps_cli_test(trace_casts_off 0 "-e|autocast cpu<> { mm(randn(2, 2), randn(2, 2)) }\nprint(1)" "-DSTDOUT=^1\n$")
amps_cli_test(dump_cast_lists 0 "--dump-cast-lists" "-DSTDOUT=^<!-- Generated from amp/policy_table.def.*\\| banned \\| `binary_cross_entropy` \\|")

# amps_env_cli_test(NAME ENV STATUS ARGS ...): amps_cli_test with one environment variable set.
function(amps_env_cli_test name env status args)
  add_test(NAME cli/${name}
           COMMAND ${CMAKE_COMMAND} -E env ${env} ${CMAKE_COMMAND} -DAMPS=$<TARGET_FILE:amps> "-DARGS=${args}"
                   -DSTATUS=${status} ${ARGN} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_cli.cmake)
  set_tests_properties(cli/${name} PROPERTIES LABELS lang TIMEOUT 60)
endfunction()
amps_env_cli_test(use_bf16 AMPS_USE_BF16=1 0
  "-e|let x = randn(2)\nprint(x.dtype, (x * 2.0).dtype, x.to(float32).dtype, zeros(2).dtype, arange(3).dtype)\nautocast cpu<> { print(mse_loss(randn(2), randn(2)).dtype) }"
  "-DSTDOUT=^bfloat16 bfloat16 bfloat16 bfloat16 int64\nbfloat16\n$"
  "-DSTDERR=UserWarning: AMPS_USE_BF16 is set: every float32 op runs in bfloat16, which overrides autocast's per-op precision")
amps_env_cli_test(use_f16 AMPS_USE_F16=1 0 "-e|let w = randn(2, requires_grad=true)\nprint(w.dtype, w.requires_grad, (w + 1.0).dtype)"
  "-DSTDOUT=^float16 true float16\n$")
amps_env_cli_test(use_bf16_off AMPS_USE_BF16=0 0 "-e|print(randn(2).dtype)" "-DSTDOUT=^float32\n$")
