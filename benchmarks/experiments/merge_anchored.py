"""Merges a cost-model measurement of added candidates into an earlier one
(twelfth session, 2026-12-03: run 10 = run 7 + run 9; the files are stored
as .json.xz since 2026-12-05, `xz -dk` restores them):

    python3 benchmarks/experiments/merge_anchored.py \\
        benchmarks/costmodel-raw-2026-12-03-run7.json \\
        benchmarks/costmodel-raw-2026-12-03-run9.json \\
        benchmarks/costmodel-raw-2026-12-03-run10.json

Each point of the later file holds the added candidates and an anchor, a
candidate the earlier file measured too; each added time is scaled by the
point's anchor (earlier time / later time), so the two processes' drift
does not decide between old and new candidates. Times are not otherwise
changed; `anchor_scale` on each added candidate records the factor."""
import json
import sys


def key(point):
    return (point["workload"], point["dtype"], point["m"], point["n"])


def main(earlier_path, later_path, out_path):
    earlier = json.load(open(earlier_path))
    later = {key(p): p for p in json.load(open(later_path))["points"]}
    out = {k: v for k, v in earlier.items() if k != "points"}
    out["merged_from"] = earlier.get("merged_from", []) + [
        f"{later_path}: added candidates, each time scaled by the point's "
        "anchor (a candidate timed in both)"]
    out["points"] = []
    added = 0
    for point in earlier["points"]:
        point = dict(point, candidates=list(point["candidates"]))
        extra = later.get(key(point))
        if extra:
            known = {c["tiling"]: c for c in point["candidates"]}
            anchor = next(c for c in extra["candidates"]
                          if c["tiling"] in known and "measured_us" in c
                          and "measured_us" in known[c["tiling"]])
            scale = (known[anchor["tiling"]]["measured_us"] /
                     anchor["measured_us"])
            for candidate in extra["candidates"]:
                if candidate["tiling"] in known:
                    continue
                candidate = dict(candidate)
                if "measured_us" in candidate:
                    candidate["measured_us"] *= scale
                    candidate["anchor_scale"] = round(scale, 4)
                point["candidates"].append(candidate)
                added += 1
        out["points"].append(point)
    with open(out_path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{added} candidates added")


if __name__ == "__main__":
    main(*sys.argv[1:4])
