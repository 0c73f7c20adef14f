#!/usr/bin/env bash
# GPU machine: what masked_chunks.diff needs to land. Its timeouts add up
# to more than one call's 600 s: where the machine is slow, run the timing
# part (st, odd) and the correctness part (suite, memcheck, A/B) as two
# calls on the still-warm machine. Libraries built on the CPU, OLD from main and NEW with the diff
# applied, carried as artifacts/dev/NAME.tar.xz (unpacked here):
#   cd python
#   CREDIT_OPT=... python ../benchmarks/experiments/default_library.py ../artifacts/abOLD   (and abNEW)
#   SWEEP=../benchmarks/experiments/sweeps/stack-2026-12-07.json \
#     python ../benchmarks/experiments/split_sweep.py build ../artifacts/stOLD            (and stNEW)
#   python ../benchmarks/experiments/pairs_sweep.py build \
#     ../benchmarks/experiments/sweeps/masked-chunks-2026-12-07.json ../artifacts/oddOLD  (and oddNEW)
#   python -m credit.build --out ../artifacts/gpuNEW --suite gpu          (NEW only)
#   tar -cJf ../artifacts/dev/X.tar.xz -C ../artifacts X                  (each)
# Then: the rmsnorm f32 57520 tilings old and new at M = 4, 8, 16 (each
# call after a foreign kernel), the GPU correctness suite and memcheck on
# the new kernels, the evaluation points with many masked chunks old and
# new, and an A/B of the default on the decode and ours grids.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
mkdir -p artifacts
for l in abOLD abNEW stOLD stNEW oddOLD oddNEW gpuNEW; do
  [[ -d artifacts/$l || ! -f artifacts/dev/$l.tar.xz ]] ||
    tar -xJf "artifacts/dev/$l.tar.xz" -C artifacts/
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(source scripts/device_env.sh stNEW; cd python
 for l in stOLD stNEW; do
   ROWS=4,8,16 AFTER_FOREIGN=1 timeout 60 python3 \
     ../benchmarks/experiments/split_sweep.py time ../artifacts/$l "$LOGS/$l.json" \
     >"$LOGS/$l.log" 2>&1
   echo "$l rc=$?"
 done
 for l in oddOLD oddNEW; do
   timeout 90 python3 ../benchmarks/experiments/pairs_sweep.py time \
     ../benchmarks/experiments/sweeps/masked-chunks-2026-12-07.json \
     ../artifacts/$l "$LOGS/$l.json" >"$LOGS/$l.log" 2>&1
   echo "$l rc=$?"
 done)
LIBRARY=gpuNEW SANITIZE=0 SUITE_TIMEOUT=200 TESTS=tests/gpu/test_correctness.py \
  bash scripts/device_gpu_suite.sh 2>&1 | tail -6
(source scripts/device_env.sh gpuNEW; cd python
 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 \
   --report-api-errors no python3 -m tests.gpu.sanitize_workloads \
   >"$LOGS/memcheck.log" 2>&1
 echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$LOGS/memcheck.log" | tail -1)")
SEQ="A:decode B:decode B:ours A:ours" STOP_AT=${STOP_AT:-60} \
  bash benchmarks/experiments/ab_default.sh abOLD abNEW 2>&1 | tail -16
