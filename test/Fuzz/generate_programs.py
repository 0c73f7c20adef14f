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
static or dynamic M, row lengths from 1 to past a million, odd ones
included, and now and then modules of several functions whose ops share
a workload name. Each program is compiled by credit-to-ptx (format=bin where
ptxas is found) at a cluster size drawn from 0 (the model's choice), 1,
2, 4, 8 and 16, for a chip drawn from those with a built-in profile, with
the model's remarks on, keeping the host functions or not (a kept host is
then lowered to LLVM IR by upstream's passes), now and then as one part
of a row split across devices; every one must exit 0 within 120 seconds. A compile that
fails is written to --keep DIR with its diagnostics. The generator is
seeded, so a failure reproduces."""

import argparse
import concurrent.futures
import json
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
#: Chips with a built-in profile, the H200's most often.
CHIPS = ["sm_90", "sm_90", "sm_90", "sm_90a", "sm_100a", "sm_120"]
CONSTANTS = ["0.5", "1.0", "-2.0", "1.0e-06", "3.25"]
PREDICATES = ["olt", "ogt", "oeq", "une"]


class Body:
    """Straight-line f32 code over a pool of values, kept as a list of ops
    (dicts) that render to MLIR and that program_oracle.py interprets."""

    def __init__(self, rng, pool, ints):
        self.rng, self.ops, self.count = rng, [], 0
        self.pool, self.ints = list(pool), list(ints)

    def fresh(self):
        self.count += 1
        return f"%t{self.count}"

    def add(self, **op):
        op["result"] = self.fresh()
        self.ops.append(op)
        return op["result"]

    def f32(self):
        """A new f32 value computed from the pool."""
        rng = self.rng
        choice = rng.random()
        pool = self.pool
        if choice < 0.15 or not pool:
            name = self.add(op="const", value=rng.choice(CONSTANTS))
        elif choice < 0.35:
            name = self.add(op=rng.choice(UNARY), args=[rng.choice(pool)])
        elif choice < 0.75:
            name = self.add(op=rng.choice(BINARY),
                            args=[rng.choice(pool), rng.choice(pool)])
        elif choice < 0.85:  # cmpf and select between the compared values
            name = self.add(op="select", predicate=rng.choice(PREDICATES),
                            args=[rng.choice(pool), rng.choice(pool)])
        elif choice < 0.93 and self.ints:
            value, type_ = rng.choice(self.ints)
            name = self.add(op="sitofp", args=[value], type=type_)
        else:  # a branch: a < b ? a : a * b
            name = self.add(op="if", args=[rng.choice(pool), rng.choice(pool)])
        pool.append(name)
        return name

    def value(self, type_):
        """A value of `type_` (the f32 compute type, or an integer)."""
        for _ in range(self.rng.randint(0, 4)):
            self.f32()
        value = self.f32()
        if type_ in ("i8", "i32", "i64"):  # in range: 100 tanh(v)
            return self.add(op="toint", args=[value], type=type_)
        return value

    def render(self):
        return ["      " + line for line in render_ops(self.ops)]


def render_ops(ops):
    """MLIR lines of a Body's ops."""
    lines = []
    for op in ops:
        r, kind, a = op["result"], op["op"], op.get("args", [])
        if kind == "const":
            lines.append(f"{r} = arith.constant {op['value']} : f32")
        elif kind in UNARY:
            lines.append(f"{r} = {kind} {a[0]} : f32")
        elif kind in BINARY:
            lines.append(f"{r} = {kind} {a[0]}, {a[1]} : f32")
        elif kind == "select":
            lines += [f"{r}c = arith.cmpf {op['predicate']}, {a[0]}, {a[1]} : f32",
                      f"{r} = arith.select {r}c, {a[0]}, {a[1]} : f32"]
        elif kind == "sitofp":
            value, type_ = a[0], op["type"]
            if type_ == "index":
                lines.append(f"{r}i = arith.index_cast {value} : index to i32")
                value, type_ = f"{r}i", "i32"
            lines.append(f"{r} = arith.sitofp {value} : {type_} to f32")
        elif kind == "if":
            lines += [f"{r}c = arith.cmpf olt, {a[0]}, {a[1]} : f32",
                      f"{r} = scf.if {r}c -> (f32) {{",
                      f"  scf.yield {a[0]} : f32",
                      "} else {",
                      f"  {r}p = arith.mulf {a[0]}, {a[1]} : f32",
                      f"  scf.yield {r}p : f32",
                      "}"]
        elif kind == "toint":
            lines += [f"{r}t = math.tanh {a[0]} : f32",
                      f"{r}h = arith.constant 100.0 : f32",
                      f"{r}s = arith.mulf {r}t, {r}h : f32",
                      f"{r} = arith.fptosi {r}s : f32 to {op['type']}"]
        else:
            raise AssertionError(kind)
    return lines


def stage_kinds(rng):
    shape = rng.random()
    if shape < 0.15:
        return ["max", "addexp"]
    if shape < 0.25:
        return ["add", "add", "sqdev"]
    return [rng.choice(["add", "max", "min"]) for _ in range(rng.randint(1, 2))]


def program(rng, index, workload=None, most_stages=3):
    """A random program: its MLIR text (function @genINDEX, one op named
    `workload`, genINDEX by default) and its description (a dict that
    program_oracle.py evaluates)."""
    workload = workload or f"gen{index}"
    n = rng.choice(LENGTHS)
    memref = rng.random() < 0.15
    m = rng.choice(["?", "?", "?", "1", "5", "64"])
    if memref and m == "?":
        m = "32"
    ins = [rng.choice(FLOATS) for _ in range(rng.randint(1, 3))]
    bcasts = [rng.choice(FLOATS) for _ in range(rng.choice([0, 0, 1, 2]))]
    scalars = [rng.choice(SCALAR_TYPES) for _ in range(rng.choice([0, 0, 1, 2]))]
    stages = [stage_kinds(rng) for _ in range(rng.randint(1, most_stages))]
    outs = [rng.choice(ROW_OUTPUT_TYPES) for _ in range(rng.choice([0, 1, 1, 2]))]
    scalar_outs = [rng.choice(SCALAR_TYPES[:3])
                   for _ in range(rng.choice([0, 0, 1]))]
    colsums = rng.choice([0, 0, 0, 1])
    if not outs and not scalar_outs and not colsums:
        outs = ["f32"]
    blocks = rng.choice([1, 3, 4])

    def tensor(shape, type_):
        if memref:
            return f"memref<{shape}x{type_}>"
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

    header = (f'credit.rowwise "{workload}"'
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
    regions, described = [], []

    def region(keyword, args, yields):
        body = Body(rng, [a for a, t in args if t == "f32"],
                    [(a, t) for a, t in args if t != "f32"])
        values = []
        for kind, type_ in yields:
            if kind == "sqdev":  # the same value the add two before sums
                values.append(values[-2])
            elif kind == "count":
                values.append(body.add(op="const", value="1.0"))
            else:
                values.append(body.value(type_))
        signature = ", ".join(f"{a}: {t}" for a, t in args)
        types = ", ".join(t for _, t in yields)
        lines = [f"    {keyword} ({signature}) {{"] + body.render()
        lines.append(f"      credit.yield {', '.join(values)} : {types}")
        lines.append("    }")
        regions.append("\n".join(lines))
        described.append({"args": [a for a, _ in args], "ops": body.ops,
                          "yields": values})

    for s, kinds in enumerate(stages):
        yields = []
        for kind in kinds:
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
    text = (f"func.func @gen{index}({', '.join(params)}) {signature}{{\n"
            f"{call}\n}}\n")
    description = {
        "workload": workload, "n": n, "m": None if m == "?" else int(m),
        "ins": ins, "bcasts": bcasts, "scalars": scalars, "outs": outs,
        "scalar_outs": scalar_outs, "colsums": colsums, "blocks": blocks,
        "stages": [dict(kinds=k, **d) for k, d in zip(stages, described)],
        "epilogue": described[len(stages)] if outs or colsums else None,
        "finalize": described[-1] if scalar_outs else None}
    return text, description


def find_ptxas():
    for root in (os.environ.get("CUDA_ROOT"), os.environ.get("CUDA_HOME"),
                 os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (pathlib.Path(root) / "bin" / "ptxas").exists():
            return True
    return shutil.which("ptxas") is not None


#: Upstream's host lowering of a kept host (test/Pipelines/keep-host.mlir).
HOST_TO_LLVM = ["--one-shot-bufferize=bufferize-function-boundaries",
                "--convert-scf-to-cf", "--gpu-to-llvm",
                "--finalize-memref-to-llvm", "--convert-arith-to-llvm",
                "--convert-cf-to-llvm", "--convert-func-to-llvm",
                "--reconcile-unrealized-casts"]


def find_llvm_tool(name):
    return shutil.which(name) or next(
        (str(p) for p in [pathlib.Path("/usr/lib/llvm-22/bin") / name]
         if p.exists()), None)


def run_tool(command, timeout):
    """None, or what went wrong running `command`."""
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"hang (over {timeout} s)"
    if done.returncode != 0:
        return (f"{pathlib.Path(command[0]).name}: exit {done.returncode}:\n"
                f"{done.stderr[-4000:]}")
    return None


def compile_one(credit_opt, text, cluster, keep_host, chip, split, fmt,
                timeout):
    """None, or what went wrong. A kept host is also lowered to LLVM IR by
    upstream's passes (mlir-opt, mlir-translate), where they are found."""
    with tempfile.TemporaryDirectory() as work:
        source = pathlib.Path(work) / "program.mlir"
        source.write_text(text)
        host = pathlib.Path(work) / "host.mlir"
        pipeline = (f"builtin.module(credit-to-ptx{{artifacts-dir={work}/out "
                    f"format={fmt} cluster-size={cluster} keep-host={keep_host} "
                    f"chip={chip} explain=true {split}}})")
        problem = run_tool([credit_opt, str(source), "-o", str(host),
                            f"--pass-pipeline={pipeline}"], timeout)
        if problem:
            return problem
        if not list((pathlib.Path(work) / "out").glob("*.ptx")):
            return "exit 0 without PTX"
        mlir_opt, translate = (find_llvm_tool("mlir-opt"),
                               find_llvm_tool("mlir-translate"))
        if keep_host == "true" and mlir_opt and translate:
            lowered = pathlib.Path(work) / "host-llvm.mlir"
            return (run_tool([mlir_opt, str(host), "-o", str(lowered)] +
                             HOST_TO_LLVM, timeout) or
                    run_tool([translate, "--mlir-to-llvmir", str(lowered),
                              "-o", os.devnull], timeout))
    return None


def keep_failure(keep, name, text, problem):
    """Writes a failing program and what went wrong to `keep`, if given."""
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{name}.mlir").write_text(text)
        (keep / f"{name}.txt").write_text(problem)


def write_library(args, make):
    """Writes `make(index)`'s programs (text, description, cluster size)
    with their kernels to args.library/genINDEX; a program that is not
    compiled because nothing in it was raised is left out."""
    failures = unraised = 0
    for index in range(args.count):
        text, description, cluster = make(index)
        directory = args.library / f"gen{index}"
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        (directory / "program.mlir").write_text(text)
        description["cluster_size"] = cluster
        (directory / "program.json").write_text(json.dumps(description))
        pipeline = (f"builtin.module(credit-to-ptx{{artifacts-dir={directory} "
                    f"format=bin cluster-size={cluster}}})")
        done = subprocess.run([args.credit_opt, str(directory / "program.mlir"),
                               "-o", os.devnull, f"--pass-pipeline={pipeline}"],
                              capture_output=True, text=True,
                              timeout=args.timeout)
        if done.returncode == 1 and "error: nothing to compile" in done.stderr:
            unraised += 1
            shutil.rmtree(directory)
        elif done.returncode != 0:
            failures += 1
            print(f"program {index}: exit {done.returncode}\n{done.stderr}")
    print(f"generated: {args.count - unraised} programs written to "
          f"{args.library}, {failures} failures")
    return 1 if failures else 0


def parse_arguments(description, library):
    """The command line both generators take; `library` says what
    --library DIR keeps."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("credit_opt")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", type=pathlib.Path,
                        help="write failing programs and their diagnostics "
                        "to this directory")
    parser.add_argument("--print", type=int, metavar="INDEX",
                        help="print program INDEX and exit")
    parser.add_argument("--library", type=pathlib.Path, metavar="DIR",
                        help=f"write {library}, its description and its "
                        "kernels (format=bin, no host) to DIR/genINDEX for "
                        "run_generated.py on a GPU, and exit")
    return parser.parse_args()


def main():
    args = parse_arguments(__doc__.splitlines()[0], "each program")

    rng = random.Random(args.seed)
    if args.library:
        def make(index):
            text, description = program(rng, index)
            return text, description, rng.choice([0, 0, 1, 2, 4, 8, 16])
        return write_library(args, make)
    cases = []
    for i in range(args.count):
        # Now and then one part of a row split across devices, which needs
        # a single reduction stage.
        split = rng.choice([""] * 8 + ["split-part=partial",
                                       "split-part=combine split-shards=3"])
        text = program(rng, i, most_stages=1 if split else 3)[0]
        # A module of several functions now and then, whose ops may share
        # a workload name (the compiler lists later ones as NAME_1, ...).
        for part in range(rng.choice([0, 0, 0, 0, 1, 2])):
            name = rng.choice([f"gen{i}", f"gen{i}x{part}"])
            text += program(rng, f"{i}x{part}", name,
                            most_stages=1 if split else 3)[0]
        chip = rng.choice(CHIPS)
        # Consumer Blackwell runs clusters of at most 8 CTAs.
        sizes = [0, 0, 1, 2, 4, 8] + ([] if chip == "sm_120" else [16])
        cases.append((text, rng.choice(sizes), rng.choice(["false", "true"]),
                      chip, split))
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
            text, cluster, keep_host, chip, split = cases[index]
            options = (f"cluster-size={cluster} keep-host={keep_host} "
                       f"chip={chip} {split}")
            print(f"program {index} ({options}): {problem.splitlines()[0]}")
            keep_failure(args.keep, f"program-{index}",
                         f"// {options}\n{text}", problem)
    print(f"generated: {args.count} programs compiled to PTX "
          f"({fmt}), {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
