#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds and runs the whole test suite: lit and
# FileCheck tests (dialect, passes, lowering, PTX through ptxas, manifests),
# the C++ unit tests, the mutated-input corpus and the fuzzer's regressions,
# the Python package's tests (the GPU ones skip without a GPU), a project
# built against the installed CMake package (scripts/test-embedding.sh),
# the wheel with its static credit-opt (scripts/test-wheel.sh), and
# credit-fuzz for CREDIT_FUZZ_SECONDS (default 300; 0 skips it) from seed
# CREDIT_FUZZ_SEED (default 1). Ends with "N passed, N failed".
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/setup.sh"
cmake --build "$ROOT/build"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv "$ROOT/build/test" 2>&1 | tee "$log" || status=$?
passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -Eo '^ *Failed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' || echo 0)
echo "check-credit (lit): ${passed:-0} passed, ${failed:-0} failed"

pystatus=0
(cd "$ROOT/python" && python3 -m pytest -q -p no:cacheprovider tests) 2>&1 |
  tee "$log" || pystatus=$?
pypassed=$(grep -Eo '[0-9]+ passed' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
pyfailed=$(grep -Eo '[0-9]+ failed' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
pyskipped=$(grep -Eo '[0-9]+ skipped' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
[[ $pystatus == 0 ]] || status=1

# Another compiler, built against the installed package.
embedpassed=0 embedfailed=0
if "$ROOT/scripts/test-embedding.sh"; then
  embedpassed=1
else
  embedfailed=1 status=1
fi

# The wheel: built, installed alone, its static credit-opt compiling.
wheelpassed=0 wheelfailed=0
if "$ROOT/scripts/test-wheel.sh"; then
  wheelpassed=1
else
  wheelfailed=1 status=1
fi

# The coverage-guided fuzzer, bounded; a finding fails the run.
fuzzpassed=0 fuzzfailed=0
fuzz_seconds=${CREDIT_FUZZ_SECONDS:-300}
if [[ $fuzz_seconds != 0 ]]; then
  if "$ROOT/scripts/fuzz.sh" "$fuzz_seconds" -seed="${CREDIT_FUZZ_SEED:-1}"; then
    fuzzpassed=1
  else
    fuzzfailed=1 status=1
  fi
fi

echo "$(( ${passed:-0} + ${pypassed:-0} + embedpassed + wheelpassed + fuzzpassed )) passed, $(( ${failed:-0} + ${pyfailed:-0} + embedfailed + wheelfailed + fuzzfailed )) failed, ${pyskipped:-0} skipped"
exit $status
