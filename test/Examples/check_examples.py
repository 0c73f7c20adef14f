#!/usr/bin/env python3
"""Checks that every workload of DESIGN.md has an example that parses,
verifies and round-trips through credit-opt (custom and generic form)."""

import pathlib
import subprocess
import sys

WORKLOADS = [
    "layernorm_bwd", "weighted_var_bwd", "pearson_bwd", "softmax_logits_bwd",
    "lars_momentum", "rowwise_quant", "softmax", "log_softmax", "layernorm",
    "rmsnorm", "rmsnorm_bwd", "cross_entropy", "l2_normalize",
]


def run(args, stdin=None):
    proc = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)}\n{proc.stderr}")
    return proc.stdout


def main():
    credit_opt, examples = sys.argv[1], pathlib.Path(sys.argv[2])
    found = sorted(p.stem for p in examples.glob("*.mlir"))
    missing = sorted(set(WORKLOADS) - set(found))
    if missing:
        sys.exit(f"FAIL: no example for {', '.join(missing)}")
    for name in WORKLOADS:
        path = examples / f"{name}.mlir"
        text = path.read_text()
        header = [l for l in text.splitlines() if l.startswith("//")]
        if not header or not header[0].startswith(f"// {name}") or not any(
                "torch" in line or "F." in line for line in header):
            sys.exit(f"FAIL: {path} must start with a '// {name}' comment "
                     "that gives its PyTorch reference expression")
        printed = run([credit_opt, str(path)])
        if f'credit.rowwise "{name}"' not in printed:
            sys.exit(f"FAIL: {path} has no credit.rowwise named \"{name}\"")
        again = run([credit_opt, "-"], printed)
        if again != printed:
            sys.exit(f"FAIL: {path} does not print the same after a round trip")
        generic = run([credit_opt, "--mlir-print-op-generic", str(path)])
        if run([credit_opt, "-"], generic) != printed:
            sys.exit(f"FAIL: {path} differs after a trip through generic form")
        run([credit_opt, "--verify-roundtrip", str(path)])
        print(f"ok {name}")
    print(f"{len(WORKLOADS)} examples parse, verify and round-trip")


if __name__ == "__main__":
    main()
