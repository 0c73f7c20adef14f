"""Experiment of 2026-12-07 (thirty-eighth session): a cost-model library
of chosen candidates only, for measuring again the candidates a compiler
change touched (with anchors that it did not) and merging them into an
earlier measurement with merge_anchored.py --replace.

    cd python
    python ../benchmarks/experiments/costmodel_subset.py select RAW EVAL CHANGED CANDIDATES
    python ../benchmarks/experiments/costmodel_subset.py build CANDIDATES OUT
    # GPU, OUT carried:
    python -m credit.costmodel measure --library OUT --out LATER
    # back here:
    python ../benchmarks/experiments/merge_anchored.py --replace CHANGED RAW LATER MERGED
    python -m credit.costmodel evaluate --raw MERGED ...

`select` lists the candidates of the raw measurement RAW that
KernelPlan::integerMasks touches (registers staging with more than five
chunks that may lie past the row's end; the count below is the plan's,
KernelPlan::maskedChunks) as CHANGED, and as CANDIDATES those plus, per
point of their ops, anchors it does not touch: the three best measured, the
best one-CTA tiling and the choice of the evaluation EVAL. Both are
{"workload/dtype/n": [tiling, ...]} (credit.costmodel build's
candidates.json form). sweeps/masked-changed-2026-12-07.json and
sweeps/masked-candidates-2026-12-07.json are its output for
costmodel-raw-2026-12-05-run1.json and costmodel-2026-12-05-run1.json: 360
touched candidates at 54 points, 583 kernels with the anchors. `build`
compiles CANDIDATES into the library OUT with a copy of the list;
`measure` then times the points of the listed ops only.

    python ../benchmarks/experiments/costmodel_subset.py rescale RAW PAIRS OUT

`rescale` writes RAW with each touched candidate that PAIRS (a
pairs_sweep.py A/B: {"odd": {"old": rows, "new": rows}}, as in
masked-chunks-2026-12-07-run1.json) timed at the same point multiplied by
its new / old time there (`codegen_scale`): a first look before the whole
set is measured again (COSTMODEL.md, thirty-eighth session).
"""
import collections, json, os, pathlib, re, sys

MOST_BRANCHED_CHUNKS = 5  # kMostBranchedChunks


def masked_chunks(tiling: str, n: int) -> int:
    """KernelPlan::maskedChunks of a registers-staging tiling (0 else)."""
    kv = dict(re.findall(r"(\w+) = (\w+)", tiling))
    if kv.get("staging", "registers") != "registers":
        return 0
    per_row = int(kv["threads"]) // int(kv.get("rows", 1))
    vector, elems = int(kv["vector"]), int(kv["elems"])
    ctas = int(kv["cluster"]) * int(kv.get("splits", 1))
    slice_ = per_row * elems
    if slice_ * ctas == n:
        return 0
    left = n - (ctas - 1) * slice_
    chunks = elems // vector
    return chunks - max(0, min(chunks, left // (per_row * vector)))


def select(raw_path, eval_path, changed_path, candidates_path):
    raw = json.loads(pathlib.Path(raw_path).read_text())["points"]
    chosen = {(p["workload"], p["dtype"], p["m"], p["n"]): p["chosen"]
              for p in json.loads(pathlib.Path(eval_path).read_text())
              ["points"]}
    op = lambda p: f"{p['workload']}/{p['dtype']}/{p['n']}"
    changed = collections.defaultdict(set)
    for p in raw:
        changed[op(p)] |= {c["tiling"] for c in p["candidates"]
                           if masked_chunks(c["tiling"], p["n"]) >
                           MOST_BRANCHED_CHUNKS}
    changed = {k: v for k, v in changed.items() if v}
    listed = {k: set(v) for k, v in changed.items()}
    for p in raw:
        if op(p) not in changed:
            continue
        kept = sorted((c["measured_us"], c["tiling"]) for c in p["candidates"]
                      if "measured_us" in c
                      and c["tiling"] not in changed[op(p)])
        one = [t for _, t in kept
               if "cluster = 1," in t and "splits" not in t]
        listed[op(p)] |= {t for _, t in kept[:3]} | set(one[:1])
        pick = chosen[(p["workload"], p["dtype"], p["m"], p["n"])]
        if pick not in changed[op(p)]:
            listed[op(p)].add(pick)
    for path, data in ((changed_path, changed), (candidates_path, listed)):
        pathlib.Path(path).write_text(json.dumps(
            {k: sorted(v) for k, v in sorted(data.items())}, indent=1) + "\n")
    print(f"{sum(map(len, changed.values()))} touched candidates of "
          f"{len(changed)} ops, {sum(map(len, listed.values()))} kernels")


def build(candidates_path, out):
    from credit import costmodel
    return costmodel.build_candidates(
        json.loads(pathlib.Path(candidates_path).read_text()), out,
        os.cpu_count() or 2)


def rescale(raw_path, pairs_path, out):
    raw = json.loads(pathlib.Path(raw_path).read_text())
    pairs = json.loads(pathlib.Path(pairs_path).read_text())["odd"]
    key = lambda r: (r["workload"], r["dtype"], r["m"], r["n"], r["tiling"])
    old = {key(r): r["us"] for r in pairs["old"]}
    new = {key(r): r["us"] for r in pairs["new"]}
    scaled = 0
    for point in raw["points"]:
        for c in point["candidates"]:
            k = key(dict(point, tiling=c["tiling"]))
            if (k in old and k in new and "measured_us" in c and
                    masked_chunks(c["tiling"], point["n"]) >
                    MOST_BRANCHED_CHUNKS):
                c["codegen_scale"] = round(new[k] / old[k], 4)
                c["measured_us"] *= new[k] / old[k]
                scaled += 1
    raw["merged_from"] = raw.get("merged_from", []) + [
        f"{pairs_path}: touched candidates times their new / old ratio"]
    pathlib.Path(out).write_text(json.dumps(raw, separators=(",", ":")))
    print(f"{scaled} candidates rescaled")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    sys.exit({"select": select, "build": build,
              "rescale": rescale}[command](*args))
