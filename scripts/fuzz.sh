#!/usr/bin/env bash
# Builds credit-fuzz (libFuzzer + AddressSanitizer, clang 14; CREDIT's code
# instrumented) in build-fuzz/ and runs it for SECONDS (default 300) over a
# corpus seeded with the examples and every test input, keeping what it
# finds new in build-fuzz/corpus. A crash, sanitizer report, timeout or
# out-of-memory fails the run; the input that caused it is written to
# build-fuzz/ (crash-*, timeout-*, oom-*): add it to test/Fuzz/regressions.
# The seed is random unless a flag sets it (-seed=N): CI's run sets one,
# so that it searches the same inputs every time and a finding reproduces.
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_TO_RUN=${1:-300}
shift || true
BUILD="$ROOT/build-fuzz"
LLVM_PREFIX=/usr/lib/llvm-22

cmake -G Ninja -S "$ROOT" -B "$BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCREDIT_ENABLE_FUZZER=ON \
  -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit >/dev/null
cmake --build "$BUILD" --target credit-fuzz >/dev/null

# Seeds: the examples, the regression inputs, and every lit input split at
# `// -----`.
SEEDS="$BUILD/seeds"
rm -rf "$SEEDS" && mkdir -p "$SEEDS" "$BUILD/corpus"
python3 - "$ROOT" "$SEEDS" <<'PY'
import pathlib, sys
root, seeds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
regressions = root / "test/Fuzz/regressions"
files = sorted(root.glob("examples/*.mlir")) + sorted(
    p for p in root.glob("test/**/*.mlir") if regressions not in p.parents)
count = 0
for path in files:
    # Bytes: inputs need not be UTF-8.
    for i, part in enumerate(path.read_bytes().split(b"// -----")):
        if part.strip():
            (seeds / f"{path.stem}-{i}.mlir").write_bytes(part)
            count += 1
for path in sorted((root / "test/Fuzz/regressions").glob("*")):
    (seeds / f"regression-{path.name}").write_bytes(path.read_bytes())
    count += 1
print(f"fuzz: {count} seed inputs")
PY
cd "$BUILD"
# ASan options are the harness's own (__asan_default_options).
set +e
./bin/credit-fuzz \
  -max_total_time="$SECONDS_TO_RUN" -timeout=30 -rss_limit_mb=4096 \
  -max_len=16384 -dict="$ROOT/test/Fuzz/mlir.dict" -print_final_stats=1 \
  "$@" corpus "$SEEDS" >"$BUILD/fuzz.log" 2>&1
status=$?
set -e
grep -E "^INFO: Seed:|^#[0-9]+ +(INITED|DONE)|^stat::|Test unit written" \
  "$BUILD/fuzz.log" || true
if [[ $status == 0 ]] && grep -q "^Done [0-9]* runs" "$BUILD/fuzz.log"; then
  echo "fuzz: no finding"
else
  # The report with its stack, so that a finding in CI can be read there.
  sed -n '/ERROR\|pipeline failed without\|was reported but/,/^SUMMARY\|^MS:/p' \
    "$BUILD/fuzz.log" | head -80
  echo "fuzz: FINDING (exit $status; see $BUILD/fuzz.log)"
  exit 1
fi
