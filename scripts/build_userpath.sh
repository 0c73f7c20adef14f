#!/usr/bin/env bash
# Builds, here, what scripts/device_userpath.sh needs on the GPU machine:
# the wheel with a statically linked credit-opt (build-static/, then
# pip wheel into dist/), the kernels of the raising test (artifacts/raised)
# and Liger-Kernel's wheel (.whl/). Carry dist, artifacts/raised and .whl.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
"$ROOT/scripts/build_wheel.sh"
# The wheel is over the device's carry limit beside the repository: carry
# it without its compiler, and the compiler xz-compressed (30 MB), which
# device_userpath.sh puts back where the wheel has it.
rm -rf dist && mkdir -p dist
python3 -m pip wheel -q --no-deps -w dist ./python \
  -Ccmake.define.CREDIT_WHEEL_COMPILER=OFF
xz -T2 -6 -c build-static/bin/credit-opt > dist/credit-opt.xz
rm -rf artifacts/raised
# One case of the file is nothing to compile (a softmax along dimension 0):
# credit-opt fails for it and compiles the others.
build/bin/credit-opt test/Transforms/raise-linalg.mlir --split-input-file \
  --pass-pipeline="builtin.module(credit-to-ptx{artifacts-dir=artifacts/raised})" \
  -o /dev/null 2>/dev/null || true
ls artifacts/raised/*.json | wc -l
python3 -m pip download -q --no-deps --only-binary=:all: -d .whl liger-kernel==0.8.5
ls -la dist .whl
