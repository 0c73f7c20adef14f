"""Builds a kernel library ahead of time, for a GPU machine without MLIR.

    python -m credit.build --out artifacts --suite gpu
    python -m credit.build --out artifacts --workload softmax --dtype bf16 \\
        --n 8192 --cluster 0

The output directory is a library (one directory per request, each with
its artifacts and request.json) that `credit.load_library(DIR)` or
CREDIT_ARTIFACTS=DIR uses.

    python -m credit.build --native

compiles the C++ call path against the installed PyTorch (credit.native)
into the cache, where the first call would otherwise start it.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import shutil
import sys
import time

from .compiler import CompileError, Compiler, Request
from . import suites


def build(requests: list[Request], out: str, jobs: int,
          output_format: str, profile: str | None = None) -> int:
    compiler = Compiler(cache_dir=out, output_format=output_format,
                        profile=profile)
    if not compiler.available:
        print("credit-opt not found: build it (scripts/setup.sh, cmake) or "
              "set CREDIT_OPT", file=sys.stderr)
        return 2
    start = time.time()
    failures = 0
    done = 0
    # Progress: a line that rewrites itself on a terminal, else a line per
    # tenth of the build.
    tty = sys.stderr.isatty()
    step = max(1, len(requests) // 10)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(compiler.compile, r): r for r in requests}
        for future in concurrent.futures.as_completed(futures):
            done += 1
            try:
                future.result()
            except CompileError as error:
                failures += 1
                print(f"FAIL {futures[future]}: {error}", file=sys.stderr)
            if tty or done % step == 0 or done == len(requests):
                elapsed = time.time() - start
                left = elapsed / done * (len(requests) - done)
                line = (f"[{done}/{len(requests)}] {elapsed:.0f} s, about "
                        f"{left:.0f} s left")
                print("\r" + line if tty else line, end="" if tty else "\n",
                      file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    print(f"built {len(requests) - failures} of {len(requests)} kernels into "
          f"{out} in {time.time() - start:.1f} s ({output_format})")
    return 1 if failures else 0


def build_native() -> int:
    from . import native
    start = time.time()
    print("compiling the C++ call path (about a minute of one core)...",
          file=sys.stderr, flush=True)
    try:
        module = native.build()
    except (RuntimeError, ImportError, OSError) as error:
        print(f"credit: {error}", file=sys.stderr)
        return 1
    print(f"C++ call path ready: {module.__file__} "
          f"({time.time() - start:.1f} s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--native", action="store_true",
                        help="compile the C++ call path (needs PyTorch)")
    parser.add_argument("--out")
    parser.add_argument("--suite", choices=sorted(suites.SUITES))
    parser.add_argument("--workload")
    parser.add_argument("--dtype", default="bf16")
    parser.add_argument("--n", type=int)
    parser.add_argument("--cluster", type=int, default=0)
    parser.add_argument("--eps", type=float)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--format", choices=["isa", "bin"],
                        help="bin adds cubins (default when ptxas is found)")
    parser.add_argument("--profile",
                        help="a chip profile for the cost model (default: "
                             "$CREDIT_PROFILE, else the chip's built-in one)")
    args = parser.parse_args(argv)
    if args.native and not (args.out or args.suite or args.workload):
        return build_native()
    if not args.out:
        parser.error("--out is required to build kernels")
    status = build_native() if args.native else 0
    requests = []
    if args.suite:
        requests += suites.SUITES[args.suite]()
    if args.workload:
        if args.n is None:
            parser.error("--workload needs --n")
        requests.append(Request(args.workload, args.dtype, args.n,
                                args.cluster, args.eps))
    if not requests:
        parser.error("name a --suite or a --workload")
    output_format = args.format or ("bin" if shutil.which("ptxas") else "isa")
    return build(list(dict.fromkeys(requests)), args.out, args.jobs,
                 output_format, args.profile) or status


if __name__ == "__main__":
    raise SystemExit(main())
