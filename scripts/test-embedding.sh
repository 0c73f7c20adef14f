#!/usr/bin/env bash
# Installs the build into a fresh prefix and builds test/Embedding against
# it, as another compiler would (find_package(Credit), Credit::Credit);
# then runs credit-to-ptx through it and through the installed credit-opt,
# and checks that both write the same PTX. Run after the build
# (scripts/test.sh calls it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${1:-$ROOT/build/test/embedding}"
rm -rf "$WORK" && mkdir -p "$WORK"
cmake --install "$ROOT/build" --prefix "$WORK/prefix" > "$WORK/install.log"
cmake -S "$ROOT/test/Embedding" -B "$WORK/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$WORK/prefix" -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DCMAKE_BUILD_TYPE=Release > "$WORK/configure.log"
cmake --build "$WORK/build" > "$WORK/build.log"
example="$ROOT/examples/rmsnorm.mlir"
"$WORK/build/embed-credit" "$example" \
  "credit-to-ptx{artifacts-dir=$WORK/embedded}" > /dev/null
"$WORK/prefix/bin/credit-opt" "$example" \
  --credit-to-ptx="artifacts-dir=$WORK/installed" -o /dev/null
diff -r "$WORK/embedded" "$WORK/installed"
# A bad option fails where the pipeline is parsed.
if "$WORK/build/embed-credit" "$example" \
    "credit-to-ptx{chip=sm_80}" 2> "$WORK/bad.log"; then
  echo "embedding: a bad option was accepted" >&2; exit 1
fi
grep -q "unsupported chip 'sm_80'" "$WORK/bad.log"
echo "embedding: installed package built a compiler; $(ls "$WORK/embedded" | grep -c '\.ptx$') kernels identical to credit-opt's"
