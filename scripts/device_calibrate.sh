#!/usr/bin/env bash
# Runs on the GPU machine: the cost model's calibration and evaluation data.
#  1. benchmarks/calibration/calibrate.cu (built on the CPU machine,
#     artifacts/device/calibrate) measures what the model uses: copy
#     bandwidth, DRAM latency, streaming bandwidth against bytes in flight,
#     block-reduction and cluster-exchange rounds, launch and CTA start
#     costs, issue rate, resident clusters. -> $OUT/calibration.json
#  2. python -m credit.costmodel measure times every candidate tiling the
#     model enumerates at every evaluation point, each checked against a
#     float64 reference first. -> $OUT/costmodel-raw.json
# Build first (CPU machine, from python/):
#   python3 -m credit.costmodel build --out ../artifacts/costmodel
#   nvcc -O3 -arch=sm_90 -std=c++17 -o ../artifacts/device/calibrate \
#     ../benchmarks/calibration/calibrate.cu
#   tar -C ../artifacts -cJf ../artifacts/device/costmodel.tar.xz costmodel
# and carry artifacts/device. Then, on the CPU machine:
#   python3 -m credit.costmodel profile --calibration calibration.json \
#     --out ../targets/h200.json
#   python3 -m credit.costmodel fit --raw costmodel-raw.json --profile ../targets/h200.json
#   python3 -m credit.costmodel evaluate --raw costmodel-raw.json ...
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" costmodel
DEVICE_DIR="$ROOT/artifacts/device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader

if [[ ${SKIP_CALIBRATION:-0} != 1 ]]; then
  timeout 300 "$DEVICE_DIR/calibrate" >"$LOGS/calibration.json" 2>"$LOGS/calibration.err"
  echo "calibrate: exit $?, $(wc -c <"$LOGS/calibration.json") bytes"
  python3 - "$LOGS/calibration.json" <<'PY'
import json, sys
raw = json.load(open(sys.argv[1]))
print({k: raw[k] for k in ("device", "clock_ghz", "copy_gbs", "dram_latency_ns",
                           "launch_us", "fma_per_us_per_sm") if k in raw})
print("cluster exchange us:", raw.get("cluster_exchange_us"))
print("block reduce us:", raw.get("block_reduce_us"))
PY
fi

if [[ ${SKIP_MEASURE:-0} != 1 ]]; then
  mkdir -p /tmp/credit-lib
  tar -C /tmp/credit-lib -xJf "$DEVICE_DIR/costmodel.tar.xz"
  cd "$ROOT/python"
  # MEASURE_REPEAT runs measure the same candidates again (the spread
  # between runs is the noise the model cannot resolve).
  for run in $(seq 1 "${MEASURE_REPEAT:-1}"); do
    suffix=$([[ $run == 1 ]] && echo "" || echo "-$run")
    timeout "${MEASURE_TIMEOUT:-480}" python3 -m credit.costmodel measure \
      --library /tmp/credit-lib/costmodel --out "$LOGS/costmodel-raw$suffix.json" \
      --budget "${MEASURE_BUDGET:-420}" ${MEASURE_ARGS:-} >"$LOGS/measure$suffix.log" 2>&1
    echo "measure run $run: exit $?, $(grep -c 'candidates, best' "$LOGS/measure$suffix.log") points"
    grep -E "NOT TIMED|Error|error" "$LOGS/measure$suffix.log" | head -10
  done
fi
