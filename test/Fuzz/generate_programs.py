#!/usr/bin/env python3
"""Compiles random *valid* credit.rowwise programs to PTX and fails on any
crash, hang, or rejection.

Where mutate_examples.py breaks the examples to test the parser and the
verifiers, this generator writes programs the dialect accepts and the
examples do not contain, to test the lowering: one to three row inputs,
broadcast and per-row scalar inputs of every element type, one to three
reduction stages of every combiner (`max, addexp` pairs and `add, add,
sqdev` triples included), bodies that use the column index, earlier
stages' results, integer scalars, `scf.if` and the math functions, row,
scalar and column-sum outputs of every element type, tensors or memrefs,
static or dynamic M, and row lengths from 1 to past a million, odd ones
included. Each program is compiled by credit-to-ptx (format=bin where
ptxas is found) at a cluster size drawn from 0 (the model's choice), 1,
2, 4, 8 and 16, with the model's remarks on, keeping the host functions
or not; every one must exit 0 within 120 seconds. A compile that
fails is written to --keep DIR with its diagnostics. The generator is
seeded, so a failure reproduces."""

import argparse
import concurrent.futures
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

FLOATS = ["f32", "f16", "bf16"]
SCALAR_TYPES = ["f32", "bf16", "f16", "i32", "i64"]
ROW_OUTPUT_TYPES = ["f32", "bf16", "f16", "i8"]
LENGTHS = [1, 2, 3, 7, 31, 64, 100, 257, 1000, 2048, 4097, 6507, 8192, 12345,
           32000, 65536, 100003, 131072, 262144, 524287, 1048577]
UNARY = ["math.exp", "math.log", "math.rsqrt", "math.sqrt", "math.tanh",
         "math.absf", "arith.negf", "math.exp2", "math.roundeven",
         "math.floor", "math.erf", "math.sin"]
BINARY = ["arith.addf", "arith.subf", "arith.mulf", "arith.divf",
          "arith.maximumf", "arith.minimumf", "arith.maxnumf"]


class Body:
    """Straight-line f32 code over a pool of values."""

    def __init__(self, rng, pool, ints):
        self.rng, self.lines, self.count = rng, [], 0
        self.pool, self.ints = list(pool), list(ints)

    def fresh(self):
        self.count += 1
        return f"%t{self.count}"

    def emit(self, text):
        self.lines.append("      " + text)

    def f32(self):
        """A new f32 value computed from the pool."""
        rng = self.rng
        choice = rng.random()
        name = self.fresh()
        if choice < 0.15 or not self.pool:
            self.emit(f"{name} = arith.constant {rng.choice(['0.5', '1.0', '-2.0', '1.0e-06', '3.25'])} : f32")
        elif choice < 0.35:
            op = rng.choice(UNARY)
            self.emit(f"{name} = {op} {rng.choice(self.pool)} : f32")
        elif choice < 0.75:
            op = rng.choice(BINARY)
            a, b = rng.choice(self.pool), rng.choice(self.pool)
            self.emit(f"{name} = {op} {a}, {b} : f32")
        elif choice < 0.85:
            a, b = rng.choice(self.pool), rng.choice(self.pool)
            c = self.fresh()
            self.emit(f"{c} = arith.cmpf {rng.choice(['olt', 'ogt', 'oeq', 'une'])}, {a}, {b} : f32")
            self.emit(f"{name} = arith.select {c}, {a}, {b} : f32")
        elif choice < 0.93 and self.ints:
            value, type_ = rng.choice(self.ints)
            if type_ == "index":
                cast = self.fresh()
                self.emit(f"{cast} = arith.index_cast {value} : index to i32")
                value, type_ = cast, "i32"
            self.emit(f"{name} = arith.sitofp {value} : {type_} to f32")
        else:  # a branch on a row value
            a, b = rng.choice(self.pool), rng.choice(self.pool)
            c = self.fresh()
            self.emit(f"{c} = arith.cmpf olt, {a}, {b} : f32")
            self.emit(f"{name} = scf.if {c} -> (f32) {{")
            self.emit(f"  scf.yield {a} : f32")
            self.emit("} else {")
            d = self.fresh()
            self.emit(f"  {d} = arith.mulf {a}, {b} : f32")
            self.emit(f"  scf.yield {d} : f32")
            self.emit("}")
        self.pool.append(name)
        return name

    def value(self, type_):
        """A value of `type_` (f32 compute type, or an integer)."""
        for _ in range(self.rng.randint(0, 4)):
            self.f32()
        value = self.f32()
        if type_ in ("i8", "i32", "i64"):
            clamped = self.fresh()
            self.emit(f"{clamped} = math.tanh {value} : f32")
            cast = self.fresh()
            self.emit(f"{cast} = arith.fptosi {clamped} : f32 to {type_}")
            return cast
        return value


def stage_kinds(rng):
    shape = rng.random()
    if shape < 0.15:
        return ["max", "addexp"]
    if shape < 0.25:
        return ["add", "add", "sqdev"]
    return [rng.choice(["add", "max", "min"]) for _ in range(rng.randint(1, 2))]


def program(rng, index):
    n = rng.choice(LENGTHS)
    memref = rng.random() < 0.15
    m = rng.choice(["?", "?", "?", "1", "5", "64"])
    if memref and m == "?":
        m = "32"
    ins = [rng.choice(FLOATS) for _ in range(rng.randint(1, 3))]
    bcasts = [rng.choice(FLOATS) for _ in range(rng.choice([0, 0, 1, 2]))]
    scalars = [rng.choice(SCALAR_TYPES) for _ in range(rng.choice([0, 0, 1, 2]))]
    stages = [stage_kinds(rng) for _ in range(rng.randint(1, 3))]
    outs = [rng.choice(ROW_OUTPUT_TYPES) for _ in range(rng.choice([0, 1, 1, 2]))]
    scalar_outs = [rng.choice(SCALAR_TYPES[:3])
                   for _ in range(rng.choice([0, 0, 1]))]
    colsums = rng.choice([0, 0, 0, 1])
    if not outs and not scalar_outs and not colsums:
        outs = ["f32"]
    blocks = rng.choice([1, 3, 4])

    def tensor(shape, type_):
        if memref:
            return f"memref<{shape}x{type_}>" if shape else f"memref<{type_}>"
        return f"tensor<{shape}x{type_}>"

    groups = [("in", [tensor(f"{m}x{n}", t) for t in ins]),
              ("bc", [tensor(f"{n}", t) for t in bcasts]),
              ("sc", [tensor(f"{m}", t) for t in scalars]),
              ("o", [tensor(f"{m}x{n}", t) for t in outs]),
              ("so", [tensor(f"{m}", t) for t in scalar_outs]),
              ("cs", [tensor(f"{blocks}x{n}", "f32")] * colsums)]
    params = [f"%{prefix}{i}: {type_}" for prefix, types in groups
              for i, type_ in enumerate(types)]
    results = [t for prefix, types in groups[3:] for t in types]

    def operands(keyword, prefix, types):
        if not types:
            return ""
        names = ", ".join(f"%{prefix}{i}" for i in range(len(types)))
        return f" {keyword}({names} : {', '.join(types)})"

    header = (f'credit.rowwise "gen{index}"'
              + operands("ins", "in", groups[0][1])
              + operands("bcast", "bc", groups[1][1])
              + operands("scalars", "sc", groups[2][1])
              + operands("outs", "o", groups[3][1])
              + operands("scalar_outs", "so", groups[4][1])
              + operands("colsum_outs", "cs", groups[5][1]))

    element_args = ([("%j", "index")] + [(f"%x{i}", "f32") for i in range(len(ins))]
                    + [(f"%b{i}", "f32") for i in range(len(bcasts))])
    scalar_args = [(f"%s{i}", t if t.startswith("i") else "f32")
                   for i, t in enumerate(scalars)]
    reduced = []
    regions = []

    def region(keyword, args, yields):
        body = Body(rng, [a for a, t in args if t == "f32"],
                    [(a, t) for a, t in args if t != "f32"])
        values = []
        for kind, type_ in yields:
            if kind == "sqdev":  # the same value the add two before sums
                values.append(values[-2])
            elif kind == "count":
                one = body.fresh()
                body.emit(f"{one} = arith.constant 1.0 : f32")
                values.append(one)
            else:
                values.append(body.value(type_))
        signature = ", ".join(f"{a}: {t}" for a, t in args)
        types = ", ".join(t for _, t in yields)
        lines = [f"    {keyword} ({signature}) {{"] + body.lines
        lines.append(f"      credit.yield {', '.join(values)} : {types}")
        lines.append("    }")
        regions.append("\n".join(lines))

    for s, kinds in enumerate(stages):
        yields = []
        for position, kind in enumerate(kinds):
            if kind == "sqdev":
                yields[-1] = ("count", "f32")
                yields.append(("sqdev", "f32"))
            else:
                yields.append((kind, "f32"))
        region(f"reduce [{', '.join(kinds)}]",
               element_args + scalar_args + reduced, yields)
        reduced = reduced + [(f"%r{s}_{k}", "f32") for k in range(len(kinds))]
    if outs or colsums:
        region("epilogue", element_args + scalar_args + reduced,
               [("value", t if t == "i8" else "f32") for t in outs]
               + [("value", "f32")] * colsums)
    if scalar_outs:
        region("finalize", scalar_args + reduced,
               [("value", "f32")] * len(scalar_outs))

    if memref:
        signature = ""
        call = f"  {header}\n" + "\n".join(regions) + "\n  return"
    else:
        signature = f"-> ({', '.join(results)}) "
        names = [f"%res#{i}" for i in range(len(results))] if len(results) > 1 else ["%res"]
        lhs = f"%res:{len(results)}" if len(results) > 1 else "%res"
        call = (f"  {lhs} = {header}\n" + "\n".join(regions)
                + f"\n  return {', '.join(names)} : {', '.join(results)}")
    return (f"func.func @gen{index}({', '.join(params)}) {signature}{{\n"
            f"{call}\n}}\n")


def find_ptxas():
    for root in (os.environ.get("CUDA_ROOT"), os.environ.get("CUDA_HOME"),
                 os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (pathlib.Path(root) / "bin" / "ptxas").exists():
            return True
    return shutil.which("ptxas") is not None


def compile_one(credit_opt, text, cluster, keep_host, fmt, timeout):
    with tempfile.TemporaryDirectory() as work:
        source = pathlib.Path(work) / "program.mlir"
        source.write_text(text)
        pipeline = (f"builtin.module(credit-to-ptx{{artifacts-dir={work}/out "
                    f"format={fmt} cluster-size={cluster} keep-host={keep_host} "
                    f"explain=true}})")
        try:
            done = subprocess.run([credit_opt, str(source), "-o", os.devnull,
                                   f"--pass-pipeline={pipeline}"],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"hang (over {timeout} s)"
        if done.returncode != 0:
            return f"exit {done.returncode}:\n{done.stderr[-4000:]}"
        if not list((pathlib.Path(work) / "out").glob("*.ptx")):
            return "exit 0 without PTX"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("credit_opt")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", type=pathlib.Path)
    parser.add_argument("--print", type=int, metavar="INDEX",
                        help="print program INDEX and exit")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    cases = [(program(rng, i), rng.choice([0, 0, 1, 2, 4, 8, 16]),
              rng.choice(["false", "true"])) for i in range(args.count)]
    if args.print is not None:
        print(cases[args.print][0], end="")
        return 0
    fmt = "bin" if find_ptxas() else "isa"
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(compile_one, args.credit_opt, *case, fmt,
                               args.timeout) for case in cases]
        for index, future in enumerate(futures):
            problem = future.result()
            if problem is None:
                continue
            failures += 1
            text, cluster, keep_host = cases[index]
            options = f"cluster-size={cluster} keep-host={keep_host}"
            print(f"program {index} ({options}): {problem.splitlines()[0]}")
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"program-{index}.mlir").write_text(
                    f"// {options}\n{text}")
                (args.keep / f"program-{index}.txt").write_text(problem)
    print(f"generated: {args.count} programs compiled to PTX "
          f"({fmt}), {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
