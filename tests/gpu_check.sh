#!/usr/bin/env bash
# Every GPU check of issue 8 in one device-tool call (a session is lent the machine for 15 minutes in all, and
# each call costs a start-up): run from the repository root there, with `.gpu` carried (tests/cuda_bundle.sh
# built it here):
#   tests/gpu_check.sh [STEPS]       STEPS: any of probe units golden examples bench (default: all, in that order)
# Each step's output goes to $OUT/gpu_check/<step>.log (OUT: the device tool's folder, else /tmp), a one-line
# verdict per step to stdout and $OUT/gpu_check/summary.txt; a failing step does not stop the others. Each step
# has its own time limit (LIMITS below) so that the whole run fits in one call with time left to rerun it; the
# unit step survives a crashing or hanging test (it reruns the binary without that test and names it).
set -u
cd "$(dirname "$0")/.."
out="${OUT:-/tmp}/gpu_check"
mkdir -p "$out"
amps="/tmp/amps-gpu/bin/amps"
steps=("$@")
[ $# -eq 0 ] && steps=(probe units golden examples bench)
declare -A LIMITS=([probe]=30 [units]=120 [golden]=60 [examples]=90 [bench]=150)

step_probe() {
  nvidia-smi -L
  time .gpu/run.sh amps -e 'print(cuda.available(), cuda.device_count(), cuda.memory_allocated())'
}

# run_gtest BIN [FILTER]: the whole binary; when it crashes or hangs (no summary line), the test it was in is
# named and the binary runs again without it (at most 8 times).
run_gtest() {
  local bin=$1 filter=${2:-*} excluded="" log rc last
  log=$(mktemp)
  for _ in 1 2 3 4 5 6 7 8; do
    timeout 60 .gpu/run.sh "$bin" --gtest_filter="$filter${excluded:+-$excluded}" > "$log" 2>&1
    rc=$?
    cat "$log"
    grep -q '^\[==========\] .* ran\.' "$log" && { [ -z "$excluded" ] && return $rc; return 1; }
    last=$(grep '^\[ RUN      \]' "$log" | tail -1 | awk '{print $4}')
    [ -n "$last" ] || return 1
    echo "CRASHED OR HUNG (exit $rc) in $last: running $bin again without it"
    excluded="${excluded:+$excluded:}$last"
  done
  return 1
}
step_units() {
  run_gtest cuda_tests; local rc=$?
  echo "== failed or crashed:"; grep -E '^\[  FAILED  \] [A-Za-z]|^CRASHED' "$out/units.log" | sort -u
  return $rc
}
step_golden() {
  local failed=0
  for f in tests/lang/cuda/*.amps; do
    timeout 30 .gpu/run.sh golden_runner "$amps" "$f"
    case $? in 0) echo "ok $f" ;; 77) echo "skipped $f" ;; *) echo "FAILED $f"; failed=1 ;; esac  # 77: no GPU
  done
  return $failed
}
step_examples() {  # every example but the main job (its dataset is not on that machine), on cuda when present
  local failed=0 t0
  for f in examples/*.amps; do
    case "$f" in *fashion_mnist*) continue ;; esac
    args=$(sed -n 's/^# smoke-args: //p' "$f" | head -1)
    echo "== $f $args"
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    timeout 30 .gpu/run.sh amps "$f" $args 2>&1 | tail -4
    [ "${PIPESTATUS[0]}" -eq 0 ] && echo "ok $f" || { echo "FAILED $f"; failed=1; }
    echo "   $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  done
  return $failed
}
step_bench() {
  PYTHONUNBUFFERED=1 python3 bench/gpu_bench.py --amps ".gpu/run.sh amps" --repeats "${BENCH_REPEATS:-1}" \
    --json "$out/gpu_bench.json"
}

: > "$out/summary.txt"
export out amps
export -f step_probe step_units step_golden step_examples step_bench run_gtest
for s in "${steps[@]}"; do
  start=$(date +%s)
  if timeout "${LIMITS[$s]}" bash -c "step_$s" > "$out/$s.log" 2>&1; then verdict=ok; else verdict="FAILED (see $s.log)"; fi
  echo "$s: $verdict in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
done
