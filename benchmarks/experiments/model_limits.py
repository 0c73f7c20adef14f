"""Experiment of 2026-12-05 (twenty-third session, issue #9): how far the
model's candidate order is from the measured one, offline.

    cd python
    PYTHONPATH=. python ../benchmarks/experiments/model_limits.py shortlist RAW [PROFILE]
    PYTHONPATH=. python ../benchmarks/experiments/model_limits.py correction RAW [PROFILE]

`shortlist` prints, for the held-out and the fitted points of RAW (a
`costmodel measure` file), the regret (geomean, p95, max) of the fastest
measured tiling among the model's k fastest predicted, k = 1 (the model's
choice) to 8: what measuring a shortlist of the model's on the GPU would
reach. `correction` fits a correction of the model's log time, linear in
tiling features (cluster, threads, elements, vector, staging, splits, rows
per CTA, the grid's size against the SMs, sweeps, and a few products with
the dtype and few rows), on the fitted points, with two objectives: least
squares within each point over the candidates near its fastest, and the
expected regret of a soft minimum; it prints sign accuracy and regret on
both sets. It needs numpy (not a dependency of the project).
"""
import json, math, pathlib, re, sys

from credit import costmodel


def _rows(raw: str, profile: str | None) -> list[dict]:
    points = json.loads(pathlib.Path(raw).read_text())["points"]
    predictions = costmodel.predict(
        [(p["workload"], p["dtype"], p["n"], p["m"]) for p in points], profile)
    rows = []
    for point, prediction in zip(points, predictions):
        point["key"] = costmodel._point_key(point)
        measured = {c["tiling"]: c["measured_us"] for c in point["candidates"]
                    if c.get("measured_us")}
        tilings = [t for t in prediction["candidates"] if t in measured]
        rows.append({"point": point, "tilings": tilings,
                     "measured": [measured[t] for t in tilings],
                     "predicted": [prediction["candidates"][t]
                                   for t in tilings]})
    return rows


def _summary(regrets: list[float]) -> str:
    geomean = math.exp(sum(map(math.log, regrets)) / len(regrets))
    return (f"{geomean:.3f} {costmodel._percentile(regrets, 0.95):.3f} "
            f"{max(regrets):.3f}")


def shortlist(raw: str, profile: str | None = None) -> None:
    rows = _rows(raw, profile)
    for held_out in (True, False):
        group = [r for r in rows if r["point"]["held_out"] == held_out]
        for k in (1, 2, 3, 4, 6, 8):
            regrets = []
            for r in group:
                order = sorted(range(len(r["tilings"])),
                               key=r["predicted"].__getitem__)[:k]
                regrets.append(min(r["measured"][i] for i in order) /
                               min(r["measured"]))
            print(f"{'held out' if held_out else 'fitted'} ({len(group)}), "
                  f"best of the model's {k}: {_summary(regrets)}")


def _features(point: dict, tiling: str) -> list[float]:
    f = {k: int(v) if v.isdigit() else v
         for k, v in re.findall(r"(\w+) = (\w+)", tiling)}
    cluster, threads, elems = f["cluster"], f["threads"], f["elems"]
    splits, rows, staging = f.get("splits", 1), f.get("rows", 1), \
        f.get("staging", "registers")
    ctas = cluster * splits
    grid = math.log2(max(point["m"] * ctas / rows / 132, 1e-3))
    sweeps = math.log2(max(point["n"] / (ctas * threads * elems), 1e-3))
    half = point["dtype"] != "f32"
    few = point["m"] <= 8
    lc, ln = math.log2(cluster), math.log2(point["n"])
    return [lc, cluster == 16, cluster == 1, math.log2(threads),
            math.log2(elems), math.log2(f["vector"]), staging == "shared",
            staging == "mixed", staging == "reread", math.log2(splits),
            splits > 1, rows > 1, grid, max(grid, 0), min(grid, 0) * lc,
            sweeps, max(sweeps, 0), lc * half, math.log2(threads) * half,
            lc * few, math.log2(splits) * few, (staging == "shared") * ln,
            (staging == "reread") * ln]


def correction(raw: str, profile: str | None = None) -> None:
    import numpy as np
    rows = _rows(raw, profile)
    for r in rows:
        r["X"] = np.array([_features(r["point"], t) for t in r["tilings"]],
                          float)
        r["m"], r["q"] = np.log(r["measured"]), np.log(r["predicted"])
    fitted = [r for r in rows if not r["point"]["held_out"]]
    held = [r for r in rows if r["point"]["held_out"]]

    def scores(group, w) -> str:
        chosen = {}
        for r in group:
            q = r["q"] + (r["X"] @ w if w is not None else 0)
            chosen[id(r["point"])] = r["tilings"][int(np.argmin(q))]
        found = costmodel.score([r["point"] for r in group],
                                lambda row, measured: chosen[id(row)])
        return (f"{found['sign_accuracy']:6.1%} {found['regret_geomean']:.3f}"
                f" {found['regret_p95']:.3f} {found['regret_max']:.3f}")

    def show(name, w):
        print(f"{name:<28} held out {scores(held, w)}   fitted "
              f"{scores(fitted, w)}")

    show("the model", None)
    for lam in (1, 100):
        for near in (1.2, 1.5):
            blocks, targets = [], []
            for r in fitted:
                keep = (r["m"] <= r["m"].min() + math.log(near)) | \
                    (r["q"] <= r["q"].min() + math.log(near))
                x, y = r["X"][keep], (r["m"] - r["q"])[keep]
                blocks.append(x - x.mean(0))
                targets.append(y - y.mean())
            a, b = np.vstack(blocks), np.concatenate(targets)
            w = np.linalg.solve(a.T @ a + lam * np.eye(a.shape[1]), a.T @ b)
            show(f"least squares, {lam}, {near}", w)
    stacked = np.vstack([r["X"] for r in fitted])
    mean, scale = stacked.mean(0), stacked.std(0) + 1e-9
    for tau in (0.02, 0.05):
        w = np.zeros(stacked.shape[1])
        for _ in range(3000):
            gradient = 0.01 * w
            for r in fitted:
                x = (r["X"] - mean) / scale
                z = -(r["q"] + x @ w) / tau
                p = np.exp(z - z.max())
                p /= p.sum()
                regret = r["m"] - r["m"].min()
                gradient -= (p * (regret - p @ regret)) @ x / tau / len(fitted)
            w -= 0.05 * gradient
        show(f"soft minimum, tau {tau}", w / scale)


if __name__ == "__main__":
    {"shortlist": shortlist, "correction": correction}[sys.argv[1]](
        *sys.argv[2:])
