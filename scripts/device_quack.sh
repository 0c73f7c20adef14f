#!/usr/bin/env bash
# Runs on the GPU machine: CREDIT's default against Quack (quack-kernels
# 0.6.5 on nvidia-cutlass-dsl 4.8.1), on the points of the grids given
# (default: ours decode) where Quack has the workload: softmax, rmsnorm,
# layernorm, cross_entropy. Kernels from artifacts/quackbench (built here
# by `python -m credit.build --suite bench-quack`; the README's "Quack as a
# peer" has every step). Quack's wheels come in .quack/: the small wheels
# and the 92 MB nvidia-cutlass-dsl-libs-cu13 wheel split in parts
# (.quack/pK/cu13.part-*, with the whole wheel's SHA-256 in
# .quack/p1/cu13.sha256), spread over folders that each fit the device's carry
# limit beside the repository: carry them one folder per call on the
# still-warm machine (what an earlier call carried stays there), and run
# this with the last. Extra arguments go to credit.bench
# (--implementations, say).
set -uo pipefail
GRIDS=${GRIDS:-ours decode}
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" quackbench
WORKLOADS=$(python3 -c \
  "from credit import suites; print(','.join(suites.QUACK_WORKLOADS))") || exit 1
wheels=$(mktemp -d)
whole="$wheels/nvidia_cutlass_dsl_libs_cu13-4.8.1-cp312-cp312-manylinux_2_28_x86_64.whl"
# The parts in name order (cu13.part-aa, -ab, ...), whichever folder holds
# each; the checksum says whether all of them came.
mapfile -t parts < <(ls "$ROOT"/.quack/*/cu13.part-* 2>/dev/null |
  awk -F/ '{print $NF "\t" $0}' | sort | cut -f2)
[[ ${#parts[@]} -gt 0 ]] && cat "${parts[@]}" >"$whole"
if ! (cd "$wheels" && sed "s#  .*#  $(basename "$whole")#" \
      "$ROOT"/.quack/p1/cu13.sha256 | sha256sum --check --status); then
  echo "the cu13 wheel's parts in .quack/*/ do not add up to the wheel in" \
    ".quack/p1/cu13.sha256 (${#parts[@]} found): carry every .quack/pK" >&2
  exit 2
fi
cp "$ROOT"/.quack/*/*.whl "$wheels/"
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
