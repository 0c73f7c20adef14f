#!/usr/bin/env bash
# Runs on the GPU machine: CREDIT's default against Quack (quack-kernels
# 0.6.5 on nvidia-cutlass-dsl 4.8.1), on the points of the grids given
# (default: ours decode) where Quack has the workload: softmax, rmsnorm,
# layernorm, cross_entropy. Kernels from artifacts/quackbench (or
# artifacts/$LIB), built here by `python -m credit.build --suite
# bench-quack`; the README's "Quack as a peer" has every step. Quack's
# wheels come in .quack/ (scripts/quack_site.sh says how they travel); run
# this with the last of them. IMPLEMENTATIONS (default credit_c0,quack)
# may name every peer (torch_compile, liger from .whl/, ...), ONLY=all
# every workload of the grids (default: Quack's); extra
# arguments go to credit.bench (--after-foreign, say).
set -uo pipefail
GRIDS=${GRIDS:-ours decode}
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" "${LIB:-quackbench}"
WORKLOADS=$(python3 -c \
  "from credit import suites; print(','.join(suites.QUACK_WORKLOADS))") || exit 1
source "$ROOT/scripts/quack_site.sh"
install_quack || exit 1
# Other peers carried as wheels (liger-kernel in .whl/), for
# IMPLEMENTATIONS that name them.
if compgen -G "$ROOT/.whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
    --upgrade --target /tmp/site "$ROOT"/.whl/*.whl &&
    export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
IMPLEMENTATIONS=${IMPLEMENTATIONS:-credit_c0,quack}
# ONLY=all times every workload of the grids (log_softmax too).
ONLY=${ONLY:-$WORKLOADS}
[[ $ONLY == all ]] && ONLY=
# torch.compile compiles each point afresh: only when it is asked for.
COMPILE=--no-compile
[[ ,$IMPLEMENTATIONS, == *,torch_compile,* ]] && COMPILE=
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for grid in $GRIDS; do
  python3 -m credit.bench --grid "$grid" ${ONLY:+--only "$ONLY"} \
    --implementations "$IMPLEMENTATIONS" $COMPILE \
    --budget "${BUDGET:-200}" --out "$LOGS/quack-$grid.json" \
    --markdown "$LOGS/quack-$grid.md" "$@" 2>&1 | grep -v "^|" | tail -4 || status=1
  cat "$LOGS/quack-$grid.md"
done
exit $status
