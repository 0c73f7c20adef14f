#!/usr/bin/env python3
"""Runs the kernels of random programs on the GPU and checks every output
against program_oracle.py's float64 evaluation.

    # here (credit-opt):
    python3 test/Fuzz/generate_programs.py build/bin/credit-opt \\
        --count 200 --library artifacts/generated
    # on the GPU machine (PyTorch, cuda-python):
    PYTHONPATH=python python3 test/Fuzz/run_generated.py artifacts/generated

For each program: fresh random inputs (uniform in [-2, 2], or in [0.25, 2]
for half the launches, rounded to their element type; integer scalars in
[-5, 5]), every output poisoned (-7776, which no element is expected to
be, and -128), the kernels launched through credit's launcher at the program's M
(or at M = 1, 3 and 37 where M is dynamic) on rows whose stride is padded
to the kernels' stride multiple and half the time three multiples more,
then compared element by element with the
oracle, which skips only elements whose value f32 may round either way.
Prints one line per program and launch, and exits 1 if any element is
wrong or any launch fails."""

import json
import pathlib
import random
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import program_oracle  # noqa: E402

from credit.launcher import LoadedKernelSet  # noqa: E402
from credit.manifest import check_kernel_set, load_artifacts  # noqa: E402

DEVICE = "cuda"
TORCH = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16,
         "i8": torch.int8, "i32": torch.int32, "i64": torch.int64}


def rows(m, n, dtype, stride, fill=None, low=-2.0):
    """An [m, n] view of a buffer whose rows are `stride` apart: uniform in
    [low, 2], or `fill`."""
    if fill is None:
        buffer = torch.empty(m, stride, dtype=torch.float32, device=DEVICE)
        buffer.uniform_(low, 2)
        buffer = buffer.to(TORCH[dtype])
    else:
        buffer = torch.full((m, stride), fill, dtype=TORCH[dtype], device=DEVICE)
    return buffer[:, :n]


def poison(dtype):
    """What outputs hold before the kernel: not NaN, which a program may
    rightly compute, but a value no element is expected to be."""
    return -7776.0 if dtype in ("f32", "bf16", "f16") else -128


def scalar_input(m, dtype, low):
    if dtype in ("i32", "i64"):
        return torch.randint(-5, 6, (m,), dtype=TORCH[dtype], device=DEVICE)
    return torch.empty(m, device=DEVICE).uniform_(low, 2).to(TORCH[dtype])


def run(directory, description, kernels, m):
    n = description["n"]
    # Rows padded past N to the kernels' stride multiple, then (half the
    # time) by a few more multiples: strided rows.
    multiple = max(k.stride_multiple for k in kernels.kernels.kernels)
    stride = (-(-n // multiple) + random.choice([0, 3])) * multiple
    # Half the launches on positive inputs only, where logarithms and
    # square roots of inputs are numbers rather than NaN.
    low = random.choice([-2.0, 0.25])
    ins = [rows(m, n, t, stride, low=low) for t in description["ins"]]
    bcasts = [torch.empty(n, device=DEVICE).uniform_(low, 2).to(TORCH[t])
              for t in description["bcasts"]]
    scalars = [scalar_input(m, t, low) for t in description["scalars"]]
    outs = [rows(m, n, t, stride, poison(t)) for t in description["outs"]]
    scalar_outs = [torch.full((m,), poison(t), dtype=TORCH[t], device=DEVICE)
                   for t in description["scalar_outs"]]
    blocks = description["blocks"]
    colsums = [torch.full((blocks, n), poison("f32"), device=DEVICE)
               for _ in range(description["colsums"])]
    args = []
    for t in ins:
        args += [t.data_ptr(), t.stride(0)]
    args += [t.data_ptr() for t in bcasts + scalars]
    for t in outs:
        args += [t.data_ptr(), t.stride(0)]
    args += [t.data_ptr() for t in scalar_outs + colsums]
    kernels.launch(args, m, torch.cuda.current_stream().cuda_stream,
                   blocks if colsums else None)
    torch.cuda.synchronize()

    xp = program_oracle.Torch(DEVICE)
    f64 = torch.float64
    reference = program_oracle.evaluate(description, {
        "ins": [t.to(f64) for t in ins], "bcasts": [t.to(f64) for t in bcasts],
        "scalars": [t.to(f64) for t in scalars]}, xp)
    totals = [0, 0, 0]
    problems = []
    groups = [("out", reference["outs"], outs, description["outs"]),
              ("scalar_out", reference["scalar_outs"], scalar_outs,
               description["scalar_outs"]),
              ("colsum", reference["colsums"], colsums,
               ["f32"] * len(colsums))]
    for name, values, tensors, dtypes in groups:
        for index, (value, got, dtype) in enumerate(zip(values, tensors, dtypes)):
            checked, skipped, bad, examples = program_oracle.compare(
                value, got.to(f64), dtype, xp)
            totals[0] += checked
            totals[1] += skipped
            totals[2] += bad
            if bad:
                problems.append(f"{name}{index} ({dtype}): {bad} wrong, e.g. "
                                + "; ".join(f"{i}: got {g!r}, expected {v!r} "
                                            f"+- {e:.3g}"
                                            for i, g, v, e in examples))
    return totals, problems


def main(argv):
    library = pathlib.Path(argv[1])
    # The launcher loads kernels into the current context: PyTorch's.
    torch.zeros(1, device=DEVICE)
    torch.manual_seed(20261205)
    random.seed(20261205)
    failures = 0
    checked = skipped = 0
    for directory in sorted(library.glob("gen*"), key=lambda d: int(d.name[3:])):
        description = json.loads((directory / "program.json").read_text())
        try:
            manifests = load_artifacts(directory)
            kernels = LoadedKernelSet(
                check_kernel_set(manifests, directory.name),
                torch.cuda.current_device())
        except Exception as error:  # reported, then the next program
            failures += 1
            print(f"{directory.name}: FAILED to load: {error}")
            continue
        sizes = ([description["m"]] if description["m"] is not None else
                 [1, 3, 37])
        for m in sizes:
            try:
                totals, problems = run(directory, description, kernels, m)
            except Exception as error:
                failures += 1
                print(f"{directory.name} M={m}: FAILED: {error!r}")
                continue
            checked += totals[0]
            skipped += totals[1]
            verdict = "ok" if not problems else "WRONG"
            failures += bool(problems)
            print(f"{directory.name} M={m} N={description['n']}: {verdict}, "
                  f"{totals[0]} checked, {totals[1]} skipped")
            for problem in problems:
                print(f"  {problem}")
    print(f"generated on the GPU: {checked} elements checked, {skipped} "
          f"skipped, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
