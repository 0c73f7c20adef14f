#!/usr/bin/env bash
# GPU machine: a kernel change A/B'd in one call. Carry
# artifacts/carry/gpu.tar.xz (the GPU suite's library built with the
# change) and artifacts/dev/{BEFORE,AFTER,DEFAULT_BEFORE,DEFAULT_AFTER}.tar.xz:
# the same tilings (split_sweep.py build, then SWEEP=BEFORE/sweep.json
# split_sweep.py build AFTER with the changed compiler) and CREDIT's
# default (default_library.py) without and with the change.
#   1. the GPU correctness suite's cases matching SUITE_K (pytest -k;
#      every case when empty) on the changed kernels;
#   2. the same tilings without and with the change, timed by
#      split_sweep.py at M = 1, 4, 8, 32, order B A A B;
#   3. CREDIT's default without and with it, ab_default.sh.
# Used for chunk_exp_shifts.diff (2026-12-06: ov ovN abX abZ,
# SUITE_K="softmax or cross_entropy") and for sweeps unrolled or paired
# (2026-12-06: sweep-pairs-2026-12-06-run1/run2.json).
#   [SUITE_K=...] bash benchmarks/experiments/kernel_ab.sh BEFORE AFTER \
#     DEFAULT_BEFORE DEFAULT_AFTER
set -uo pipefail
BEFORE=$1 AFTER=$2 DEFAULT_BEFORE=$3 DEFAULT_AFTER=$4
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
nvidia-smi --query-gpu=name --format=csv,noheader
LOGS=${OUT:-/tmp}
tar xJf artifacts/carry/gpu.tar.xz -C artifacts
for lib in "$BEFORE" "$AFTER"; do tar xJf artifacts/dev/$lib.tar.xz -C artifacts; done
(source scripts/device_env.sh gpu; cd python
 timeout 300 python3 -m pytest -q -p no:cacheprovider \
   tests/gpu/test_correctness.py ${SUITE_K:+-k "$SUITE_K"} -rf \
   --tb=line >"$LOGS/gpu-suite.log" 2>&1
 echo "GPU suite (${SUITE_K:-every case}): rc=$?"; grep -E "^FAILED" "$LOGS/gpu-suite.log" | head
 tail -1 "$LOGS/gpu-suite.log")
export PYTHONPATH=$ROOT/python CREDIT_CACHE_DIR=/tmp/credit-cache
i=0
for lib in "$BEFORE" "$AFTER" "$AFTER" "$BEFORE"; do
  i=$((i + 1))
  (cd python && timeout 100 python3 ../benchmarks/experiments/split_sweep.py \
    time ../artifacts/$lib "$LOGS/sweep-$i-$lib.json" >"$LOGS/sweep-$i-$lib.log" 2>&1)
  echo "sweep $lib rc=$? at ${SECONDS}s"
done
python3 - "$LOGS" "$BEFORE" "$AFTER" <<'PY'
import collections, glob, json, math, sys
before, after = sys.argv[2:]
best = collections.defaultdict(dict)
for path in glob.glob(sys.argv[1] + "/sweep-*.json"):
    lib = path.rsplit("-", 1)[1][:-5]
    for r in json.load(open(path))["rows"]:
        if r["us"]:
            key = (r["workload"], r["n"], r["m"], r["tiling"])
            best[key][lib] = min(r["us"], best[key].get(lib, math.inf))
ratios = []
for key in sorted(best):
    v = best[key]
    if before in v and after in v:
        ratios.append(v[before] / v[after])
        print(f"{key[0]} {key[1]} M={key[2]} {key[3]}: {v[before]:.2f} -> "
              f"{v[after]:.2f} us ({ratios[-1]:.3f}x)")
if ratios:
    print(f"sweep: before / after {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} "
          f"over {len(ratios)} (tiling, M)")
PY
SEQ=${SEQ:-"A:decode B:decode B:decode A:decode A:ours B:ours B:ours A:ours"} \
  STOP_AT=${STOP_AT:-300} bash benchmarks/experiments/ab_default.sh "$DEFAULT_BEFORE" "$DEFAULT_AFTER"
(cd "$LOGS" && tar czf kernel-ab.tar.gz sweep-*.json gpu-suite.log && rm -f sweep-*)
