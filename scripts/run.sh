#!/usr/bin/env bash
# The main job: sets up and builds CREDIT, compiles every example workload
# through credit-to-ptx (PTX, cubin where ptxas is found, and a manifest per
# kernel, in artifacts/examples), prints the tilings the cost model chose
# (one kernel per range of M where the choice changes), then the model's
# choice, predicted time and runner-up at M = 1, 64, 4096 and 65536.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/setup.sh"
cmake --build "$ROOT/build" --target credit-opt
OPT="$ROOT/build/bin/credit-opt"
OUT="${CREDIT_OUT:-$ROOT/artifacts/examples}"
mkdir -p "$OUT"

# ptxas, if the CUDA toolkit is installed, also assembles a cubin.
FORMAT=isa
if command -v ptxas >/dev/null || [[ -x /usr/local/cuda/bin/ptxas ]]; then
  FORMAT=bin
  export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
fi

for example in "$ROOT"/examples/*.mlir; do
  "$OPT" "$example" -o /dev/null \
    --pass-pipeline="builtin.module(credit-to-ptx{format=$FORMAT artifacts-dir=$OUT})"
done

python3 - "$OUT" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
rows = []
for name in json.loads((out / "kernels.json").read_text())["kernels"]:
    m = json.loads((out / name).read_text())
    t = m["tiling"]
    regs = m.get("ptxas", {}).get("registers", "-")
    ranges = ", ".join(f"{lo}-{hi if hi is not None else ''}" for lo, hi in m["rows"])
    rows.append((m["workload"], m["input_dtypes"][0], m["n"], ranges, t["cluster"],
                 t["threads"], t["elems"], t["rows"], t["staging"],
                 m["dynamic_shared_memory"], regs))
print(f"{'workload':<19} {'dtype':<5} {'N':>6} {'for M':<12} {'CTAs/row':>8} "
      f"{'threads':>7} {'elems':>5} {'rows':>4} {'staging':<9} {'smem':>6} {'regs':>4}")
for r in sorted(rows, key=lambda r: (r[0], int(r[3].split("-")[0]))):
    print(f"{r[0]:<19} {r[1]:<5} {r[2]:>6} {r[3]:<12} {r[4]:>8} {r[5]:>7} "
          f"{r[6]:>5} {r[7]:>4} {r[8]:<9} {r[9]:>6} {r[10]:>4}")
print(f"\n{len(rows)} kernels in {out} (PTX, manifests"
      f"{', cubins' if any(r[10] != '-' for r in rows) else ''}): the cost "
      "model's tilings, one per range of M where the choice changes.\n")
PY

# The model's choice at a few row counts, its predicted time and the
# runner-up (credit-cost-model with the built-in calibrated H200 profile).
(cd "$ROOT/python" && CREDIT_OPT="$OPT" python3 -m credit.costmodel choices "$ROOT"/examples/*.mlir)
