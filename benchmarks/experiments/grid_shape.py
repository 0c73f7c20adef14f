"""Experiment prepared 2026-12-05 (twenty-eighth session) and run in the
twenty-ninth on an H100: do CREDIT's long-row cluster kernels lose to Quack
because of the grid's shape? No: both 2-D layouts took 0.991-1.017x the
1-D grid's time (grid-shape-2026-12-05-run1.json, RESULTS.md).

At softmax bf16 64-128 x 262144 (H100) CREDIT's fastest tilings are 7-9%
slower than Quack's kernel, and Quack's form built in CREDIT (one-sweep
async staging with reused exponentials) 13-16%. Residency, concurrent
rows, instruction count, staging, register caps and the compile-time
cluster shape were each ruled out (RESULTS.md, twenty-eighth session).
What is left is how the clusters are laid out: CREDIT launches a 1-D grid
of clusters (CTA x = row group * C + rank, cluster C x 1 x 1); Quack a 2-D
grid (rows along x, ranks along y, cluster 1 x C x 1).

`build` copies a library and rewrites the PTX of its cluster kernels
without split rows so that the row group comes from the grid's other
dimension, then reassembles them with ptxas:

- rows_x (Quack's layout): grid (groups, C), cluster (1, C, 1); the row
  group is %ctaid.x and the rank's slice %cluster_ctaid.y;
- rows_y: grid (C, groups), cluster (C, 1, 1); the row group is %ctaid.y.

`time` launches the rewritten kernels in that layout (a cluster per row
group, CREDIT_WAVES=0) and times the library's sweep.json like
split_sweep.py, with Quack where it is installed; time the source library
with `CREDIT_WAVES=0 split_sweep.py time` in the same call for the
baseline (order A B B A):

    cd python                                                  # CPU
    python ../benchmarks/experiments/wave_steps.py build ../artifacts/gs softmax
    python ../benchmarks/experiments/grid_shape.py build \\
        ../artifacts/gs ../artifacts/gs-x rows_x
    # GPU machine, artifacts/gs and gs-x carried, Quack installed:
    CREDIT_WAVES=0 ROWS=16,35,64,128 python \\
        ../benchmarks/experiments/split_sweep.py time ../artifacts/gs A.json
    ROWS=16,35,64,128 python ../benchmarks/experiments/grid_shape.py \\
        time ../artifacts/gs-x B.json

Any library with a sweep.json works (wave_steps.py and split_sweep.py
build write one).
"""
import json, os, pathlib, re, shutil, subprocess, sys

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
ORIENTATIONS = ("rows_x", "rows_y")


def rewrite(ptx: str, cluster: int, orientation: str) -> str | None:
    """The PTX with the row group taken from the other grid dimension, or
    None where it does not have the expected form (the row group as
    %ctaid.x shifted right by log2(cluster), read once)."""
    if cluster & (cluster - 1) or ptx.count("%ctaid.x") != 1:
        return None
    read = re.search(r"mov\.u32\s+(%r\d+), %ctaid\.x;", ptx)
    if not read:
        return None
    shift = re.compile(rf"shr\.u32\s+(%r\d+), {re.escape(read.group(1))}, "
                       rf"{cluster.bit_length() - 1};")
    if len(shift.findall(ptx)) != 1:
        return None
    ptx = shift.sub(rf"mov.u32 \1, {read.group(1)};", ptx)
    if orientation == "rows_y":
        return ptx.replace("%ctaid.x", "%ctaid.y")
    declared = f".reqnctapercluster {cluster}, 1, 1"
    if declared not in ptx:
        return None
    return (ptx.replace("%cluster_ctaid.x", "%cluster_ctaid.y")
            .replace(declared, f".reqnctapercluster 1, {cluster}, 1"))


def build(source: str, out: str, orientation: str) -> None:
    if orientation not in ORIENTATIONS:
        sys.exit(f"orientation: one of {', '.join(ORIENTATIONS)}")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(source, out)
    rewritten, skipped = [], []
    for path in sorted(pathlib.Path(out).glob("*/*.json")):
        manifest = json.loads(path.read_text())
        if "entry" not in manifest or not manifest.get("cubin"):
            continue
        cluster = manifest["cluster"][0]
        if cluster == 1 or manifest["tiling"]["splits"] > 1:
            continue
        ptx = path.with_suffix(".ptx")
        text = rewrite(ptx.read_text(), cluster, orientation)
        if text is None:
            skipped.append(manifest["name"])
            continue
        ptx.write_text(text)
        subprocess.run([PTXAS, "-arch=" + manifest["chip"], str(ptx), "-o",
                        str(path.with_name(manifest["cubin"]))], check=True)
        rewritten.append(manifest["name"])
    pathlib.Path(out, "grid_shape.json").write_text(json.dumps(
        {"orientation": orientation, "rewritten": rewritten,
         "skipped": skipped}, indent=1))
    print(f"{len(rewritten)} kernels rewritten ({orientation}), "
          f"{len(skipped)} skipped: {', '.join(skipped) or 'none'}")


def _patch_launcher(orientation: str, names: set) -> None:
    from credit import launcher
    original = launcher.LoadedKernel._config

    def config(kernel, grid_x, stream):
        cfg = original(kernel, grid_x, stream)
        if kernel.manifest.name not in names:
            return cfg
        driver = launcher._driver()
        cluster = kernel.manifest.cluster
        groups = grid_x // cluster
        attr = driver.CUlaunchAttribute()
        attr.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.z = 1
        if orientation == "rows_x":
            cfg.gridDimX, cfg.gridDimY = groups, cluster
            attr.value.clusterDim.x, attr.value.clusterDim.y = 1, cluster
        else:
            cfg.gridDimX, cfg.gridDimY = cluster, groups
            attr.value.clusterDim.x, attr.value.clusterDim.y = cluster, 1
        cfg.attrs = [attr]
        cfg.numAttrs = 1
        return cfg

    launcher.LoadedKernel._config = config


def time(library: str, result: str) -> None:
    # The Python launcher (the fast path's grid is 1-D), a cluster per row
    # group (no row loop: each cluster's row group is its grid index).
    os.environ["CREDIT_WAVES"] = "0"
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    shape = json.loads(pathlib.Path(library, "grid_shape.json").read_text())
    _patch_launcher(shape["orientation"], set(shape["rewritten"]))
    import split_sweep
    split_sweep.time(library, result)


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
