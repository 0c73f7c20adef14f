#!/usr/bin/env bash
# Runs on the GPU machine: CREDIT's default against Quack (quack-kernels
# 0.6.5 on nvidia-cutlass-dsl 4.8.1), on the points of the grids given
# (default: ours decode) where Quack has the workload: softmax, rmsnorm,
# layernorm, cross_entropy. Kernels from artifacts/quackbench (or
# artifacts/$LIB), built here by `python -m credit.build --suite
# bench-quack`; the README's "Quack as a peer" has every step. Quack's
# wheels come in .quack/ (scripts/quack_site.sh says how they travel); run
# this with the last of them. Extra arguments go to credit.bench
# (--implementations, say).
set -uo pipefail
GRIDS=${GRIDS:-ours decode}
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" "${LIB:-quackbench}"
WORKLOADS=$(python3 -c \
  "from credit import suites; print(','.join(suites.QUACK_WORKLOADS))") || exit 1
source "$ROOT/scripts/quack_site.sh"
install_quack || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for grid in $GRIDS; do
  python3 -m credit.bench --grid "$grid" --only "$WORKLOADS" \
    --implementations "${IMPLEMENTATIONS:-credit_c0,quack}" --no-compile \
    --budget "${BUDGET:-200}" --out "$LOGS/quack-$grid.json" \
    --markdown "$LOGS/quack-$grid.md" "$@" 2>&1 | grep -v "^|" | tail -4 || status=1
  cat "$LOGS/quack-$grid.md"
done
exit $status
