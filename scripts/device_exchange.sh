#!/usr/bin/env bash
# Runs on the GPU machine: the two cluster-exchange protocols measured.
#  1. calibrate exchanges (benchmarks/calibration/calibrate.cu, built on the
#     CPU machine into artifacts/device/calibrate): one exchange round by
#     cluster size, barrier and asynchronous. -> $OUT/exchanges.json
#  2. benchmarks/experiments/exchange_ab.py time: the cost model's three
#     best cluster tilings at each point, async against barrier, each
#     checked against float64. -> $OUT/exchange-ab.json
# Build first (CPU machine, from the repository root):
#   nvcc -O3 -arch=sm_90 -std=c++17 -o artifacts/device/calibrate \
#     benchmarks/calibration/calibrate.cu
#   (cd python && python3 ../benchmarks/experiments/exchange_ab.py build ../artifacts/exchange)
# and carry artifacts/device and artifacts/exchange.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" exchange
timeout 120 "$ROOT/artifacts/device/calibrate" exchanges >"$LOGS/exchanges.json" 2>"$LOGS/exchanges.err"
echo "calibrate exchanges: exit $?"
cat "$LOGS/exchanges.json"
cd "$ROOT/python"
timeout "${AB_TIMEOUT:-300}" python3 ../benchmarks/experiments/exchange_ab.py time \
  "$ROOT/artifacts/exchange" "$LOGS/exchange-ab.json" >"$LOGS/exchange-ab.log" 2>&1
echo "exchange_ab: exit $?"
tail -60 "$LOGS/exchange-ab.log"
