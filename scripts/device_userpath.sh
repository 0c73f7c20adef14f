#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root: the user's path with
# the wheel alone. Build and carry beforehand (scripts/build_userpath.sh
# does all of it here):
#   dist/credit-*.whl   the wheel (credit-opt inside, linked statically;
#                       or beside it as dist/credit-opt.xz, which goes
#                       where the wheel would have it)
#   artifacts/raised    the kernels of test/Transforms/raise-linalg.mlir
#   .whl/               Liger-Kernel's wheel (optional, for the benchmark)
# The wheel goes into a fresh directory; no MLIR, no prebuilt library, an
# empty cache: every kernel is compiled on first use by the wheel's
# credit-opt. PART chooses what runs (several, space-separated, run in
# order on the one install):
#   suite  the GPU correctness suite ($TESTS, default test_correctness.py)
#   sanitize  compute-sanitizer over the C++ call path's tests
#   host   the host-cost benchmark alone
#   host-ab  the host-cost benchmark with dependent launch on and off, on
#          the C++ call path and on the C launcher (CREDIT_NATIVE=0): four
#          runs, JSON each, and a table of CREDIT's time over the eager op's
#   linear-ce  the fused linear cross-entropy benchmark alone
#   user   the user-path tests (fast path, CUDA graphs, autograd and
#          torch.compile, patching a Llama model, fused linear cross-entropy,
#          the raised kernels), then the host-cost and model benchmarks
# Logs and JSON go to $OUT (or /tmp/credit-logs).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=${OUT:-/tmp/credit-logs}
mkdir -p "$LOGS"
SITE=/tmp/credit-site
rm -rf "$SITE" /tmp/credit-wheel-cache /tmp/ctests
wheels=("$ROOT"/dist/credit-*.whl)
[[ -d $ROOT/.whl ]] && wheels+=("$ROOT"/.whl/*.whl)
python3 -m pip install -q --no-index --no-deps --no-compile --target "$SITE" \
  "${wheels[@]}" || exit 1
if [[ -f $ROOT/dist/credit-opt.xz ]]; then
  mkdir -p "$SITE/credit/bin"
  xz -dc "$ROOT/dist/credit-opt.xz" >"$SITE/credit/bin/credit-opt"
  chmod +x "$SITE/credit/bin/credit-opt"
fi
unset CREDIT_OPT CREDIT_ARTIFACTS
export PYTHONPATH=$SITE CREDIT_CACHE_DIR=/tmp/credit-wheel-cache
export PYTHONUNBUFFERED=1 CREDIT_REQUIRE_FASTLAUNCH=1
# The C++ call path (credit.native): built once here, timed, then required.
export CREDIT_NATIVE=${CREDIT_NATIVE:-sync} CREDIT_REQUIRE_NATIVE=1
[[ $CREDIT_NATIVE == 0 ]] && CREDIT_REQUIRE_NATIVE=0
export CREDIT_RAISED_ARTIFACTS=$ROOT/artifacts/raised

# The tests run outside the source tree, so that `credit` is the wheel's.
mkdir -p /tmp/ctests && cp -r "$ROOT/python/tests" /tmp/ctests/tests
cd /tmp/ctests
python3 - <<'PY'
import credit, credit.compiler, credit.fastpath, subprocess
opt = credit.compiler.find_credit_opt()
print("credit from", credit.__file__)
print("credit-opt", opt, "| fast launcher:", credit.fastpath._fastlaunch is not None)
print(subprocess.run(["ldd", opt], capture_output=True, text=True).stdout)
PY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [[ $CREDIT_NATIVE != 0 ]]; then
  python3 -m credit.build --native 2>&1 | tail -3
fi

status=0
for part in ${PART:-user}; do
  if [[ $part == linear-ce ]]; then
    timeout 200 python3 -m credit.modelbench --only linear-ce \
      --out "$LOGS/model.json" 2>&1 | tail -5 || status=1
  elif [[ $part == host ]]; then
    timeout 200 python3 -m credit.hostbench --breakdown --out "$LOGS/host.json" \
      2>&1 | tail -45 || status=1
  elif [[ $part == host-ab ]]; then
    for config in "sync 1" "sync 0" "0 1" "0 0"; do
      read -r path dependent <<<"$config"
      echo "== CREDIT_NATIVE=$path CREDIT_DEPENDENT_LAUNCH=$dependent"
      CREDIT_NATIVE=$path CREDIT_REQUIRE_NATIVE=$([[ $path == 0 ]] && echo 0 || echo 1) \
        CREDIT_DEPENDENT_LAUNCH=$dependent timeout 100 python3 -m credit.hostbench \
        --iters 60 --out "$LOGS/host-native$path-dependent$dependent.json" \
        2>&1 | tail -1 || status=1
    done
    # CREDIT's time over the eager op's in the same run: the host's speed
    # drifts between runs (the eager op by up to half, 2026-12-06), so
    # absolute times of different runs do not compare.
    python3 - "$LOGS" <<'PY'
import glob, json, math, sys
runs = {}
for name in sorted(glob.glob(sys.argv[1] + "/host-native*-dependent*.json")):
    tag = name.rsplit("/", 1)[1][len("host-"):-len(".json")]
    for p in json.load(open(name))["points"]:
        key = (p["op"], p["m"], p["n"], p.get("grad"), p.get("backward"))
        runs.setdefault(key, {})[tag] = p["credit_us"] / p["eager_us"]
tags = sorted({t for v in runs.values() for t in v})
print("op m n grad backward |", " | ".join(tags), "(CREDIT / eager)")
for key, ratios in runs.items():
    print(*key, "|", " | ".join(f"{ratios[t]:.3f}" if t in ratios else "-"
                                for t in tags))
logs = {t: [math.log(r[t]) for r in runs.values() if t in r] for t in tags}
print("geomean |", " | ".join(f"{math.exp(sum(v) / len(v)):.3f}"
                              for v in logs.values()))
PY
  elif [[ $part == sanitize ]]; then
    # The C++ call path's launches and autograd nodes under compute-sanitizer.
    for tool in memcheck racecheck synccheck; do
      timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 3 \
        --report-api-errors no python3 -m pytest -q -p no:cacheprovider \
        tests/gpu/test_userpath.py -k "native" -x \
        >"$LOGS/native-$tool.log" 2>&1 || status=1
      echo "compute-sanitizer $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' \
        "$LOGS/native-$tool.log" | tail -1) | $(grep -E 'passed|failed' \
        "$LOGS/native-$tool.log" | tail -1)"
    done
  elif [[ $part == suite ]]; then
    timeout "${SUITE_TIMEOUT:-500}" python3 -m pytest -q -p no:cacheprovider \
      ${TESTS:-tests/gpu/test_correctness.py} -rf --tb=line \
      >"$LOGS/wheel-suite.log" 2>&1 || status=1
    grep -E "^FAILED|Error" "$LOGS/wheel-suite.log" | head -20
    tail -3 "$LOGS/wheel-suite.log"
  else
    timeout 220 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_userpath.py \
      tests/gpu/test_raised.py tests/gpu/test_api.py -rf --tb=short \
      >"$LOGS/userpath-tests.log" 2>&1 || status=1
    grep -E "^FAILED|^ERROR|Error:" "$LOGS/userpath-tests.log" | head -30
    tail -3 "$LOGS/userpath-tests.log"
    timeout 150 python3 -m credit.hostbench --first-calls --breakdown \
      --out "$LOGS/host.json" 2>&1 | tail -40 || status=1
    timeout 200 python3 -m credit.modelbench --out "$LOGS/model.json" \
      2>&1 | tail -8 || status=1
  fi
done
exit $status
