#!/usr/bin/env python3
"""Runs credit-opt over mutated copies of the examples and fails on any
crash, hang, failure without an `error:` diagnostic or success after one. Inputs that still
parse and verify are also compiled to PTX with credit-to-ptx, under the
same rules.

Mutations: truncation at every kind of point, byte flips, deleted,
duplicated and swapped lines, and token substitutions that aim at the
verifier (wrong types, counts and combiner kinds). The generator is seeded,
so a failure reproduces; failing inputs are written to --keep DIR. With
--replay, the files themselves are the inputs (the fuzzer's regressions)."""

import argparse
import concurrent.futures
import os
import pathlib
import random
import subprocess
import sys

SUBSTITUTIONS = [
    ("f32", "f16"), ("f32", "i32"), ("bf16", "i8"), ("index", "i64"),
    ("[add]", "[mul]"), ("[max]", "[add, add]"), ("[add, add]", "[add]"),
    ("8192", "4096"), ("8192", "?"), ("?x", "3x"), ("ins(", "bcast("),
    ("outs(", "scalar_outs("), ("epilogue", "finalize"), ("finalize", "reduce [add]"),
    ("credit.yield", "func.return"), ("tensor<", "memref<"), ("reduce", "epilogue"),
    ("%j: index, ", ""), (": f32", ""), ("(", ""), (")", ""), ("{", ""), ("}", ""),
    ("\"", ""), ("<", ">"),
]


def mutations(text, rng, count):
    data = text.encode()
    lines = text.splitlines(keepends=True)
    for _ in range(count):
        kind = rng.randrange(6)
        if kind == 0:  # truncate
            yield data[: rng.randrange(len(data))]
        elif kind == 1:  # flip bytes
            mutated = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                mutated[rng.randrange(len(mutated))] = rng.randrange(256)
            yield bytes(mutated)
        elif kind == 2:  # delete lines
            kept = list(lines)
            for _ in range(rng.randint(1, 3)):
                if kept:
                    del kept[rng.randrange(len(kept))]
            yield "".join(kept).encode()
        elif kind == 3:  # duplicate or swap lines
            kept = list(lines)
            i, j = rng.randrange(len(kept)), rng.randrange(len(kept))
            if rng.random() < 0.5:
                kept.insert(j, kept[i])
            else:
                kept[i], kept[j] = kept[j], kept[i]
            yield "".join(kept).encode()
        else:  # substitute a token at one occurrence
            old, new = rng.choice(SUBSTITUTIONS)
            positions = [i for i in range(len(text)) if text.startswith(old, i)]
            if not positions:
                yield data[: rng.randrange(len(data))]
                continue
            at = rng.choice(positions)
            yield (text[:at] + new + text[at + len(old):]).encode()


PIPELINE = "--pass-pipeline=builtin.module(credit-to-ptx)"


def run_once(credit_opt, data, extra):
    try:
        proc = subprocess.run([credit_opt, "-", "-o", os.devnull] + extra,
                              input=data, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "hang (no answer in 60 s)"
    if proc.returncode < 0 or proc.returncode > 1:
        return proc, f"exit {proc.returncode} (signal or abort)"
    if proc.returncode == 1 and b"error:" not in proc.stderr:
        return proc, "non-zero exit without an error: diagnostic"
    if proc.returncode == 0 and b"error:" in proc.stderr:
        return proc, "exit 0 after an error: diagnostic"
    return proc, None


def check(credit_opt, data):
    """Parses and verifies the input; if it is valid, also compiles it all
    the way to PTX."""
    proc, problem = run_once(credit_opt, data, [])
    if problem or proc.returncode != 0:
        return problem, False
    _, problem = run_once(credit_opt, data, [PIPELINE])
    return (f"credit-to-ptx: {problem}" if problem else None), True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("credit_opt")
    parser.add_argument("examples", type=pathlib.Path)
    parser.add_argument("--per-example", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--keep", type=pathlib.Path)
    parser.add_argument("--replay", action="store_true",
                        help="run the files as they are, unmutated")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    inputs = []
    for path in sorted(args.examples.glob("*.mlir")):
        if args.replay:
            inputs.append((path.name, path.read_bytes()))
            continue
        for data in mutations(path.read_text(), rng, args.per_example):
            inputs.append((path.name, data))

    failures = []
    compiled = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for (name, data), (problem, valid) in zip(
                inputs, pool.map(lambda i: check(args.credit_opt, i[1]), inputs)):
            compiled += valid
            if problem:
                failures.append((name, data, problem))
    for index, (name, data, problem) in enumerate(failures):
        print(f"FAIL {name}: {problem}")
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            (args.keep / f"{index}-{name}").write_bytes(data)
    kind = "inputs replayed" if args.replay else "mutated inputs tried"
    print(f"fuzz: {len(inputs)} {kind} ({compiled} still valid, "
          f"compiled to PTX), {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
