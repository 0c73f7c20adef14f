"""Experiment of 2026-12-05 (twenty-seventh session): how the cost model
prices the waves of a cluster kernel, scored on softmax bf16 timed at every
row count from 16 to 128 around the wave boundaries of fixed tilings
(`wave-steps-2026-12-05-run1.json`, H100).

    cd python
    python ../benchmarks/experiments/wave_steps.py score [PROFILE]
    python ../benchmarks/experiments/wave_steps.py build OUT [WORKLOAD ...]

`build` compiles fixed tilings of bf16 rows of 262144 and 131072 (clusters
of 8 and 16, registers and shared staging) and each op's default into the
library OUT, with OUT/sweep.json for `split_sweep.py time`. The GPU side,
under both launches (ROWS: row counts on both sides of the tilings' wave
boundaries, from 2 to 5 row groups per resident cluster):

    ROWS=48,64,96,128,192 python ../benchmarks/experiments/split_sweep.py \
        time OUT OUT-one-wave.json
    CREDIT_WAVES=0 ROWS=48,64,96,128,192 python \
        ../benchmarks/experiments/split_sweep.py time OUT OUT-per-group.json

`score`: for each (N, M) of the runs under the default launch, the model predicts
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


#: The tilings `build` compiles, by row length.
TILINGS = {
    262144: ("cluster = 16, threads = 256, vector = 8, elems = 16, staging = shared",
             "cluster = 16, threads = 512, vector = 8, elems = 32",
             "cluster = 8, threads = 512, vector = 8, elems = 16, staging = shared"),
    131072: ("cluster = 16, threads = 128, vector = 8, elems = 64",
             "cluster = 8, threads = 256, vector = 8, elems = 16, staging = shared",
             "cluster = 16, threads = 256, vector = 8, elems = 32"),
}


def build(out: str, *workloads: str) -> None:
    from credit.build import build as build_requests
    from credit.compiler import Request
    from credit.workloads import WORKLOADS
    chosen, requests = {}, []
    for workload in workloads or ("softmax", "rmsnorm", "layernorm",
                                  "cross_entropy", "l2_normalize"):
        eps = WORKLOADS[workload].eps
        for n, tilings in TILINGS.items():
            texts = [f"#credit.tiling<{t}>" for t in tilings]
            chosen[f"{workload}/bf16/{n}"] = texts
            requests += [Request(workload, "bf16", n, 0, eps, tiling=t)
                         for t in texts]
            requests.append(Request(workload, "bf16", n, 0, eps))
    build_requests(requests, out, 2, "bin")
    pathlib.Path(out, "sweep.json").write_text(json.dumps(chosen, indent=1))


def score(profile: str | None = None) -> None:
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
    {"score": score, "build": build}[sys.argv[1]](*sys.argv[2:])
