"""Experiment of 2026-12-04 (twentieth session): cost-model variants fitted
and scored on a measurement of the current compiler's candidates.

    git apply benchmarks/experiments/model_variants.diff && cmake --build build
    cd python
    python ../benchmarks/experiments/model_variants.py fit NAME RAW OVERRIDES [ADD]
    python ../benchmarks/experiments/model_variants.py score RAW PROFILE...

`fit` copies targets/h200.json with OVERRIDES (a JSON object: the variant's
profile keys, {"sfu_ops_per_us_per_sm": 1e12} to turn the special-function
pipe off) to /tmp/fit-NAME.json and fits it (`costmodel fit`, ITERATIONS,
default 150) on RAW's points that are not held out, with the parameters
named in ADD (comma-separated) fitted beside costmodel.FITTED. `score`
prints, for each profile, sign accuracy and regret (geomean, p95, max) of
the choice at the exact M and of the variant launched for a dynamic M, on
the held-out and the fitted points (`costmodel evaluate`). NO_RES=1 in the
environment turns the residency by depth off for both.
"""
import json, os, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def fit(name: str, raw: str, overrides: str, add: str = "") -> None:
    from credit import costmodel
    profile = json.loads((ROOT / "targets" / "h200.json").read_text())
    profile.update(json.loads(overrides))
    path = f"/tmp/fit-{name}.json"
    pathlib.Path(path).write_text(json.dumps(profile, indent=1))
    costmodel.FITTED += tuple(p for p in add.split(",") if p)
    costmodel.fit(raw, path, int(os.environ.get("ITERATIONS", "150")))


def score(raw: str, *profiles: str) -> None:
    def cells(line: str) -> str:
        c = [x.strip() for x in line.split("|")[1:-1]]
        return f"{c[2].split(' ')[0]:>6} {c[3]} {c[4]} {c[5]}"

    for profile in profiles:
        out = subprocess.run(
            [sys.executable, "-m", "credit.costmodel", "evaluate", "--raw",
             raw, "--profile", profile], capture_output=True, text=True,
            check=True).stdout
        # The report's tables: all, held out, fitted; each the model at the
        # exact M, then launched for a dynamic M.
        rows = [l for l in out.splitlines() if l.startswith("| model")]
        print(f"{pathlib.Path(profile).name:<24} held out: exact "
              f"{cells(rows[2])}, launched {cells(rows[3])}; fitted: "
              f"launched {cells(rows[5])}")


if __name__ == "__main__":
    {"fit": fit, "score": score}[sys.argv[1]](*sys.argv[2:])
