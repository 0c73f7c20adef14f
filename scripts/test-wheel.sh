#!/usr/bin/env bash
# The wheel as a user gets it: built (scripts/build_wheel.sh), installed
# into an empty directory, its credit-opt free of libLLVM and libMLIR, found
# by the package before anything on PATH, compiling every example and a
# request through the package's compiler. Run by scripts/test.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$ROOT/scripts/build_wheel.sh" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wheel=$(ls "$ROOT"/dist/credit-*.whl)
python3 - "$wheel" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
for member in ("credit/bin/credit-opt", "credit/workloads/softmax.mlir",
               "credit/ops.py", "credit/_fastlaunch.abi3.so"):
    if member not in names:
        sys.exit(f"wheel: no {member}")
PY
python3 -m pip install -q --root-user-action=ignore --no-deps --no-compile --target "$work/site" "$wheel"
opt="$work/site/credit/bin/credit-opt"
needed=$(readelf -d "$opt" | grep NEEDED || true)
if grep -qE "libLLVM|libMLIR|libstdc\+\+" <<<"$needed"; then
  echo "wheel: credit-opt needs shared LLVM, MLIR or libstdc++:"
  echo "$needed"; exit 1
fi
for example in "$ROOT"/examples/*.mlir; do
  "$opt" "$example" --credit-to-ptx="artifacts-dir=$work/out" -o /dev/null
done
# The package finds its own credit-opt before PATH (a broken one here).
mkdir -p "$work/bin"
printf '#!/bin/sh\nexit 9\n' > "$work/bin/credit-opt" && chmod +x "$work/bin/credit-opt"
(cd "$work" && env -u CREDIT_OPT PATH="$work/bin:$PATH" PYTHONPATH="$work/site" \
  python3 - "$opt" <<'PY'
import pathlib, sys, tempfile
from credit.compiler import Compiler, Request, find_credit_opt
assert pathlib.Path(find_credit_opt()) == pathlib.Path(sys.argv[1]), find_credit_opt()
with tempfile.TemporaryDirectory() as cache:
    kernels = Compiler(cache_dir=cache).compile(Request("rmsnorm", "bf16", 4096))
    print("wheel: compiled", ", ".join(k.name for k in kernels.kernels))
PY
)
echo "wheel: $(basename "$wheel"), $(du -h "$wheel" | cut -f1); credit-opt needs: $(grep -o '\[.*\]' <<<"$needed" | tr -d '[]' | tr '\n' ' ')"
