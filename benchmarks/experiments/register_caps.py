"""Experiment of 2026-12-05 (twenty-eighth session): registers-staged
cluster kernels built to one more CTA per SM.

Nsight Compute at softmax bf16 64 x 262144 (`ncu_rowgap.py`, H100): Quack
runs the same decomposition as CREDIT's c16 t256 e64 (a cluster of 16 CTAs
per row, all 64 elements of a thread loaded at once, the exponentials kept
in registers) at 80 registers, 3 CTAs per SM and 21 resident clusters;
CREDIT's takes 128 registers, 2 CTAs per SM and 14 clusters, and is 14%
slower at 64 rows. The plan leaves registers staging uncapped. `build`
copies a library and rebuilds each registers-staged kernel (PTX without
.maxnreg, rows not split) with .maxnreg at the budget of STEP (default 1)
more CTAs per SM, where ptxas spills at most SPILL (default 64) bytes;
OUT/caps.json lists what changed. MATCH=TEXT instead rebuilds the kernels
whose names contain TEXT, whatever their staging or .maxnreg. Timed with
split_sweep.py against the original library (ABBA, see RESULTS.md).

    python register_caps.py build SOURCE OUT

Runs (H100): `register-caps-2026-12-05-run1.json` (fixed tilings, 0.79x to
1.51x by kernel) and `ab-default-2026-12-05-run4.json` (the default library
with SPILL=0: 0.997x / 1.002x / 1.001x on the decode, ours and paper grids).
Not adopted (RESULTS.md, twenty-eighth session).
"""
import json, os, pathlib, re, shutil, subprocess, sys

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
REGISTERS_PER_SM, GRANULARITY, MAX_PER_THREAD = 65536, 8, 255


def _assemble(ptx: pathlib.Path, cubin: pathlib.Path) -> tuple[int, int]:
    """ptxas -v: (registers, spill store bytes)."""
    log = subprocess.run([PTXAS, "-arch=sm_90", "-v", str(ptx), "-o",
                          str(cubin)], capture_output=True, text=True,
                         check=True).stderr
    registers = int(re.search(r"Used (\d+) registers", log).group(1))
    spills = int(re.search(r"(\d+) bytes spill stores", log).group(1))
    return registers, spills


def build(source: str, out: str) -> None:
    step = int(os.environ.get("STEP", "1"))
    limit = int(os.environ.get("SPILL", "64"))
    match = os.environ.get("MATCH")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(source, out)
    changed = {}
    for manifest_path in sorted(pathlib.Path(out).glob("*/*.json")):
        manifest = json.loads(manifest_path.read_text())
        if "entry" not in manifest or not manifest.get("cubin"):
            continue
        ptx = manifest_path.with_suffix(".ptx")
        text = ptx.read_text()
        if match:
            if match not in manifest["name"]:
                continue
        elif ".maxnreg" in text:
            continue  # sweeps and split rows: already built to a budget
        text = re.sub(r"\.maxnreg \d+\n", "", text)
        threads = manifest["block"][0]
        registers, _ = _assemble(ptx, pathlib.Path("/tmp/regcap.cubin"))
        per_warp = -(-registers // GRANULARITY) * GRANULARITY * 32
        ctas = REGISTERS_PER_SM // (per_warp * threads // 32)
        target = ctas + step
        budget = min(MAX_PER_THREAD, REGISTERS_PER_SM // (threads * target)
                     // GRANULARITY * GRANULARITY)
        if budget < 24:
            continue
        capped = re.sub(r"(\.maxntid [^\n]*\n)", rf"\1.maxnreg {budget}\n",
                        text, count=1)
        trial = pathlib.Path("/tmp/regcap.ptx")
        trial.write_text(capped)
        used, spills = _assemble(trial, pathlib.Path("/tmp/regcap.cubin"))
        entry = {"registers": registers, "ctas_per_sm": ctas,
                 "budget": budget, "used": used, "spill_bytes": spills}
        if spills <= limit:
            ptx.write_text(capped)
            _assemble(ptx, manifest_path.with_name(manifest["cubin"]))
            entry["built"] = True
        changed[manifest["name"]] = entry
        print(manifest["name"], entry, flush=True)
    pathlib.Path(out, "caps.json").write_text(json.dumps(changed, indent=1))


if __name__ == "__main__":
    {"build": build}[sys.argv[1]](*sys.argv[2:])
