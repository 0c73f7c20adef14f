#!/usr/bin/env bash
# Runs on a GPU machine, from the repository root: rows sharded across
# GPUs (credit.distributed). Build here beforehand and carry artifacts/:
#   python3 -m credit.build --suite shards --out ../artifacts/shards
#   python3 -m credit.build --suite bench-distributed --out ../artifacts/distbench
# (in python/). Runs tests/gpu/test_distributed.py (the sharded cases, a
# group of one, two ranks sharing a GPU through gloo, two GPUs through NCCL
# where there are two) and tests/test_distributed.py (three gloo ranks on
# CPU tensors), then the benchmark on every GPU of the machine (torchrun,
# one rank per GPU; $OUT/distributed.json). Logs go to $OUT.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" shards
export CREDIT_ARTIFACTS="$ROOT/artifacts/shards:$ROOT/artifacts/distbench"
cd "$ROOT/python"
gpus=$(nvidia-smi --list-gpus | wc -l)
echo "GPUs: $gpus"
status=0
timeout 400 python3 -m pytest -q -p no:cacheprovider -rfs \
  tests/gpu/test_distributed.py tests/test_distributed.py \
  >"$LOGS/distributed-tests.log" 2>&1 || status=1
grep -E "^FAILED|^SKIPPED|passed|failed" "$LOGS/distributed-tests.log" | tail -8
timeout 500 torchrun --standalone --nproc-per-node "$gpus" -m credit.distbench \
  --out "$LOGS/distributed.json" 2>&1 | grep -v Warning | tail -8 || status=1
exit $status
