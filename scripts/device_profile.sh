#!/usr/bin/env bash
# Runs on the GPU machine: Nsight Compute (clocks left alone) on one
# benchmark point's kernel: CREDIT's at a cluster size (0: its choice) or a
# hand-written peer's (credit.profile), e.g.
#   bash scripts/device_profile.sh layernorm bf16 64 262144 0
#   bash scripts/device_profile.sh layernorm bf16 64 262144 triton_looped
# with artifacts/bench (and artifacts/baselines) carried. The report goes to
# $OUT.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" bench
name="$1-$2-$3x$4-${5:-0}"
# CREDIT's kernels are WORKLOAD_..., Triton's WORKLOAD_VARIANT, the CUDA
# baselines paper_WORKLOAD_VARIANT.
ncu --clock-control none --kernel-name "regex:^(paper_)?${1}_" --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section MemoryWorkloadAnalysis --section WarpStateStats \
  python3 -m credit.profile "$@" >"$LOGS/ncu-$name.txt" 2>&1
grep -E "==PROF==|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Grid Size|Cluster Size|Waves Per SM|Block Limit|Stall|Warp Cycles Per Issued" "$LOGS/ncu-$name.txt" | head -40
