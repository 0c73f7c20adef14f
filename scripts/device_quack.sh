#!/usr/bin/env bash
# Runs on the GPU machine: CREDIT's default against Quack (quack-kernels
# 0.6.5 on nvidia-cutlass-dsl 4.8.1), on the points of the grids given
# (default: ours decode) where Quack has the workload: softmax, rmsnorm,
# layernorm, cross_entropy. Kernels from artifacts/quackbench (built here
# by `python -m credit.build --suite bench-quack`; the README's "Quack as a
# peer" has every step). Quack's wheels come in .quack/:
# the small wheels in .quack/p1, the 92 MB nvidia-cutlass-dsl-libs-cu13
# wheel split in three (.quack/p1/cu13.part-aa, p2/...-ab, p3/...-ac) so
# that each part fits the device's carry limit beside the repository:
# carry p1, then p2, then p3, each in its own call on the still-warm
# machine (a part carried earlier stays there), and run this with the last.
# Extra arguments go to credit.bench (--implementations, say).
set -uo pipefail
GRIDS=${GRIDS:-ours decode}
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" quackbench
WORKLOADS=$(python3 -c \
  "from credit import suites; print(','.join(suites.QUACK_WORKLOADS))") || exit 1
parts=("$ROOT"/.quack/p1/cu13.part-aa "$ROOT"/.quack/p2/cu13.part-ab
  "$ROOT"/.quack/p3/cu13.part-ac)
for part in "${parts[@]}"; do
  [[ -f $part ]] || { echo "missing $part: carry .quack/p1, p2, p3" >&2; exit 2; }
done
wheels=$(mktemp -d)
cat "${parts[@]}" >"$wheels/nvidia_cutlass_dsl_libs_cu13-4.8.1-cp312-cp312-manylinux_2_28_x86_64.whl"
cp "$ROOT"/.quack/p1/*.whl "$wheels/"
SITE=/tmp/quack-site
rm -rf "$SITE"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$SITE" \
  "$wheels"/*.whl || exit 1
# A --target directory's .pth files are not read: the DSL's packages go on
# the path by hand.
export PYTHONPATH="$PYTHONPATH:$SITE:$SITE/nvidia_cutlass_dsl/dsl_packages"
python3 -c "import quack; print('quack', quack.__version__)" || exit 1
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
