#!/usr/bin/env bash
# Every GPU check of issue 8 in one device-tool call (the machine is lent for minutes; each call costs a start-up):
# run from the repository root there, with `.gpu` carried (tests/cuda_bundle.sh built it here):
#   tests/gpu_check.sh [STEPS]       STEPS: any of probe units golden examples bench (default: all, in that order)
# Each step's output goes to $OUT/gpu_check/<step>.log (OUT: the device tool's folder, else /tmp), a one-line verdict
# per step to stdout and $OUT/gpu_check/summary.txt; a failing step does not stop the others. Per-step time limits
# keep the whole run under the tool's 10 minutes.
set -u
cd "$(dirname "$0")/.."
out="${OUT:-/tmp}/gpu_check"
mkdir -p "$out"
amps="/tmp/amps-gpu/bin/amps"
steps=("$@")
[ $# -eq 0 ] && steps=(probe units golden examples bench)

step_probe() { .gpu/run.sh amps -e 'print(cuda.available(), cuda.memory_allocated())' && nvidia-smi -L; }
step_units() {
  .gpu/run.sh cuda_tests --gtest_brief=1 --gtest_output=xml:"$out/cuda_tests.xml" &&
    .gpu/run.sh runtime_tests --gtest_brief=1 --gtest_filter='Composite*:Fused*:Index*'
}
step_golden() {
  local failed=0
  for f in tests/lang/cuda/*.amps; do
    .gpu/run.sh golden_runner "$amps" "$f"
    case $? in 0) echo "ok $f" ;; 77) ;; *) failed=1 ;; esac  # 77: skipped, no GPU
  done
  return $failed
}
step_examples() {  # every example but the main job (its dataset is not on that machine), on cuda when present
  local failed=0
  for f in examples/*.amps; do
    case "$f" in *fashion_mnist*) continue ;; esac
    args=$(sed -n 's/^# smoke-args: //p' "$f" | head -1)
    echo "== $f $args"
    # shellcheck disable=SC2086
    timeout 120 .gpu/run.sh amps "$f" $args || { echo "FAILED $f"; failed=1; }
  done
  return $failed
}
step_bench() { timeout 360 python3 bench/gpu_bench.py --amps ".gpu/run.sh amps" --json "$out/gpu_bench.json"; }

: > "$out/summary.txt"
export out amps
export -f step_probe step_units step_golden step_examples step_bench
for s in "${steps[@]}"; do
  start=$(date +%s)
  if timeout 420 bash -c "step_$s" > "$out/$s.log" 2>&1; then verdict=ok; else verdict="FAILED (see $s.log)"; fi
  echo "$s: $verdict in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
done
