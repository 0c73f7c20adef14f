#!/usr/bin/env python3
"""Compiles random row-wise computations written in linalg, as front ends
emit them, through credit-to-ptx (raise-linalg first) and fails on any
crash, hang, or exit without a matching diagnostic.

Each program is a random description of generate_programs.py (reductions
with add, max or min; tensors) written as a chain of `linalg.generic`s
over [M, N]: one elementwise generic per reduced value (row inputs,
broadcast vectors through (d1), per-row scalars and earlier results
through (d0) or, half the time, [M, 1] through (d0, 0); the column index
through `linalg.index 1`; 16-bit storage extended inside), a reduction
generic into [M] (or [M, 1]) initialized by `linalg.fill`, one generic per
row output (rounded to its type) and per scalar output. credit-to-ptx must
either raise and compile it (exit 0) or stop with an `error:` that says
nothing was compiled (exit 1, with warnings saying what was not raised and
why), within 120 seconds. Prints how many programs were raised."""

import concurrent.futures
import os
import pathlib
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from generate_programs import (find_ptxas, keep_failure,  # noqa: E402
                               parse_arguments, program, render_ops,
                               write_library)

FILL = {"add": "0.0", "max": "0xFF800000", "min": "0x7F800000"}
COMBINE = {"add": "arith.addf", "max": "arith.maximumf",
           "min": "arith.minimumf"}


def linalg_program(rng, index):
    """A random program in linalg (text) and its description (whose
    operands are the function's arguments and results, in order), from a
    description without the combiners linalg has no single op for (addexp,
    sqdev) and without column sums or memrefs."""
    while True:
        text, d = program(rng, index)
        kinds = [k for stage in d["stages"] for k in stage["kinds"]]
        if (d["colsums"] == 0 and "memref" not in text and
                all(k in FILL for k in kinds)):
            break
    n, m = d["n"], "?" if d["m"] is None else str(d["m"])
    keep = rng.random() < 0.5  # per-row values as [M, 1]
    lines, params, dims = [], [], []
    row_t = {t: f"tensor<{m}x{n}x{t}>" for t in ("f32", "bf16", "f16", "i8")}
    for i, t in enumerate(d["ins"]):
        params.append(f"%in{i}: {row_t[t]}")
    for i, t in enumerate(d["bcasts"]):
        params.append(f"%bc{i}: tensor<{n}x{t}>")
    for i, t in enumerate(d["scalars"]):
        params.append(f"%sc{i}: tensor<{m}x{t}>")
    if m == "?":
        lines.append("%c0 = arith.constant 0 : index")
        lines.append("%m = tensor.dim %in0, %c0 : " + row_t[d["ins"][0]])
        dims = ["%m"]
    dyn = f"({', '.join(dims)})" if dims else "()"
    row_map = "affine_map<(d0, d1) -> (d0, d1)>"
    col_map = "affine_map<(d0, d1) -> (d1)>"
    per_row_map = ("affine_map<(d0, d1) -> (d0, 0)>" if keep else
                   "affine_map<(d0, d1) -> (d0)>")
    per_row_t = f"tensor<{m}x1xf32>" if keep else f"tensor<{m}xf32>"
    count = [0]

    def fresh(prefix):
        count[0] += 1
        return f"%{prefix}{count[0]}"

    def operands(region_args, reduced_values, rank2=True):
        """(value, type, map, block arg name, element type) of the region's
        arguments that a generic takes as inputs."""
        out = []
        for name in region_args:
            if name == "%j":
                continue
            kind, i = name[1], name[2:]
            if kind == "x":
                t = d["ins"][int(i)]
                out.append((f"%in{i}", row_t[t], row_map, name, t))
            elif kind == "b":
                t = d["bcasts"][int(i)]
                out.append((f"%bc{i}", f"tensor<{n}x{t}>", col_map, name, t))
            elif kind == "s":
                t = d["scalars"][int(i)]
                out.append((f"%sc{i}", f"tensor<{m}x{t}>",
                            "affine_map<(d0, d1) -> (d0)>" if rank2 else
                            "affine_map<(d0) -> (d0)>", name, t))
            else:  # %rS_K: an earlier reduction's result
                value = reduced_values[name]
                out.append((value, per_row_t if rank2 else f"tensor<{m}xf32>",
                            per_row_map if rank2 else
                            "affine_map<(d0) -> (d0)>", name, "f32"))
        return out

    def generic(region, value_name, inputs, result_t, elem_t, rank2=True):
        """A generic computing `value_name` of `region` elementwise."""
        empty = fresh("e")
        lines.append(f"{empty} = tensor.empty{dyn} : {result_t}")
        result = fresh("v")
        maps = [i[2] for i in inputs] + [row_map if rank2 else
                                          "affine_map<(d0) -> (d0)>"]
        iterators = '"parallel", "parallel"' if rank2 else '"parallel"'
        ins = ", ".join(i[0] for i in inputs)
        in_types = ", ".join(i[1] for i in inputs)
        ins_clause = f"ins({ins} : {in_types}) " if inputs else ""
        lines.append(f"{result} = linalg.generic {{indexing_maps = "
                     f"[{', '.join(maps)}], iterator_types = [{iterators}]}} "
                     f"{ins_clause}outs({empty} : {result_t}) {{")
        block_args = []
        body = []
        for value, _, _, name, t in inputs:
            if t in ("bf16", "f16"):
                block_args.append(f"{name}_s: {t}")
                body.append(f"{name} = arith.extf {name}_s : {t} to f32")
            else:
                block_args.append(f"{name}: {t}")
        block_args.append(f"%out: {elem_t}")
        lines.append(f"^bb0({', '.join(block_args)}):")
        if "%j" in region["args"] and rank2:
            body.append("%j = linalg.index 1 : index")
        body += render_ops(region["ops"])
        final = value_name
        if elem_t in ("bf16", "f16"):
            body.append(f"%rounded = arith.truncf {value_name} : f32 to {elem_t}")
            final = "%rounded"
        lines.extend("  " + line for line in body)
        lines.append(f"  linalg.yield {final} : {elem_t}")
        lines.append(f"}} -> {result_t}")
        return result

    reduced_values = {}
    for s, stage in enumerate(d["stages"]):
        inputs = operands(stage["args"], reduced_values)
        for k, (kind, name) in enumerate(zip(stage["kinds"], stage["yields"])):
            value = generic(stage, name, inputs, row_t["f32"], "f32")
            init = fresh("e")
            lines.append(f"{init} = tensor.empty{dyn} : {per_row_t}")
            constant = fresh("c")
            lines.append(f"{constant} = arith.constant {FILL[kind]} : f32")
            filled = fresh("f")
            lines.append(f"{filled} = linalg.fill ins({constant} : f32) "
                         f"outs({init} : {per_row_t}) -> {per_row_t}")
            reduced = fresh("r")
            lines.append(
                f"{reduced} = linalg.generic {{indexing_maps = [{row_map}, "
                f"{per_row_map}], iterator_types = [\"parallel\", "
                f"\"reduction\"]}} ins({value} : {row_t['f32']}) "
                f"outs({filled} : {per_row_t}) {{")
            lines.append("^bb0(%in: f32, %acc: f32):")
            lines.append(f"  %c = {COMBINE[kind]} %in, %acc : f32")
            lines.append("  linalg.yield %c : f32")
            lines.append(f"}} -> {per_row_t}")
            reduced_values[f"%r{s}_{k}"] = reduced
    results = []
    if d["epilogue"] is not None:
        region = d["epilogue"]
        inputs = operands(region["args"], reduced_values)
        for name, t in zip(region["yields"], d["outs"]):
            results.append((generic(region, name, inputs, row_t[t], t), row_t[t]))
    if d["finalize"] is not None:
        region = d["finalize"]
        if keep:  # [M, 1] results to [M] for a rank-1 generic
            for key, value in list(reduced_values.items()):
                flat = fresh("flat")
                lines.append(f"{flat} = tensor.collapse_shape {value} [[0, 1]] "
                             f": {per_row_t} into tensor<{m}xf32>")
                reduced_values[key] = flat
        inputs = operands(region["args"], reduced_values, rank2=False)
        for name, t in zip(region["yields"], d["scalar_outs"]):
            result_t = f"tensor<{m}x{t}>"
            results.append((generic(region, name, inputs, result_t, t,
                                    rank2=False), result_t))
    body = "\n".join("  " + line for line in lines)
    values = ", ".join(r for r, _ in results)
    types = ", ".join(t for _, t in results)
    return (f"func.func @lin{index}({', '.join(params)}) -> ({types}) {{\n"
            f"{body}\n  return {values} : {types}\n}}\n"), d


def compile_one(credit_opt, text, fmt, timeout):
    """None (raised and compiled), "unraised" (refused with the expected
    diagnostic), or what went wrong."""
    with tempfile.TemporaryDirectory() as work:
        source = pathlib.Path(work) / "program.mlir"
        source.write_text(text)
        pipeline = (f"builtin.module(credit-to-ptx{{artifacts-dir={work}/out "
                    f"format={fmt} explain=true}})")
        try:
            done = subprocess.run([credit_opt, str(source), "-o", os.devnull,
                                   f"--pass-pipeline={pipeline}"],
                                  capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"hang (over {timeout} s)"
        if done.returncode == 0:
            if not list((pathlib.Path(work) / "out").glob("*.ptx")):
                return "exit 0 without PTX"
            return None
        if done.returncode == 1 and "error: nothing to compile" in done.stderr:
            return "unraised"
        return f"exit {done.returncode}:\n{done.stderr[-4000:]}"


def main():
    args = parse_arguments(__doc__.splitlines()[0],
                           "each program that is raised")
    rng = random.Random(args.seed)
    if args.library:
        return write_library(
            args, lambda index: (*linalg_program(rng, index), 0))
    programs = [linalg_program(rng, i)[0] for i in range(args.count)]
    if args.print is not None:
        print(programs[args.print], end="")
        return 0
    fmt = "bin" if find_ptxas() else "isa"
    raised = failures = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(compile_one, args.credit_opt, text, fmt,
                               args.timeout) for text in programs]
        for index, future in enumerate(futures):
            problem = future.result()
            if problem is None:
                raised += 1
            elif problem != "unraised":
                failures += 1
                print(f"program {index}: {problem.splitlines()[0]}")
                keep_failure(args.keep, f"linalg-{index}", programs[index],
                             problem)
    print(f"linalg: {args.count} programs, {raised} raised and compiled to "
          f"PTX ({fmt}), {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
