#!/usr/bin/env bash
# Installs everything CREDIT needs on a fresh Debian 12 machine and configures
# the build. Safe to run more than once.
set -euo pipefail

LLVM_PREFIX=/usr/lib/llvm-22
# clang-14 and its runtimes (libFuzzer, ASan) build credit-fuzz.
PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools ninja-build
  cmake g++ python3 libgtest-dev zlib1g-dev libzstd-dev clang-14
  libclang-rt-14-dev)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# lit is shipped by llvm-22-tools; FileCheck and not too.
for tool in FileCheck not count mlir-tblgen; do
  [[ -x $LLVM_PREFIX/bin/$tool ]] || { echo "setup: missing $LLVM_PREFIX/bin/$tool" >&2; exit 1; }
done

# pytest for the Python package's tests, and Triton (the GPU machine's
# version) to compile the Triton baselines for sm_90 without a GPU (PyPI).
python3 -c "import pytest" 2>/dev/null ||
  python3 -m pip install -q --disable-pip-version-check pytest
# numpy for the random programs' float64 oracle (test/Fuzz/program_oracle.py).
python3 -c "import numpy" 2>/dev/null ||
  python3 -m pip install -q --disable-pip-version-check numpy
python3 -c "import triton; assert triton.__version__ == '3.6.0'" 2>/dev/null ||
  python3 -m pip install -q --disable-pip-version-check triton==3.6.0

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# PyTorch's C++ headers, of the GPU machine's version (its PyPI wheel's
# torch/include, nothing installed), so that the tests compile the C++ call
# path (python/credit/_torchpath.cpp) on this machine too.
TORCH_INCLUDE=$ROOT/build/torch-include-2.11.0
if [[ ! -f $TORCH_INCLUDE/torch/csrc/autograd/custom_function.h ]]; then
  echo "setup: fetching PyTorch 2.11.0's headers"
  wheel_dir=$(mktemp -d)
  python3 -m pip download -q --disable-pip-version-check --no-deps \
    --only-binary=:all: -d "$wheel_dir" torch==2.11.0
  mkdir -p "$ROOT/build"
  python3 - "$wheel_dir" "$TORCH_INCLUDE" <<'PY'
import os, pathlib, shutil, sys, tempfile, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("torch-*.whl"))
target = pathlib.Path(sys.argv[2])
private = pathlib.Path(tempfile.mkdtemp(dir=target.parent))
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if n.startswith("torch/include/")]
    archive.extractall(private, names)
shutil.rmtree(target, ignore_errors=True)
os.replace(private / "torch" / "include", target)
shutil.rmtree(private)
PY
  rm -rf "$wheel_dir"
fi

cmake -G Ninja -S "$ROOT" -B "$ROOT/build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit >/dev/null
echo "setup: configured $ROOT/build"
