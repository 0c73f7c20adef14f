#!/usr/bin/env bash
# GPU machine: times a costmodel_subset.py library (artifacts/NAME, or
# artifacts/dev/NAME.tar.xz unpacked here) with credit.costmodel measure;
# the raw file goes to $OUT/NAME-raw.json. Built on the CPU:
#   cd python
#   python ../benchmarks/experiments/costmodel_subset.py build \
#     ../benchmarks/experiments/sweeps/masked-candidates-2026-12-07.json ../artifacts/cmsub
#   tar -cJf ../artifacts/dev/cmsub.tar.xz -C ../artifacts cmsub      (about 4 MB)
# Device call: bash benchmarks/experiments/costmodel_subset.sh cmsub, carry
# artifacts/dev. BUDGET: seconds of measuring (default 400).
set -u
NAME=${1:-cmsub}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
[[ -d artifacts/$NAME ]] || tar -xJf "artifacts/dev/$NAME.tar.xz" -C artifacts/
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(source scripts/device_env.sh "$NAME"; cd python
 timeout $(( ${BUDGET:-400} + 90 )) python3 -m credit.costmodel measure \
   --library "../artifacts/$NAME" --out "$LOGS/$NAME-raw.json" \
   --budget "${BUDGET:-400}" >"$LOGS/$NAME.log" 2>&1
 echo "measure rc=$? at ${SECONDS}s"; tail -3 "$LOGS/$NAME.log")
