"""Experiment of 2026-12-04 (#10): registers-staged tilings of the
softmax family and rmsnorm at long rows built under lower register
budgets than the plan's (`.maxnreg`), so that more CTAs fit per SM, as
Quack's 80-register kernels do.

    python register_budget.py build OUT          # CPU: OUT/base, OUT/rNN
    python register_budget.py time LIB RESULT    # GPU, one library each

`build` compiles the tilings below into OUT/base and copies each kernel
into OUT/r80 and OUT/r96 with `.maxnreg` set and the cubin assembled
again by ptxas (its registers and spills noted in OUT/budgets.json).
`time` checks each tiling against float64 and times it (the benchmark's
CUDA graphs) at the rows below.
"""
import json, os, pathlib, re, shutil, subprocess, sys

_T = "#credit.tiling<cluster = {}, threads = {}, vector = 8, elems = {}>"
# (workload, n, tiling, rows)
CASES = [(w, 131072, _T.format(c, t, e), (64, 512))
         for w in ("softmax", "rmsnorm", "cross_entropy")
         for c, t, e in ((8, 256, 64), (16, 128, 64), (8, 512, 32))] + \
        [("softmax", 262144, _T.format(16, t, e), (8, 64))
         for t, e in ((256, 64), (512, 32))]
BUDGETS = (80, 96)


def build(out):
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    base = pathlib.Path(out, "base")
    requests = [Request(w, "bf16", n, 0, WORKLOADS[w].eps, tiling=t)
                for w, n, t, _ in CASES]
    build_requests(requests, str(base), os.cpu_count() or 2, "bin")
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    notes = {}
    for budget in BUDGETS:
        lib = pathlib.Path(out, f"r{budget}")
        shutil.rmtree(lib, ignore_errors=True)
        shutil.copytree(base, lib)
        for ptx in lib.glob("*/*.ptx"):
            text = re.sub(r"\.maxnreg \d+\n", "", ptx.read_text())
            text = re.sub(r"(\.maxntid [^\n]*\n)", rf"\1.maxnreg {budget}\n",
                          text, count=1)
            ptx.write_text(text)
            proc = subprocess.run(
                [ptxas, "-arch=sm_90", "-v", str(ptx), "-o",
                 str(ptx.with_suffix(".cubin"))],
                capture_output=True, text=True, check=True)
            used = re.search(r"Used (\d+) registers", proc.stderr)
            spill = re.search(r"(\d+) bytes spill stores", proc.stderr)
            notes[f"r{budget}/{ptx.stem}"] = {
                "registers": int(used.group(1)),
                "spill_stores": int(spill.group(1)) if spill else 0}
    for manifest in base.glob("*/*.json"):
        data = json.loads(manifest.read_text())
        if "ptxas" in data:
            notes[f"base/{manifest.stem}"] = data["ptxas"]
    pathlib.Path(out, "budgets.json").write_text(json.dumps(notes, indent=1))


def time(library, result):
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(library)
    import torch
    from credit import bench, suites
    refs = bench._references()
    rows = []
    for w, n, tiling, ms in CASES:
        fn = bench._credit_fn(w)
        for m in ms:
            torch.manual_seed(m + n)
            args, ref, sets = bench.experiment_inputs(
                suites.Point(w, "bf16", m, n), torch, refs)
            err, us = bench.check_and_time(torch, fn, tiling, args, ref, sets,
                                           "bf16")
            rows.append({"library": os.path.basename(library.rstrip("/")),
                         "workload": w, "m": m, "n": n, "tiling": tiling,
                         "us": us, "error": err})
            print(rows[-1]["library"], w, f"{m}x{n}", tiling[15:-1],
                  f"{us:.1f}" if us else err, flush=True)
            del args, sets
            torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps({"rows": rows}))


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "python"))
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
