#!/usr/bin/env bash
# CPU: scores chooseVariants settings (variant_knobs.diff applied and
# credit-opt rebuilt) on the launched tiling, in four places: the cost
# model's evaluation (the merged raw file of 2026-12-07: regret geomean /
# p95 / max over all 226 points, then the 60 held out) and three decode
# sweeps (model_variants.py decode: regret among the sweep's tilings, its
# max, Quack / launched and the points under Quack; the H100's after a
# foreign kernel, split-sweep-2026-12-07-run1.json, the H200's,
# split-sweep-2026-12-04-run3.json, and the H100's at N = 1048576 and M =
# 1-64, split-sweep-2026-12-07-run2.json). The evaluation has no decode
# points: a setting that helps it can still lose there (quarter steps and
# half steps with a 2% switch did, on the GPU; COSTMODEL.md, fortieth and
# forty-first sections). Each argument is STEPS,SWITCH,KEEP:
#   bash benchmarks/experiments/variant_scan.sh 2,1.03,1.01 2,1.02,1.01
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
raw=$(mktemp)
trap 'rm -f "$raw" "$raw.eval"' EXIT
xz -dc "$ROOT/benchmarks/costmodel-raw-merged-2026-12-07-run1.json.xz" >"$raw"
cd "$ROOT/python"
export PYTHONPATH=. CREDIT_OPT=${CREDIT_OPT:-../build/bin/credit-opt}
decode() {
  python ../benchmarks/experiments/model_variants.py decode "$1" \
    ../targets/h200.json 2>&1 | head -1 | sed 's/^h200.json: //'
}
for setting in "$@"; do
  IFS=, read -r steps switch keep <<<"$setting"
  export CREDIT_EXP_STEPS=$steps CREDIT_EXP_SWITCH=$switch CREDIT_EXP_KEEP=$keep
  echo "steps $steps, switch $switch, keep $keep"
  python -m credit.costmodel evaluate --raw "$raw" --out "$raw.eval" 2>&1 |
    awk -F'|' '/model_dynamic_m/ {n++; printf "  evaluation %s:%s/%s/%s\n",
      (n == 1 ? "all" : n == 2 ? "held out" : "fitted"), $5, $6, $7}'
  echo "  H100 decode sweep: $(decode ../benchmarks/split-sweep-2026-12-07-run1.json)"
  echo "  H200 decode sweep: $(decode ../benchmarks/split-sweep-2026-12-04-run3.json)"
  echo "  H100 N = 1M sweep: $(decode ../benchmarks/split-sweep-2026-12-07-run2.json)"
done
