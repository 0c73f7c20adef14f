#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with the kernels built
# here beforehand (carry artifacts/):
#   python3 -m credit.build --out artifacts/gpu --suite gpu      (in python/)
# ($LIBRARY names another folder of artifacts/, e.g. split for --suite
# split.)
# Runs the GPU correctness suite ($TESTS, default
# tests/gpu/test_correctness.py and test_distributed.py), then compute-sanitizer (memcheck,
# racecheck, synccheck) over one kernel per workload at cluster 8, and
# prints a short summary. Full logs go to $OUT (or /tmp).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" "${LIBRARY:-gpu}"
cd "$ROOT/python"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'

timeout "${SUITE_TIMEOUT:-420}" python3 -m pytest -q -p no:cacheprovider \
  ${TESTS:-tests/gpu/test_correctness.py tests/gpu/test_distributed.py} ${PYTEST_ARGS:-} -rf --tb=line \
  >"$LOGS/gpu-suite.log" 2>&1
suite=$?
grep -E "^FAILED|Error" "$LOGS/gpu-suite.log" | head -40
tail -3 "$LOGS/gpu-suite.log"

status=0
if [[ ${SANITIZE:-1} == 1 ]]; then
  for tool in memcheck racecheck synccheck; do
    timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 3 --report-api-errors no \
      python3 -m tests.gpu.sanitize_workloads >"$LOGS/sanitizer-$tool.log" 2>&1
    rc=$?
    echo "compute-sanitizer $tool: exit $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/sanitizer-$tool.log" | tail -1)"
    [[ $rc == 0 ]] || status=1
  done
fi
[[ $suite == 0 ]] || status=1
exit $status
