#!/usr/bin/env bash
# Runs on the GPU machine: one benchmark grid (paper or ours) with the
# kernels built beforehand (python -m credit.build --suite bench-paper and
# --suite bench-ours into artifacts/bench; carry artifacts/). Results go to
# $OUT/bench-GRID.json and .md; the table is printed last.
set -uo pipefail
GRID=${1:?usage: device_bench.sh paper|ours [extra bench args]}
shift
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=${OUT:-/tmp/credit-logs}
mkdir -p "$LOGS"
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
export CREDIT_ARTIFACTS="$ROOT/artifacts/bench"
export CREDIT_CACHE_DIR=/tmp/credit-cache
export PYTHONUNBUFFERED=1
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
