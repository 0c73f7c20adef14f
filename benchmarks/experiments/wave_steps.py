"""Experiment of 2026-12-05 (twenty-seventh session): how the cost model
prices the waves of a cluster kernel, scored on softmax bf16 timed at every
row count from 16 to 128 around the wave boundaries of fixed tilings
(`wave-steps-2026-12-05-run1.json`, H100).

    cd python
    python ../benchmarks/experiments/wave_steps.py [PROFILE]

For each (N, M) of the runs under the default launch, the model predicts
the timed tilings it offers (async staging is not among them). Printed:
the regret of the model's pick among them (geomean, max) and the spread of
log(predicted / measured) within a point (root mean square once each
point's mean is divided out: what sways a choice). The H200 profile's
absolute times do not apply to the H100; the within-point spread does.
`benchmarks/experiments/partial_wave.diff` is the model variant it was
written to score.
"""
import collections, json, math, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main(profile: str | None = None) -> None:
    from credit import costmodel
    raw = json.loads(
        (ROOT / "benchmarks" / "wave-steps-2026-12-05-run1.json").read_text())
    measured = collections.defaultdict(dict)
    for run in raw["runs"]:
        if run["launch"] != "default":
            continue
        for row in run["rows"]:
            if row["us"] and row["tiling"].startswith("#"):
                times = measured[(row["n"], row["m"])]
                times[row["tiling"]] = min(row["us"],
                                           times.get(row["tiling"], math.inf))
    keys = sorted(measured)
    predictions = costmodel.predict(
        [("softmax", "bf16", n, m) for n, m in keys], profile)
    regrets, spread = [], []
    for key, prediction in zip(keys, predictions):
        predicted = prediction["candidates"]
        times = {t: us for t, us in measured[key].items() if t in predicted}
        pick = min(times, key=predicted.get)
        regrets.append(times[pick] / min(times.values()))
        logs = [math.log(predicted[t] / us) for t, us in times.items()]
        mean = sum(logs) / len(logs)
        spread += [x - mean for x in logs]
    geomean = math.exp(sum(map(math.log, regrets)) / len(regrets))
    rms = math.sqrt(sum(x * x for x in spread) / len(spread))
    print(f"{len(keys)} points: regret {geomean:.3f} (max {max(regrets):.3f}); "
          f"within-point spread of log(predicted / measured) {rms:.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
