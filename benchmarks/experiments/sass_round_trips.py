"""Experiment of 2026-12-07 (thirty-seventh session): how many global-memory
round trips a kernel's loads take one after another, read from its SASS.

    python sass_round_trips.py CUBIN...     # depth, loads, kernel

Walks the SASS in program order (branches and loops ignored) and gives each
global load (LDG) a depth: one more than the deepest load whose scoreboard
an instruction before it waited on. A kernel whose loads are all in flight
together has depth 1 (2 or 3 where a later phase legitimately needs an
earlier one's values: split rows' partials, an epilogue's reads after the
exchange); a chain of loads each issued after the previous one returned
shows as a depth near the number of loads. The control bits are those of
sm_70 and later (wait mask bits 52-57, write barrier bits 46-48 of the
instruction's second word).

cuobjdump is not in the CUDA toolkit this machine installs: `pip install
--target DIR nvidia-cuda-cuobjdump` and set CUOBJDUMP=DIR/nvidia/cu13/bin/
cuobjdump.
"""
import os, re, subprocess, sys

CUOBJDUMP = os.environ.get("CUOBJDUMP", "cuobjdump")
INSTRUCTION = re.compile(r"\s+/\*[0-9a-f]{4}\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/")
CONTROL = re.compile(r"/\* (0x[0-9a-f]+) \*/")


def round_trips(cubin: str) -> tuple[int, int]:
    """(depth, number of global loads) of `cubin`."""
    lines = subprocess.run([CUOBJDUMP, "-sass", cubin], capture_output=True,
                           text=True, check=True).stdout.splitlines()
    pending = {}  # scoreboard -> deepest load that set it
    current = deepest = loads = 0
    for i, line in enumerate(lines):
        match = INSTRUCTION.match(line)
        if not match:
            continue
        control = int(CONTROL.search(lines[i + 1]).group(1), 16)
        waits = (control >> 52) & 0x3F
        for barrier in range(6):
            if waits >> barrier & 1 and barrier in pending:
                current = max(current, pending.pop(barrier))
        if re.search(r"\bLDG\b|\bLDG\.", match.group(1)):
            loads += 1
            depth = current + 1
            deepest = max(deepest, depth)
            barrier = (control >> 46) & 7
            if barrier != 7:
                pending[barrier] = max(pending.get(barrier, 0), depth)
    return deepest, loads


if __name__ == "__main__":
    for path in sys.argv[1:]:
        depth, loads = round_trips(path)
        print(f"{depth:3d} {loads:3d} {os.path.basename(path)}")
