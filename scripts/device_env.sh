# Sourced by the scripts/device_*.sh scripts on the GPU machine: the
# repository root, the log folder ($OUT when the device tool runs it), the
# Python path to this checkout's package, and the kernel library to use
# (first argument: artifacts/<name>, carried from the CPU machine; or
# artifacts/<name>.tar.xz, a twelfth of its size, unpacked here when the
# folder is not: `tar -cJf artifacts/NAME.tar.xz -C artifacts NAME`).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=${OUT:-/tmp/credit-logs}
mkdir -p "$LOGS"
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
if [[ ! -d $ROOT/artifacts/$1 && -f $ROOT/artifacts/$1.tar.xz ]]; then
  # Unpacked aside and moved whole: a broken archive leaves no half library
  # that a later call would take for the whole one.
  unpacked=$(mktemp -d "$ROOT/artifacts/.unpack-XXXXXX")
  if tar -xJf "$ROOT/artifacts/$1.tar.xz" -C "$unpacked" && [[ -d $unpacked/$1 ]]; then
    mv "$unpacked/$1" "$ROOT/artifacts/$1"
  else
    echo "artifacts/$1.tar.xz does not unpack to a folder $1" >&2
  fi
  rm -rf "$unpacked"
fi
export CREDIT_ARTIFACTS="$ROOT/artifacts/$1"
export CREDIT_CACHE_DIR=/tmp/credit-cache
export PYTHONUNBUFFERED=1
