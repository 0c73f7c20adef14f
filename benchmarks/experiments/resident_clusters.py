"""Experiment of 2026-12-05 (twenty-eighth session): does a long-row cluster
kernel lose to Quack at M >= 36 because too many clusters run at once?

At softmax bf16 64 x 262144 CREDIT's fastest tilings take 28-29 us where
Quack takes 25.8 (H100, `wave-steps-2026-12-05-run1.json`); up to 35 rows,
where every cluster is resident at once, the two are even. Quack runs about
3 CTAs per SM (80 registers); c16 t256 e16 shared runs 5. This times fixed
tilings with the CTAs per SM capped by padding their dynamic shared memory
(PAD: CTAs per SM, 0 = the kernel's own), and with the one-wave grid capped
at CAP clusters (fewer rows at once, the same CTAs per SM), under the
default launch rule and a cluster per row group. Only the launch changes:
every kernel is the library's, checked against float64 before it is timed.

    cd python    # a library from wave_steps.py build (artifacts/wsteps2)
    python ../benchmarks/experiments/resident_clusters.py LIBRARY RESULT.json

Run 1 (`resident-clusters-2026-12-05-run1.json`, H100): fewer resident
clusters make every tiling slower, not faster (RESULTS.md, twenty-eighth
session).
"""
import itertools, json, os, pathlib, sys

# The Python launcher (the fast path does not take these knobs).
os.environ["CREDIT_WAVES"] = "1"

PADS = tuple(int(k) for k in os.environ.get("PADS", "0,4,3,2").split(","))
CAPS = tuple(int(k) for k in os.environ.get("CAPS", "0,24,16").split(","))
#: The tilings timed (substrings of their text), of those in LIBRARY/sweep.json.
TILINGS = os.environ.get("TILINGS", "cluster = 16, threads = 256, vector = 8, "
                         "elems = 16, staging = shared;cluster = 16, threads "
                         "= 256, vector = 8, elems = 16, staging = async;"
                         "cluster = 8, threads = 512, vector = 8, elems = 16, "
                         "staging = shared;elems = 128>;elems = 64>").split(";")
ROWS = tuple(int(m) for m in os.environ.get("ROWS", "16,35,48,64,96,128").split(","))
#: Shared memory per SM and reserved per CTA on sm_90 (bytes).
SM_SHARED, CTA_RESERVED = 233472, 1024

KNOBS = {"pad": 0, "cap": 0, "waves": None, "resident": None}


def _patch_launcher():
    from credit import launcher
    driver = launcher._driver()
    attribute = driver.CUfunction_attribute
    original_config = launcher.LoadedKernel._config

    def shared_bytes(kernel) -> int:
        own = kernel.manifest.dynamic_shared_memory
        if not KNOBS["pad"]:
            return own
        static = launcher._check(driver.cuFuncGetAttribute(
            attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel.function),
            "static shared memory")
        return max(own, SM_SHARED // KNOBS["pad"] - static - CTA_RESERVED)

    def config(kernel, grid_x, stream):
        cfg = original_config(kernel, grid_x, stream)
        size = shared_bytes(kernel)
        if size != cfg.sharedMemBytes:
            launcher._check(driver.cuFuncSetAttribute(
                kernel.function,
                attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                size), "padding shared memory")
            cfg.sharedMemBytes = size
        return cfg

    def resident(kernel) -> int:
        cache = kernel.__dict__.setdefault("_resident", {})
        if KNOBS["pad"] not in cache:
            cache[KNOBS["pad"]] = kernel._occupancy()
        return cache[KNOBS["pad"]]

    def rows_per_cluster(kernel, m, blocks):
        clusters = KNOBS["resident"] = resident(kernel)
        if KNOBS["cap"]:
            clusters = min(clusters, KNOBS["cap"])
        return kernel.manifest.rows_per_cluster(m, clusters, blocks,
                                                KNOBS["waves"])

    launcher.LoadedKernel._config = config
    launcher.LoadedKernel.rows_per_cluster = rows_per_cluster


def main(library: str, result: str) -> None:
    import torch
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(library)
    _patch_launcher()
    chosen = json.loads(pathlib.Path(library, "sweep.json").read_text())
    only = os.environ.get("ONLY", "softmax").split(",")
    refs = bench._references()
    rows = []
    for key, tilings in chosen.items():
        workload, dtype, n = key.split("/")
        if workload not in only:
            continue
        n, fn = int(n), bench._credit_fn(workload)
        tilings = [t for t in tilings if any(part in t for part in TILINGS)]
        for m in ROWS:
            torch.manual_seed(m + n)
            args, ref, sets = bench.experiment_inputs(
                suites.Point(workload, dtype, m, n), torch, refs)
            knobs = [(pad, 0, waves) for pad in PADS for waves in (None, 0)]
            knobs += [(0, cap, None) for cap in CAPS if cap]
            for tiling, (pad, cap, waves) in itertools.product(tilings, knobs):
                KNOBS.update(pad=pad, cap=cap, waves=waves)
                err, us = bench.check_and_time(torch, fn, tiling, args, ref,
                                               sets, dtype)
                rows.append({"workload": workload, "dtype": dtype, "m": m,
                             "n": n, "tiling": tiling, "pad": pad, "cap": cap,
                             "launch": "per_group" if waves == 0 else "default",
                             "resident": KNOBS["resident"],
                             "us": us, "error": err})
            print(f"{workload} {m}x{n}: {len(tilings) * len(knobs)} timed",
                  flush=True)
            del sets, args
            torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps({"rows": rows}))
    _table(rows)


def _table(rows) -> None:
    import collections
    table = collections.defaultdict(dict)
    for r in rows:
        label = (r["n"], r["tiling"][16:-1].replace("vector = 8, ", ""),
                 r["pad"], r["cap"], r["launch"], r["resident"])
        table[label][r["m"]] = r["us"]
    print("n tiling pad cap launch resident |", " ".join(f"{m:>6}" for m in ROWS))
    for label, times in table.items():
        print(*label, "|", " ".join(f"{times.get(m) or 0:6.1f}" for m in ROWS))


if __name__ == "__main__":
    main(*sys.argv[1:])
