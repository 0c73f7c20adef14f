#!/usr/bin/env python3
"""Compiles every example workload with credit-to-ptx at every cluster size,
with f32 and bf16 storage, and checks the PTX and the manifests.

Each request may give several kernels (the cost model's choices for ranges
of M): together their row ranges cover every M >= 1 exactly once. For each
kernel: the PTX has `.reqnctapercluster C, 1, 1`; with C > 1 it
uses DSMEM (`mapa`, and the asynchronous exchange's `st.async` completing
on initialized mbarriers) and the start-up cluster barrier; there is no
unresolved `.extern .func`; the manifest describes the kernel (entry, params
in launch order, block, cluster, shared memory, dtypes, N); and, where ptxas
is found, `ptxas -arch=sm_90` accepts it (format=bin runs it) with no spills
to local memory beyond what it reports; a sweep kernel carries the plan's
register budget as `.maxnreg`."""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

CLUSTERS = [1, 2, 4, 8, 16]
DTYPES = ["f32", "bf16"]


def retype(text, dtype):
    """The example with its [M, N] and [N] float tensors in `dtype`."""
    text = re.sub(r"\?x(\d+)x(?:f32|bf16|f16)>", rf"?x\1x{dtype}>", text)
    return re.sub(r"<(\d+)x(?:f32|bf16|f16)>", rf"<\1x{dtype}>", text)


def compile_one(credit_opt, example, dtype, cluster, workdir, ptxas_found):
    name = f"{example.stem}-{dtype}-c{cluster}"
    out = workdir / name
    out.mkdir()
    source = out / "input.mlir"
    source.write_text(retype(example.read_text(), dtype))
    fmt = "bin" if ptxas_found else "isa"
    pipeline = (f"builtin.module(credit-to-ptx{{cluster-size={cluster} "
                f"artifacts-dir={out} format={fmt}}})")
    proc = subprocess.run([credit_opt, str(source), "-o", os.devnull,
                           f"--pass-pipeline={pipeline}"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return name, f"credit-opt failed:\n{proc.stderr}"
    index = json.loads((out / "kernels.json").read_text())["kernels"]
    problems = []
    ranges = []
    for entry in index:
        manifest = json.loads((out / entry).read_text())
        ranges += [(low, high, entry) for low, high in manifest["rows"]]
        problems += [f"{entry}: {p}" for p in
                     check_kernel(out, manifest, cluster, ptxas_found)]
    expected = 1
    for low, high, entry in sorted(ranges, key=lambda r: r[0]):
        if low != expected:
            problems.append(f"row ranges do not cover {expected} rows once "
                            f"({entry} starts at {low})")
            break
        expected = high + 1 if high is not None else None
    if expected is not None and not problems:
        problems.append(f"no kernel covers more than {expected - 1} rows")
    return name, len(index), "; ".join(problems) or None


def check_kernel(out, manifest, cluster, ptxas_found):
    ptx = (out / manifest["ptx"]).read_text()
    problems = []
    if f".reqnctapercluster {cluster}, 1, 1" not in ptx:
        problems.append("no .reqnctapercluster")
    if cluster > 1:
        for needle in ["mapa.shared::cluster",
                       "st.async.shared::cluster.mbarrier::complete_tx::bytes",
                       "mbarrier.init", "fence.mbarrier_init.release.cluster",
                       "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity",
                       "barrier.cluster.arrive", "barrier.cluster.wait"]:
            if needle not in ptx:
                problems.append(f"no {needle}")
    if ".extern .func" in ptx:
        problems.append("unresolved .extern .func")
    for key in ["entry", "params", "block", "cluster", "grid",
                "dynamic_shared_memory", "input_dtypes", "output_dtypes", "n",
                "workload", "rows", "plan"]:
        if key not in manifest:
            problems.append(f"manifest lacks {key}")
    if manifest.get("cluster") != [cluster, 1, 1]:
        problems.append(f"manifest cluster {manifest.get('cluster')}")
    if f".entry {manifest.get('entry')}(" not in ptx:
        problems.append("manifest entry is not the PTX entry")
    params = re.findall(r"\.param \.(?:u64|b64)[^\n]*", ptx)
    if len(params) != len(manifest["params"]):
        problems.append(f"{len(params)} PTX params, manifest lists "
                        f"{len(manifest['params'])}")
    budget = manifest.get("plan", {}).get("register_budget")
    if manifest["tiling"]["staging"] != "registers" and \
            f".maxnreg {budget}" not in ptx:
        problems.append(f"a sweep kernel without .maxnreg {budget}")
    if ptxas_found and not (out / manifest["cubin"]).exists():
        problems.append("no cubin")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("credit_opt")
    parser.add_argument("examples", type=pathlib.Path)
    args = parser.parse_args()

    ptxas_found = shutil.which("ptxas") or any(
        os.path.exists(os.path.join(os.environ.get(v, "/nonexistent"), "bin",
                                    "ptxas"))
        for v in ["CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"])
    if not ptxas_found:
        print("SKIPPED ptxas checks: ptxas not found on PATH or under "
              "CUDA_ROOT/CUDA_HOME/CUDA_PATH; PTX is still generated and "
              "checked")
    examples = sorted(args.examples.glob("*.mlir"))
    jobs = [(e, d, c) for e in examples for d in DTYPES for c in CLUSTERS]
    failures = []
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = pool.map(
            lambda job: compile_one(args.credit_opt, *job, pathlib.Path(tmp),
                                    ptxas_found), jobs)
        kernels = 0
        for name, count, problem in results:
            kernels += count
            if problem:
                failures.append(name)
                print(f"FAIL {name}: {problem}")
    print(f"compiled {len(jobs)} requests ({len(examples)} workloads x "
          f"{len(DTYPES)} dtypes x {len(CLUSTERS)} cluster sizes) into "
          f"{kernels} kernels, ptxas {'checked' if ptxas_found else 'skipped'}"
          f", {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
