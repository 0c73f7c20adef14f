#!/usr/bin/env bash
# GPU machine: CREDIT's default from two libraries A and B (artifacts/A,
# artifacts/B, each from default_library.py; artifacts/dev/A.tar.xz and
# B.tar.xz are unpacked first when carried that way), alternating A B B A
# on the decode and ours grids and A B on the paper grid in one call; the
# best of each library's runs per point, then A / B as a geomean per grid
# with the five points that moved most either way. Raw runs go to
# $OUT/ab.tar.gz. A side written LIB@VAR=VALUE runs library LIB with
# VAR=VALUE in the environment (one library under two launch settings:
# abB@CREDIT_WAVES=1 abB).
#   [SEQ="A:decode B:decode ..."] [STOP_AT=SECONDS] \
#     bash benchmarks/experiments/ab_default.sh A B
set -uo pipefail
A=$1 B=$2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for side in "$A" "$B"; do
  lib=${side%%@*}
  [[ -f $ROOT/artifacts/dev/$lib.tar.xz && ! -d $ROOT/artifacts/$lib ]] &&
    tar xJf "$ROOT/artifacts/dev/$lib.tar.xz" -C "$ROOT/artifacts"
done
RUNS=$(mktemp -d)
run() { # side grid
  (source "$ROOT/scripts/device_env.sh" "${1%%@*}"
   [[ $1 == *@* ]] && export "${1#*@}"
   timeout 200 python3 -m credit.bench --grid "$2" --implementations credit_c0 \
     --out "$RUNS/$2-$1-$SECONDS.json" --budget 150 >"$RUNS/$2-$1-$SECONDS.log" 2>&1)
  echo "$1 $2 rc=$? at ${SECONDS}s"
}
# SEQ: the runs, in order, as LIB:GRID with LIB A or B; STOP_AT: seconds
# after which no run starts (a device call is limited to 600 s).
SEQ=${SEQ:-"A:decode A:ours B:decode B:ours B:decode B:ours A:decode A:ours A:paper B:paper"}
for item in $SEQ; do
  (( SECONDS < ${STOP_AT:-100000} )) || { echo "stopped before $item"; break; }
  lib=$B; [[ ${item%%:*} == A ]] && lib=$A
  run "$lib" "${item#*:}"
done
python3 - "$RUNS" "$A" "$B" <<'PY'
import collections, glob, json, math, os, sys
runs, a, b = sys.argv[1:]
best = collections.defaultdict(dict)
for path in glob.glob(os.path.join(runs, "*.json")):
    grid, rest = os.path.basename(path).split("-", 1)
    lib = rest.rsplit("-", 1)[0]
    for p in json.load(open(path))["points"]:
        t = p["times_ms"].get("credit_c0")
        if t:
            key = (grid, p["workload"], p["dtype"], p["m"], p["n"])
            best[key][lib] = min(t, best[key].get(lib, math.inf))
for grid in ("decode", "ours", "paper"):
    ratios = sorted((v[a] / v[b], k[1:]) for k, v in best.items()
                    if k[0] == grid and a in v and b in v)
    if not ratios:
        continue
    mean = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
    print(f"{grid}: {a} / {b} {mean:.3f} over {len(ratios)} points")
    for r, k in ratios if len(ratios) <= 10 else ratios[:5] + ratios[-5:]:
        print(f"  {r:.3f} {k}")
PY
tar czf "${OUT:-/tmp}/ab.tar.gz" -C "$RUNS" .
