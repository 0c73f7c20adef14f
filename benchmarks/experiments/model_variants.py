"""Experiment of 2026-12-04 (twentieth session): cost-model variants fitted
and scored on a measurement of the current compiler's candidates.

    git apply benchmarks/experiments/model_variants.diff && cmake --build build
    cd python
    python ../benchmarks/experiments/model_variants.py fit NAME RAW OVERRIDES [ADD]
    python ../benchmarks/experiments/model_variants.py score RAW PROFILE...
    python ../benchmarks/experiments/model_variants.py residuals RAW PROFILE
    python ../benchmarks/experiments/model_variants.py merge RAW OUT SWEEP...
    python ../benchmarks/experiments/model_variants.py decode SWEEP PROFILE...

Profiles fitted on 2026-12-04 (twenty-first session) are in profiles/:
h200-ow-2026-12-04.json (NO_RES=1, the special-function pipe off in the
profile) and h200-ow-sfu1-2026-12-04.json (NO_RES=1 SFU1=1), both fitted
on `merge costmodel-raw-partial-2026-12-04-run2.json OUT
split-sweep-2026-12-04-run2.json split-sweep-2026-12-04-run3.json` (the
first stored as `.json.xz`: `xz -dk` it first).

`fit` copies targets/h200.json with OVERRIDES (a JSON object: the variant's
profile keys, {"sfu_ops_per_us_per_sm": 1e12} to turn the special-function
pipe off) to /tmp/fit-NAME.json and fits it (`costmodel fit`, ITERATIONS,
default 150) on RAW's points that are not held out, with the parameters
named in ADD (comma-separated) fitted beside costmodel.FITTED. `score`
prints, for each profile, sign accuracy and regret (geomean, p95, max) of
the choice at the exact M and of the variant launched for a dynamic M, on
the held-out and the fitted points (`costmodel evaluate`). `residuals`
prints the geometric mean of predicted / measured time over the candidates
within 1.5x of each point's fastest, by tiling field, workload and dtype:
over all of them, then within points (each point's mean divided out: what
sways a choice). `merge` writes RAW with the points of split-sweep files
added as fitted points (a later file's point replaces an earlier one's),
for `fit`. `decode` prints, for each profile, the launched tiling's
regret over a split sweep's tilings and, where the sweep timed Quack in
the same process (2026-12-04 run 3 on), its ratio to Quack, listing the
points under 1. The diff's switches (NO_RES=1, NO_OW=1, REGFIT=1; see its
header) go in the environment and hold for every subcommand.
"""
import collections, contextlib, io, json, math, os, pathlib, re, sys

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
    from credit import costmodel

    def cells(scores: dict) -> str:
        return (f"{scores['sign_accuracy']:6.1%} {scores['regret_geomean']:.3f}"
                f" {scores['regret_p95']:.3f} {scores['regret_max']:.3f}")

    for profile in profiles:
        with contextlib.redirect_stdout(io.StringIO()):  # the report
            summary = costmodel.evaluate(raw, None, None, profile,
                                         None)["summary"]
        held, fitted = summary["held_out"], summary["fitted"]
        print(f"{pathlib.Path(profile).name:<24} held out: exact "
              f"{cells(held['model'])}, launched "
              f"{cells(held['model_dynamic_m'])}; fitted: launched "
              f"{cells(fitted['model_dynamic_m'])}")


def residuals(raw: str, profile: str) -> None:
    from credit import costmodel
    points = json.loads(pathlib.Path(raw).read_text())["points"]
    predicted = costmodel.predict(
        [(p["workload"], p["dtype"], p["n"], p["m"]) for p in points], profile)
    groups = []
    for point, prediction in zip(points, predicted):
        measured = {c["tiling"]: c["measured_us"]
                    for c in point["candidates"] if "measured_us" in c}
        best = min(measured.values())
        rows = [dict(re.findall(r"(\w+) = (\w+)", t), workload=point["workload"],
                     dtype=point["dtype"],
                     error=math.log(prediction["candidates"][t] / us))
                for t, us in measured.items()
                if t in prediction["candidates"] and us <= 1.5 * best]
        groups.append(rows)

    def show(title: str) -> None:
        print(title)
        for key in ("staging", "cluster", "threads", "splits", "elems",
                    "workload", "dtype"):
            by = collections.defaultdict(list)
            for rows in groups:
                for row in rows:
                    by[row.get(key, "-")].append(row["error"])
            print(f"  {key}: " + "  ".join(
                f"{k} {math.exp(sum(v) / len(v)):.2f} ({len(v)})"
                for k, v in sorted(by.items())))

    show("predicted / measured, all near-best candidates")
    for rows in groups:
        mean = sum(r["error"] for r in rows) / max(1, len(rows))
        for row in rows:
            row["error"] -= mean
    show("within points")


def _sweep_points(path: str) -> dict:
    """(workload, dtype, n, m) -> {tiling text, "default" or "quack": us}
    of a split-sweep file, timings that passed only."""
    points = collections.defaultdict(dict)
    for row in json.loads(pathlib.Path(path).read_text())["rows"]:
        if row["us"]:
            key = (row["workload"], row["dtype"], row["n"], row["m"])
            points[key][row["tiling"]] = row["us"]
    return points


def merge(raw: str, out: str, *sweeps: str) -> None:
    from credit import costmodel
    data = json.loads(pathlib.Path(raw).read_text())
    added = {}
    for sweep in sweeps:
        for (w, d, n, m), times in _sweep_points(sweep).items():
            added[(w, d, n, m)] = {
                "workload": w, "dtype": d, "m": m, "n": n, "source": "sweep",
                "held_out": False,
                "candidates": [{"tiling": t,
                                "cluster": costmodel.cluster_of(t),
                                "measured_us": us}
                               for t, us in times.items()
                               if t.startswith("#")]}
    data["points"] += list(added.values())
    data["merged_sweeps"] = [os.path.basename(s) for s in sweeps]
    pathlib.Path(out).write_text(json.dumps(data))
    print(f"{len(data['points'])} points, {len(added)} from the sweeps")


def decode(sweep: str, *profiles: str) -> None:
    from credit import costmodel
    points = _sweep_points(sweep)
    ops = sorted({key[:3] for key in points})
    for profile in profiles:
        ranges = dict(zip(ops, costmodel.variants(ops, profile)))
        regrets, against = [], []
        for key, times in sorted(points.items()):
            tiling = costmodel.variant_for(ranges[key[:3]], key[3])
            if tiling not in times:
                print(f"  {key}: {tiling} was not timed")
                continue
            best = min(us for t, us in times.items() if t.startswith("#"))
            regrets.append(times[tiling] / best)
            if "quack" in times:
                against.append((times["quack"] / times[tiling], key, tiling))
        geomean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
        quack = (f"; Quack / launched {geomean([a for a, _, _ in against]):.3f}, "
                 f"{sum(a < 1 for a, _, _ in against)} of {len(against)} under 1"
                 if against else "")
        print(f"{pathlib.Path(profile).name}: regret {geomean(regrets):.3f} "
              f"max {max(regrets):.3f}{quack}")
        for ratio, key, tiling in sorted(against)[:8]:
            if ratio < 1:
                print(f"  {ratio:.3f} {key} {tiling}")


if __name__ == "__main__":
    {"fit": fit, "score": score, "residuals": residuals, "merge": merge,
     "decode": decode}[sys.argv[1]](*sys.argv[2:])
