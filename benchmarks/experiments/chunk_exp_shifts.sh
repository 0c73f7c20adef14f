#!/usr/bin/env bash
# GPU machine: the experiment of chunk_exp_shifts.diff (thirtieth session,
# built and not yet run). Carry artifacts/carry/gpu.tar.xz (the GPU suite's
# library built with the diff applied) and artifacts/dev/{ov,ovN,abX,abZ}.tar.xz;
# chunk_exp_shifts.diff's header says how each is built.
#   1. the GPU correctness suite's softmax-family cases on the new form
#      (every cluster size and dtype, special values, float64 references);
#   2. the same tilings built without (ov) and with (ovN) the change,
#      timed by split_sweep.py at M = 1, 4, 8, 32, order ov ovN ovN ov;
#   3. CREDIT's default without (abX) and with (abZ) it, ab_default.sh.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
nvidia-smi --query-gpu=name --format=csv,noheader
LOGS=${OUT:-/tmp}
tar xJf artifacts/carry/gpu.tar.xz -C artifacts
for lib in ov ovN; do tar xJf artifacts/dev/$lib.tar.xz -C artifacts; done
(source scripts/device_env.sh gpu; cd python
 timeout 120 python3 -m pytest -q -p no:cacheprovider \
   tests/gpu/test_correctness.py -k "softmax or cross_entropy" -rf \
   --tb=line >"$LOGS/gpu-suite.log" 2>&1
 echo "GPU suite (softmax family): rc=$?"; grep -E "^FAILED" "$LOGS/gpu-suite.log" | head
 tail -1 "$LOGS/gpu-suite.log")
export PYTHONPATH=$ROOT/python CREDIT_CACHE_DIR=/tmp/credit-cache
i=0
for lib in ov ovN ovN ov; do
  i=$((i + 1))
  (cd python && timeout 100 python3 ../benchmarks/experiments/split_sweep.py \
    time ../artifacts/$lib "$LOGS/sweep-$i-$lib.json" >"$LOGS/sweep-$i-$lib.log" 2>&1)
  echo "sweep $lib rc=$? at ${SECONDS}s"
done
python3 - "$LOGS" <<'PY'
import collections, glob, json, math, sys
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
    if "ov" in v and "ovN" in v:
        ratios.append(v["ov"] / v["ovN"])
        print(f"{key[0]} {key[1]} M={key[2]} {key[3]}: {v['ov']:.2f} -> "
              f"{v['ovN']:.2f} us ({ratios[-1]:.3f}x)")
if ratios:
    print(f"sweep: before / after {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} "
          f"over {len(ratios)} (tiling, M)")
PY
SEQ=${SEQ:-"A:decode B:decode B:decode A:decode A:ours B:ours B:ours A:ours"} \
  STOP_AT=${STOP_AT:-300} bash benchmarks/experiments/ab_default.sh abX abZ
(cd "$LOGS" && tar czf chunk-exp-shifts.tar.gz sweep-*.json gpu-suite.log && rm -f sweep-*)
