#!/usr/bin/env bash
# The main job: sets up and builds CREDIT, compiles every example workload
# through credit-to-ptx (PTX, cubin where ptxas is found, and a manifest per
# kernel, in artifacts/examples), and prints the tiling the compiler chose
# for each.
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
    rows.append((m["workload"], m["input_dtypes"][0], m["n"], t["cluster"],
                 t["threads"], t["elems"], t["vector"], t["staging"],
                 m["dynamic_shared_memory"], regs, m["ptx"]))
print(f"{'workload':<19} {'dtype':<5} {'N':>6} {'CTAs/row':>8} {'threads':>7} "
      f"{'elems':>5} {'vec':>3} {'staging':<9} {'smem':>6} {'regs':>4}  ptx")
for r in sorted(rows):
    print(f"{r[0]:<19} {r[1]:<5} {r[2]:>6} {r[3]:>8} {r[4]:>7} {r[5]:>5} "
          f"{r[6]:>3} {r[7]:<9} {r[8]:>6} {r[9]:>4}  {r[10]}")
print(f"\n{len(rows)} kernels in {out} (PTX, manifests"
      f"{', cubins' if any(r[9] != '-' for r in rows) else ''}). The tiling "
      "is credit-choose-tiling's default; the calibrated cost model is not "
      "built yet.")
PY
