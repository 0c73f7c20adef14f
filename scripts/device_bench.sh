#!/usr/bin/env bash
# Runs on the GPU machine: one benchmark grid (paper or ours) with the
# kernels built beforehand (python -m credit.build --suite bench-paper and
# --suite bench-ours into artifacts/bench; carry artifacts/). Results go to
# $OUT/bench-GRID.json and .md; the table is printed last.
set -uo pipefail
GRID=${1:?usage: device_bench.sh paper|ours [extra bench args]}
shift
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" bench
# Peers carried as wheels (liger-kernel): see .whl/ in the README's notes.
if compgen -G "$ROOT/.whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
    --upgrade --target /tmp/site "$ROOT"/.whl/*.whl &&
    export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m credit.bench --grid "$GRID" --out "$LOGS/bench-$GRID.json" \
  --markdown "$LOGS/bench-$GRID.md" "$@" 2>&1 | tee "$LOGS/bench-$GRID.log" |
  grep -v "^|" 
cat "$LOGS/bench-$GRID.md"
