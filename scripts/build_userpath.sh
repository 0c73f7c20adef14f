#!/usr/bin/env bash
# Builds, here, what scripts/device_userpath.sh needs on the GPU machine:
# the wheel with a statically linked credit-opt (build-static/, then
# pip wheel into dist/), the kernels of the raising test (artifacts/raised)
# and Liger-Kernel's wheel (.whl/). Carry dist, artifacts/raised and .whl.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
"$ROOT/scripts/build_wheel.sh"
rm -rf artifacts/raised
# One case of the file is nothing to compile (a softmax along dimension 0):
# credit-opt fails for it and compiles the others.
build/bin/credit-opt test/Transforms/raise-linalg.mlir --split-input-file \
  --pass-pipeline="builtin.module(credit-to-ptx{artifacts-dir=artifacts/raised})" \
  -o /dev/null 2>/dev/null || true
ls artifacts/raised/*.json | wc -l
python3 -m pip download -q --no-deps --only-binary=:all: -d .whl liger-kernel==0.8.5
ls -la dist .whl
