#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds and runs the whole test suite: lit and
# FileCheck tests, the C++ unit tests and the mutated-input corpus. No GPU is
# needed. Ends with a line "N passed, N failed".
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/setup.sh"
cmake --build "$ROOT/build" --target credit-opt CreditUnitTests

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv "$ROOT/build/test" 2>&1 | tee "$log" || status=$?
passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -Eo '^ *Failed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' || echo 0)
echo "check-credit: ${passed:-0} passed, ${failed:-0} failed"
exit $status
