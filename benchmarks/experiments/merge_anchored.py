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
changed; `anchor_scale` on each added candidate records the factor.

With `--replace CHANGED.json` ({"workload/dtype/n": [tiling, ...]}, the
candidates a compiler change touched; thirty-eighth session), the later
file's candidates listed there replace the earlier times, and every other
candidate both files timed is an anchor: the scale is the geometric mean
of the anchors' earlier / later times."""
import json
import math
import sys


def key(point):
    return (point["workload"], point["dtype"], point["m"], point["n"])


def timed(candidates):
    return {c["tiling"]: c for c in candidates if "measured_us" in c}


def main(earlier_path, later_path, out_path, changed_path=None):
    changed = json.load(open(changed_path)) if changed_path else None
    earlier = json.load(open(earlier_path))
    later = {key(p): p for p in json.load(open(later_path))["points"]}
    out = {k: v for k, v in earlier.items() if k != "points"}
    out["merged_from"] = earlier.get("merged_from", []) + [
        f"{later_path}: " + (
            "candidates a compiler change touched, measured again, each "
            "time scaled by the geometric mean of the point's anchors "
            "(untouched candidates timed in both)" if changed else
            "added candidates, each time scaled by the point's anchor (a "
            "candidate timed in both)")]
    out["points"] = []
    merged = 0
    for point in earlier["points"]:
        point = dict(point, candidates=list(point["candidates"]))
        extra = later.get(key(point))
        if extra:
            known, again = timed(point["candidates"]), timed(extra["candidates"])
            touched = set(changed.get(
                f"{point['workload']}/{point['dtype']}/{point['n']}", [])) \
                if changed else set()
            anchors = [t for t in again if t in known and t not in touched]
            if not changed:
                anchors = anchors[:1]
            scale = math.exp(sum(
                math.log(known[t]["measured_us"] / again[t]["measured_us"])
                for t in anchors) / len(anchors))
            present = {c["tiling"] for c in point["candidates"]}
            for candidate in extra["candidates"]:
                if (candidate["tiling"] not in touched if changed else
                        candidate["tiling"] in present):
                    continue
                candidate = dict(candidate)
                if "measured_us" in candidate:
                    candidate["measured_us"] *= scale
                    candidate["anchor_scale"] = round(scale, 4)
                point["candidates"] = [
                    c for c in point["candidates"]
                    if c["tiling"] != candidate["tiling"]] + [candidate]
                merged += 1
        out["points"].append(point)
    with open(out_path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{merged} candidates {'replaced' if changed else 'added'}")


if __name__ == "__main__":
    args = sys.argv[1:]
    changed = None
    if args[0] == "--replace":
        changed, args = args[1], args[2:]
    main(*args[:3], changed)
