"""Experiment of 2026-12-04 (#9, #10, #11): the cost model's mixed-staging
candidates at every point of the model's evaluation, measured beside run
10's candidates, so that the model's choices among them can be scored.

    python mixed_eval.py build OUT                  # CPU, CREDIT_OPT
    python -m credit.costmodel measure --library OUT --out RAW   # GPU
    python mixed_eval.py merge RUN10 RAW MERGED     # CPU

`build` compiles the mixed candidates the model enumerates for every op of
the evaluation (credit.costmodel.build's enumeration, kept to mixed
staging) into OUT with its candidates.json; `measure` times them as run 10
timed the others; `merge` adds them to run 10's points (same key) and
writes MERGED, which `credit.costmodel evaluate --raw MERGED` scores.
"""
import json
import os
import pathlib
import sys


def build(out):
    from credit import costmodel
    ops = sorted({p.op for p in costmodel.points()})
    listed = costmodel.predict([(w, d, n, None) for w, d, n in ops])
    candidates = {}
    for (w, d, n), result in zip(ops, listed):
        tilings = [t for t in result["candidates"] if "mixed" in t]
        if tilings:
            candidates[f"{w}/{d}/{n}"] = tilings
    print(f"{len(candidates)} ops, "
          f"{sum(map(len, candidates.values()))} mixed candidates")
    return costmodel.build_candidates(candidates, out, os.cpu_count() or 2)


def merge(run10, raw, merged):
    base = json.loads(pathlib.Path(run10).read_text())
    extra = json.loads(pathlib.Path(raw).read_text())
    from credit.costmodel import _point_key
    added = {_point_key(p): p["candidates"] for p in extra["points"]}
    count = 0
    for point in base["points"]:
        new = added.get(_point_key(point), [])
        point["candidates"] += new
        count += len(new)
    base["merged"] = {"mixed_candidates_from": pathlib.Path(raw).name,
                      "date": extra.get("date"),
                      "copy_gbs": extra.get("copy_gbs"), "count": count}
    pathlib.Path(merged).write_text(
        json.dumps(base, separators=(",", ":")) + "\n")
    print(f"added {count} candidates at {len(added)} points")


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "python"))
    {"build": build, "merge": merge}[sys.argv[1]](*sys.argv[2:])
