#!/usr/bin/env bash
# The main job: sets up and builds CREDIT, then takes every example workload
# through credit-opt (parse, verify, print).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/setup.sh"
cmake --build "$ROOT/build" --target credit-opt
OPT="$ROOT/build/bin/credit-opt"
OUT="${CREDIT_OUT:-$ROOT/artifacts}"
mkdir -p "$OUT"
printf '%-20s %-8s %s\n' workload status output
for example in "$ROOT"/examples/*.mlir; do
  name=$(basename "$example" .mlir)
  if "$OPT" "$example" -o "$OUT/$name.mlir"; then
    printf '%-20s %-8s %s\n' "$name" verified "$OUT/$name.mlir"
  else
    printf '%-20s %-8s\n' "$name" FAILED
    exit 1
  fi
done
