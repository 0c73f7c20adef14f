# Sourced on the GPU machine by scripts that time Quack (device_quack.sh,
# benchmarks/experiments): installs quack-kernels 0.6.5 on
# nvidia-cutlass-dsl 4.8.1 from the wheels carried in .quack/ into
# /tmp/quack-site and puts it on PYTHONPATH; returns non-zero with a message
# when the wheels are incomplete. The 92 MB nvidia-cutlass-dsl-libs-cu13
# wheel comes split in parts (.quack/pK/cu13.part-*, its SHA-256 in
# .quack/p1/cu13.sha256) spread over folders that each fit the device's
# carry limit beside the repository: carry them one folder per call on the
# still-warm machine (what an earlier call carried stays there).
install_quack() {
  local root wheels whole parts
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  wheels=$(mktemp -d)
  whole="$wheels/nvidia_cutlass_dsl_libs_cu13-4.8.1-cp312-cp312-manylinux_2_28_x86_64.whl"
  # The parts in name order (cu13.part-aa, -ab, ...), whichever folder
  # holds each; the checksum says whether all of them came.
  mapfile -t parts < <(ls "$root"/.quack/*/cu13.part-* 2>/dev/null |
    awk -F/ '{print $NF "\t" $0}' | sort | cut -f2)
  [[ ${#parts[@]} -gt 0 ]] && cat "${parts[@]}" >"$whole"
  if ! (cd "$wheels" && sed "s#  .*#  $(basename "$whole")#" \
        "$root"/.quack/p1/cu13.sha256 | sha256sum --check --status); then
    echo "the cu13 wheel's parts in .quack/*/ do not add up to the wheel in" \
      ".quack/p1/cu13.sha256 (${#parts[@]} found): carry every .quack/pK" >&2
    rm -rf "$wheels"
    return 2
  fi
  cp "$root"/.quack/*/*.whl "$wheels/"
  local site=/tmp/quack-site
  rm -rf "$site"
  python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" \
    "$wheels"/*.whl || return 1
  rm -rf "$wheels"
  # A --target directory's .pth files are not read: the DSL's packages go
  # on the path by hand.
  export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$site:$site/nvidia_cutlass_dsl/dsl_packages"
  python3 -c "import quack; print('quack', quack.__version__)"
}
