# Sourced by the scripts/device_*.sh scripts on the GPU machine: the
# repository root, the log folder ($OUT when the device tool runs it), the
# Python path to this checkout's package, and the kernel library to use
# (first argument: artifacts/<name>, carried from the CPU machine).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=${OUT:-/tmp/credit-logs}
mkdir -p "$LOGS"
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
export CREDIT_ARTIFACTS="$ROOT/artifacts/$1"
export CREDIT_CACHE_DIR=/tmp/credit-cache
export PYTHONUNBUFFERED=1
