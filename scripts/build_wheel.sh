#!/usr/bin/env bash
# Builds the wheel into dist/: credit-opt linked statically against LLVM
# and MLIR (incrementally, in build-static/), the launch extension, the
# package. `pip wheel ./python` alone does the same from scratch.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LLVM_PREFIX=/usr/lib/llvm-22
if [[ ! -f $ROOT/build-static/build.ninja ]]; then
  cmake -G Ninja -S "$ROOT" -B "$ROOT/build-static" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir -DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit \
    -DCREDIT_STATIC_TOOLS=ON >/dev/null
fi
cmake --build "$ROOT/build-static" --target credit-opt
rm -rf "$ROOT/dist" && mkdir -p "$ROOT/dist"
python3 -m pip wheel -q --no-deps -w "$ROOT/dist" "$ROOT/python" \
  -Ccmake.define.CREDIT_WHEEL_COMPILER=ON \
  -Ccmake.define.CREDIT_OPT_BINARY="$ROOT/build-static/bin/credit-opt"
ls "$ROOT"/dist/credit-*.whl
