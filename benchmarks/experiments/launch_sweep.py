"""Experiment of 2026-12-05 (twenty-fourth session): cluster tilings timed
as one persistent wave and as a cluster per row group, in one process, to
calibrate a profile's launch rule (`row_group_launch`: from how many row
groups per resident cluster, at how many CTAs per SM) on more tilings than
the grids' defaults.

    python launch_sweep.py build OUT [WORKLOAD:DTYPE:M:N ...]   # CPU
    python launch_sweep.py time OUT RESULT                      # GPU

`build` takes the points of our grid and the paper grid with M >= 64 (or
the points named) where a cluster tiling without splits is among the cost
model's three fastest (built-in profile), keeps the PLAIN (default 4)
fastest predicted such tilings, compiles them into OUT and writes
OUT/sweep.json. `time` checks each tiling against float64 and times
it with the benchmark's CUDA-graph timing under CREDIT_WAVES=1 (one wave)
and CREDIT_WAVES=0 (a cluster per row group), in alternating order, on the
same inputs; each row records the plan's CTAs per SM and resident groups
and the launcher's resident groups on this GPU, so that the row groups per
resident cluster of every timing are known. BUDGET (seconds, default 540)
stops it between points, FIRST (default 0) is the index of the point to
start from, and RESULT is written after every point.
"""
import json, math, os, pathlib, sys, time as clock

PLAIN = int(os.environ.get("PLAIN", "4"))


def _grid_points():
    from credit import suites
    return [(p.workload, p.dtype, p.m, p.n)
            for p in suites.our_points() + suites.paper_points()
            if p.m >= 64]


def build(out, *named):
    from credit import costmodel
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    points = [(w, d, int(m), int(n)) for w, d, m, n in
              (p.split(":") for p in named)] or _grid_points()
    predictions = costmodel.predict([(w, d, n, m) for w, d, m, n in points])
    chosen, requests = [], []
    for (w, d, m, n), prediction in zip(points, predictions):
        cands = prediction["candidates"]
        ranked = sorted(cands, key=cands.get)
        keep = [t for t in ranked
                if costmodel.cluster_of(t) > 1 and "splits" not in t][:PLAIN]
        # Points where a cluster is among the model's three fastest.
        if not keep or not set(keep) & set(ranked[:3]):
            continue
        chosen.append({"workload": w, "dtype": d, "m": m, "n": n,
                       "tilings": keep})
        requests += [Request(w, d, n, 0, WORKLOADS[w].eps, tiling=t)
                     for t in keep]
    build_requests(list(dict.fromkeys(requests)), out, os.cpu_count() or 2,
                   "bin")
    pathlib.Path(out, "sweep.json").write_text(json.dumps(chosen, indent=1))
    print(f"{len(chosen)} points, {len(set(requests))} kernels")


def time(out, result):
    import torch
    from credit import bench, suites
    os.environ["CREDIT_ARTIFACTS"] = os.path.abspath(out)
    # Set before the first launch plan: every plan then takes the Python
    # launcher, which reads the knob at each launch.
    os.environ["CREDIT_WAVES"] = "1"
    budget = float(os.environ.get("BUDGET", "540"))
    start = clock.monotonic()
    points = json.loads(pathlib.Path(out, "sweep.json").read_text())
    refs = bench._references()
    rows = []
    first = int(os.environ.get("FIRST", "0"))
    for index, point in enumerate(points[first:], first):
        if clock.monotonic() - start > budget:
            print(f"budget spent: points {first}..{index - 1} of "
                  f"{len(points)} done; FIRST={index} goes on")
            break
        w, d, m, n = point["workload"], point["dtype"], point["m"], point["n"]
        fn = bench._credit_fn(w)
        torch.manual_seed(m + n)
        args, ref, sets = bench.experiment_inputs(suites.Point(w, d, m, n),
                                                  torch, refs)
        for k, tiling in enumerate(point["tilings"]):
            for waves in ("1", "0") if k % 2 == 0 else ("0", "1"):
                os.environ["CREDIT_WAVES"] = waves
                err, us = bench.check_and_time(torch, fn, tiling, args, ref,
                                               sets, d)
                rows.append({
                    "workload": w, "dtype": d, "m": m, "n": n,
                    "tiling": tiling,
                    "launch": "one_wave" if waves == "1" else "row_group",
                    "us": us,
                    # A string where the call failed or the error is not
                    # a number (the file stays strict JSON).
                    "error": err if isinstance(err, str) or
                    math.isfinite(err) else str(err),
                    **_residency(n, tiling, m)})
        os.environ["CREDIT_WAVES"] = "1"
        mine = [r for r in rows if (r["workload"], r["m"], r["n"]) ==
                (w, m, n) and r["us"]]
        best = {launch: min((r["us"] for r in mine if r["launch"] == launch),
                            default=math.nan)
                for launch in ("one_wave", "row_group")}
        print(f"{w} {d} {m}x{n}: best one wave {best['one_wave']:.1f} us, "
              f"per row group {best['row_group']:.1f} us", flush=True)
        pathlib.Path(result).write_text(json.dumps({"rows": rows}, allow_nan=False))
        del sets, args
        torch.cuda.empty_cache()
    pathlib.Path(result).write_text(json.dumps({"rows": rows}, allow_nan=False))


def _residency(n, tiling, m):
    """The plan's CTAs per SM and resident groups, the launcher's resident
    groups on this GPU and the row groups per resident group at `m`, from
    the launch plan of the calls forced to `tiling` (none where the calls
    failed before planning)."""
    from credit import fastpath
    for key, plan in fastpath.plans.items():
        if key[2] == n and key[5] == (0, tiling):
            loaded = plan.kernels[0].loaded
            stated = loaded.manifest.plan or {}
            groups = loaded.max_groups
            return {"ctas_per_sm": stated.get("ctas_per_sm"),
                    "plan_groups": stated.get("co_resident_groups"),
                    "groups": groups,
                    "share": math.ceil(math.ceil(
                        m / loaded.manifest.rows_per_cta) / max(1, groups))}
    return {}


if __name__ == "__main__":
    {"build": build, "time": time}[sys.argv[1]](*sys.argv[2:])
