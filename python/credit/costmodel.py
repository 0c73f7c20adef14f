"""The cost model's evaluation: every candidate tiling measured at >= 200
points, and the model scored against the measurements.

    python -m credit.costmodel build --out ../artifacts/costmodel       # CPU
    python -m credit.costmodel measure --library ../artifacts/costmodel \\
        --out raw.json                                                   # GPU
    python -m credit.costmodel profile --calibration calibration.json \\
        --out ../targets/h200.json                                       # CPU
    python -m credit.costmodel fit --raw raw.json --profile ../targets/h200.json
    python -m credit.costmodel evaluate --raw raw.json \\
        --out ../benchmarks/costmodel-DATE-runN.json --report report.md

The points: the paper's grid, our grid, and random shapes drawn with a fixed
seed (M log-uniform in 1..65536, N log-uniform in 1K..1M, most of them
multiples of 16 and the rest not, f32/bf16/f16, all 13 workloads), the last
of which are held out from fitting. The candidates of a point are what
credit-cost-model enumerates for its op; `build` compiles each one,
`measure` checks each against a float64 reference and times it (CUDA
graphs), `fit` tunes the profile's fitted parameters on the points that are
not held out, and `evaluate` writes the predictions beside the
measurements, with sign accuracy, regret and rank correlation for the
model, Quack's static table and the paper's formula.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time

from . import suites
from .compiler import Request, find_credit_opt, with_attributes
from .workloads import STORAGE_DTYPES, WORKLOADS

#: Where the evaluation's random shapes come from.
SEED = 20261129
RANDOM_POINTS = 170
HELD_OUT = 60
#: Largest M * N of a random point (bigger ones get fewer rows).
MAX_ELEMENTS = 1 << 28

ROOT = pathlib.Path(__file__).resolve().parents[2]


@dataclasses.dataclass(frozen=True)
class EvalPoint:
    workload: str
    dtype: str
    m: int
    n: int
    #: "paper", "ours" or "random".
    source: str
    held_out: bool = False

    @property
    def op(self) -> tuple[str, str, int]:
        """What the kernels depend on (not M)."""
        return (self.workload, self.dtype, self.n)

    @property
    def key(self) -> str:
        return f"{self.workload}/{self.dtype}/{self.m}x{self.n}/{self.source}"


def random_points(seed: int = SEED, count: int = RANDOM_POINTS,
                  held_out: int = HELD_OUT) -> list[EvalPoint]:
    rng = random.Random(seed)
    names = sorted(WORKLOADS)
    points = []
    for i in range(count):
        workload = rng.choice(names)
        dtype = rng.choice(STORAGE_DTYPES)
        n = int(round(math.exp(rng.uniform(math.log(1024),
                                           math.log(1 << 20)))))
        if rng.random() < 0.7:
            n = max(16, n // 16 * 16)
        m = int(round(math.exp(rng.uniform(0, math.log(65536)))))
        m = max(1, min(m, MAX_ELEMENTS // n))
        points.append(EvalPoint(workload, dtype, m, n, "random",
                                i >= count - held_out))
    return points


def points() -> list[EvalPoint]:
    """Every evaluation point, in measuring order."""
    grid = [EvalPoint(p.workload, p.dtype, p.m, p.n, "paper")
            for p in suites.paper_points()]
    grid += [EvalPoint(p.workload, p.dtype, p.m, p.n, "ours")
             for p in suites.our_points()]
    return grid + random_points()


# --------------------------------------------------------------------------
# The model, through credit-opt.
# --------------------------------------------------------------------------

_COST = re.compile(r"#credit\.cost<rows = (\d+), profitable = (true|false), "
                   r"candidates = \[(.*?)\]>")
_CANDIDATE = re.compile(r"(#credit\.tiling<[^>]*>) = ([-+0-9.eE]+)")


def _render(workload: str, dtype: str, n: int, m: int | None,
            name: str, registers: dict[str, int] | None = None) -> str:
    text = with_attributes(WORKLOADS[workload].render(n, dtype), [],
                           registers)
    if m is not None:
        text = text.replace("tensor<?x", f"tensor<{m}x")
    return text.replace(f"func.func @{workload}(", f"func.func @{name}(", 1)


def _run_pass(text: str, name: str, options: list[str],
              profile: str | None, credit_opt: str | None,
              chip: str) -> str:
    """credit-opt's output for `text` after credit-online-softmax,
    credit-online-variance (as credit-to-ptx runs them) and the pass `name`
    with `options` (and the chip and profile)."""
    credit_opt = credit_opt or find_credit_opt()
    if credit_opt is None:
        raise RuntimeError("credit-opt not found; build it or set CREDIT_OPT")
    options = [f"chip={chip}"] + options + (
        [f"profile={profile}"] if profile else [])
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as source:
        source.write(text)
        source.flush()
        proc = subprocess.run(
            [credit_opt, source.name, "--credit-online-softmax",
             "--credit-online-variance", f"--{name}={' '.join(options)}"],
            capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} failed:\n{proc.stderr}")
    return proc.stdout


def predict(items: list[tuple[str, str, int, int | None]],
            profile: str | None = None, credit_opt: str | None = None,
            chip: str = "sm_90",
            registers: list[dict[str, int]] | None = None) -> list[dict]:
    """The model's predictions for (workload, dtype, n, m) items (m None:
    the pass's default), each op priced with ptxas's counts of
    `registers` (one {tiling text: count} per item) where given: for each,
    {"rows", "profitable", "candidates": {tiling text: predicted us}} in
    the model's order (fastest first)."""
    registers = registers or [{}] * len(items)
    text = "\n".join(_render(w, d, n, m, f"p{i}", counts)
                     for i, ((w, d, n, m), counts)
                     in enumerate(zip(items, registers)))
    output = _run_pass(text, "credit-cost-model", ["remarks=false"], profile,
                       credit_opt, chip)
    results = []
    for match in _COST.finditer(output):
        results.append({
            "rows": int(match.group(1)),
            "profitable": match.group(2) == "true",
            "candidates": {t: float(us) for t, us in
                           _CANDIDATE.findall(match.group(3))}})
    if len(results) != len(items):
        raise RuntimeError(f"expected {len(items)} cost annotations, found "
                           f"{len(results)}")
    return results


_VARIANT = re.compile(r"#credit\.variant<tiling = (#credit\.tiling<[^>]*>), "
                      r"min_rows = (\d+), max_rows = (\d+)>")


def variants(ops: list[tuple[str, str, int]], profile: str | None = None,
             credit_opt: str | None = None, chip: str = "sm_90",
             registers: list[dict[str, int]] | None = None
             ) -> list[list[tuple[str, int, int]]]:
    """The kernels a compiled request holds for (workload, dtype, n) with a
    dynamic M, as credit-choose-tiling keeps them (priced with `registers`
    as predict() is): for each op, (tiling, min_rows, max_rows) ranges
    (max_rows 0: no bound). The runtime launches the one whose range holds
    the call's M."""
    registers = registers or [{}] * len(ops)
    text = "\n".join(_render(w, d, n, None, f"p{i}", counts)
                     for i, ((w, d, n), counts)
                     in enumerate(zip(ops, registers)))
    output = _run_pass(text, "credit-choose-tiling", [], profile, credit_opt,
                       chip)
    results = []
    for line in output.splitlines():
        if "credit.rowwise" not in line:
            continue
        found = [(t, int(low), int(high))
                 for t, low, high in _VARIANT.findall(line)]
        if not found:  # One tiling for every M.
            match = re.search(r"tiling = (#credit\.tiling<[^>]*>)", line)
            found = [(match.group(1), 1, 0)]
        results.append(found)
    if len(results) != len(ops):
        raise RuntimeError(f"expected {len(ops)} ops, found {len(results)}")
    return results


def variant_for(ranges: list[tuple[str, int, int]], m: int) -> str:
    """The tiling of `ranges` (from variants()) launched for M = m."""
    for tiling, low, high in ranges:
        if low <= m and (high == 0 or m <= high):
            return tiling
    raise ValueError(f"no variant covers M = {m}")


def cluster_of(tiling: str) -> int:
    return int(re.search(r"cluster = (\d+)", tiling).group(1))


def ctas_per_row(tiling: str) -> int:
    """CTAs that share a row: the cluster size times the clusters per row."""
    splits = re.search(r"splits = (\d+)", tiling)
    return cluster_of(tiling) * (int(splits.group(1)) if splits else 1)


def _compact(data) -> str:
    """JSON without whitespace: measurement and evaluation files run to
    megabytes and are read by programs (the reports are the tables)."""
    return json.dumps(data, separators=(",", ":"))


def build(out: str, jobs: int) -> int:
    """Compiles every candidate of every point into the library `out` and
    writes out/candidates.json ({"workload/dtype/n": [tiling, ...]})."""
    ops = sorted({p.op for p in points()})
    start = time.time()
    listed = predict([(w, d, n, None) for w, d, n in ops])
    candidates = {f"{w}/{d}/{n}": list(result["candidates"])
                  for (w, d, n), result in zip(ops, listed)}
    print(f"{len(ops)} ops, {sum(map(len, candidates.values()))} candidate "
          f"kernels ({time.time() - start:.1f} s to enumerate)", flush=True)
    return build_candidates(candidates, out, jobs)


def build_candidates(candidates: dict[str, list[str]], out: str,
                     jobs: int) -> int:
    """Compiles `candidates` ({"workload/dtype/n": [tiling, ...]}) into the
    library `out` and writes out/candidates.json, what `measure` times."""
    from .build import build as build_requests
    requests = []
    for key, tilings in candidates.items():
        w, d, n = key.split("/")
        requests += [Request(w, d, int(n), 0, WORKLOADS[w].eps, 64, t)
                     for t in tilings]
    status = build_requests(requests, out, jobs, "bin")
    pathlib.Path(out, "candidates.json").write_text(
        json.dumps(candidates, indent=1) + "\n")
    return status


# --------------------------------------------------------------------------
# Measuring (GPU).
# --------------------------------------------------------------------------

#: Seconds of replays one candidate's timing aims at: `reps` replays of
#: short kernels, down to 3 of the longest (bench.time_graph). Most of a
#: measurement's time went to 15 replays of 64 calls of the largest points'
#: kernels (2026-12-04: 450 of 500 s).
REPLAY_BUDGET_S = 0.1


def measure(library: str, out: str, budget_s: float, reps: int,
            only: str | None = None, resume: str | None = None) -> dict:
    """Times every candidate of every point (those whose key contains
    `only`) until `budget_s` is spent. `resume` names an earlier raw file of
    the same library: its points are kept and not measured again, so a
    measurement too long for one call finishes in the next."""
    import torch
    import triton

    import credit
    from . import bench

    credit.load_library(library)
    candidates = json.loads(pathlib.Path(library, "candidates.json")
                            .read_text())
    references = bench._references()
    start = time.time()
    copy_gbs = bench.measure_copy(torch, triton)
    results = {"device": torch.cuda.get_device_name(),
               "torch": torch.__version__, "triton": triton.__version__,
               "date": time.strftime("%Y-%m-%d"), "copy_gbs": copy_gbs,
               "seed": SEED, "points": []}
    done = set()
    if resume:
        earlier = json.loads(pathlib.Path(resume).read_text())
        results["points"] = earlier["points"]
        results["resumed_from"] = {k: earlier.get(k) for k in
                                   ("date", "copy_gbs", "device")}
        done = {_point_key(row) for row in earlier["points"]}
    print(f"copy {copy_gbs:.0f} GB/s", flush=True)
    for index, point in enumerate(points()):
        op_key = f"{point.workload}/{point.dtype}/{point.n}"
        # A library of some ops' candidates measures only their points.
        if (only and only not in point.key) or point.key in done or \
                op_key not in candidates:
            continue
        if time.time() - start > budget_s:
            print(f"budget spent before {point.key}", flush=True)
            break
        torch.manual_seed(index)
        args = bench._inputs(point, torch)
        reference = bench._flatten(references[point.workload](
            *[a.double() if a.is_floating_point() else a for a in args]))
        nbytes = bench._bytes(args, [
            o if o.dtype == torch.int8 else
            o.to(args[0].dtype) if o.dim() == 2 else o.float()
            for o in reference])
        sets = max(1, min(32, math.ceil((256 << 20) / nbytes)))
        arg_sets = [args] + [bench._inputs(point, torch)
                             for _ in range(sets - 1)]
        fn = bench._credit_fn(point.workload)
        row = dataclasses.asdict(point) | {"bytes": nbytes, "candidates": []}
        for tiling in candidates[op_key]:
            entry = {"tiling": tiling, "cluster": cluster_of(tiling)}
            error, us = bench.check_and_time(torch, fn, tiling, args,
                                             reference, arg_sets,
                                             point.dtype, reps,
                                             REPLAY_BUDGET_S)
            entry["failure" if isinstance(error, str) else "error"] = error
            if us is not None:
                entry["measured_us"] = us
            row["candidates"].append(entry)
        del arg_sets, args, reference
        torch.cuda.empty_cache()
        results["points"].append(row)
        times = [c["measured_us"] for c in row["candidates"]
                 if "measured_us" in c]
        bad = [c["tiling"] for c in row["candidates"]
               if "measured_us" not in c]
        print(f"{point.key}: {len(times)} candidates, best "
              f"{min(times) if times else float('nan'):.1f} us"
              f"{'; NOT TIMED: ' + ', '.join(bad) if bad else ''}",
              flush=True)
        if index % 10 == 0:
            pathlib.Path(out).write_text(_compact(results))
    pathlib.Path(out).write_text(_compact(results))
    return results


# --------------------------------------------------------------------------
# The profile: calibration results to targets/<chip>.json.
# --------------------------------------------------------------------------

#: Parameters `fit` tunes; the rest come from the microbenchmarks.
FITTED = ("dram_latency_us", "l2_latency_us", "l1_latency_us", "sm_gbs",
          "ops_per_us_per_sm", "thread_ops_per_us", "access_ops",
          "narrow_access_ops", "overlap",
          "cta_launch_us", "launch_us", "exchange_scale", "block_reduce_us",
          "block_reduce_per_warp_us", "spill_cost", "grid_exchange_us",
          "grid_exchange_per_cluster_us")


def profile_from_calibration(raw: dict, previous: dict | None) -> dict:
    """The profile JSON from calibrate.cu's output; fitted parameters are
    kept from `previous` where it has them."""
    stream = raw["stream"]
    full = [s for s in stream if s["sms"] == raw["sms"]]
    # One CTA on one SM: what a single SM can pull.
    one = [s for s in stream if s["sms"] == 1 and s["ctas_per_sm"] == 1]
    # The round trip of a row of loads where too few bytes are in flight to
    # fill the DRAM (Little's law on the read half of the traffic).
    peak = max(s["gbs"] for s in full)
    trips = sorted(
        s["threads"] * s["chunks"] * 16 * s["ctas_per_sm"] /
        (s["gbs"] / 2 / raw["sms"] * 1e3)
        for s in full if s["gbs"] < 0.6 * peak)
    exchange = {size: values["full"]
                for size, values in raw["cluster_exchange_us"].items()}
    async_exchange = {size: values["full"] for size, values in
                      raw.get("cluster_async_exchange_us", {}).items()}
    block = raw["block_reduce_us"]
    warps = sorted(int(w) for w in block)
    # Least squares of time against warps.
    xs = warps
    ys = [block[str(w)] for w in warps]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / \
        sum((x - mean_x) ** 2 for x in xs)
    waves = raw["cta_waves_us"]
    per_wave = (waves["64"] - waves["1"]) / 63
    profile = {
        "device": raw["device"],
        "chip": raw["sm"],
        "calibrated": True,
        "date": raw.get("date", time.strftime("%Y-%m-%d")),
        "sms": raw["sms"],
        "clock_ghz": raw["clock_ghz"],
        "dram_gbs": max(raw["copy_gbs"], peak),
        "dram_latency_us": trips[len(trips) // 2] if trips else 0.6,
        "sm_gbs": max(s["gbs"] for s in one),
        "l2_gbs": 2.5 * raw["copy_gbs"],
        "l2_latency_us": raw["l2_latency_ns"] / 1e3,
        "shared_bytes_per_cycle": raw["smem_read_bytes_per_cycle_cta"],
        "l1_bytes": 256 * 1024,
        "l1_latency_us": 0.03,
        "l2_bytes": raw["l2_bytes"],
        "block_reduce_us": max(0.0, mean_y - slope * mean_x),
        "block_reduce_per_warp_us": max(0.0, slope),
        "cluster_exchange_us": exchange,
        **({"async_exchange_us": async_exchange} if async_exchange else {}),
        "launch_us": raw["launch_us"],
        "cta_launch_us": max(0.0, per_wave / 8),
        # A launch rule read off grid runs, not a microbenchmark: kept.
        **({"row_group_launch": previous["row_group_launch"]}
           if previous and "row_group_launch" in previous else {}),
        "ops_per_us_per_sm": raw["fma_per_us_per_sm"],
        "access_ops": 4.0,
        # No microbenchmark measures it: the previous profile's value, else
        # the H200's (a positive start for `fit`, which works in logs).
        "narrow_access_ops": (previous or {}).get("narrow_access_ops", 32.0),
        "thread_ops_per_us": raw["clock_ghz"] * 1e3,
        "spill_cost": 0.5,
        "overlap": 2.0,
        "active_clusters": raw["active_clusters"],
        "raw": {k: raw[k] for k in (
            "copy_gbs", "l2_latency_ns", "cluster_exchange_us",
            "cluster_async_exchange_us", "block_reduce_us", "launch_us", "cta_waves_us",
            "cluster_start_us", "fma_per_us_per_sm",
            "smem_read_bytes_per_cycle_cta", "smem_store_bytes_per_cycle_cta",
            "dsmem_store_bytes_per_cycle_cta") if k in raw},
    }
    if previous and previous.get("fit"):
        profile["fit"] = previous["fit"]
        for key, value in previous["fit"]["parameters"].items():
            _set_parameter(profile, key, value)
    return profile


def _get_parameter(profile: dict, name: str) -> float:
    if name == "exchange_scale":
        return profile.get("fit", {}).get("parameters", {}).get(name, 1.0)
    return profile[name]


def _set_parameter(profile: dict, name: str, value: float) -> None:
    """Sets a fitted parameter; the exchange scale multiplies the measured
    cluster exchange costs of both protocols."""
    if name == "exchange_scale":
        for raw_key, key in (("cluster_exchange_us", "cluster_exchange_us"),
                             ("cluster_async_exchange_us",
                              "async_exchange_us")):
            if raw_key in profile["raw"]:
                profile[key] = {k: v["full"] * value
                                for k, v in profile["raw"][raw_key].items()}
        return
    profile[name] = value


# --------------------------------------------------------------------------
# Scoring: sign accuracy, regret, rank correlation.
# --------------------------------------------------------------------------

#: Points whose best one-CTA and best cluster times are within this factor
#: count as right whichever sign is predicted.
TIE = 1.03


def _spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        for rank, i in enumerate(order):
            result[i] = rank
        return result
    if len(xs) < 2:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) *
                    sum((b - my) ** 2 for b in ry))
    return num / den if den else float("nan")


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    low, high = math.floor(k), math.ceil(k)
    return values[low] + (values[high] - values[low]) * (k - low)


def _point_key(row: dict) -> str:
    """A raw row's EvalPoint.key."""
    return f"{row['workload']}/{row['dtype']}/{row['m']}x{row['n']}/" \
        f"{row['source']}"


def _measured(point: dict) -> dict[str, float]:
    return {c["tiling"]: c["measured_us"] for c in point["candidates"]
            if c.get("measured_us")}


def quack_cluster(dtype: str, n: int) -> int:
    """Quack's static cluster-size table (quack-kernels 0.6.5): 16-bit
    thresholds 16K, 32K, 64K, 128K; fp32 about doubled."""
    scale = 2 if dtype == "f32" else 1
    for limit, cluster in ((16384, 1), (32768, 2), (65536, 4), (131072, 8)):
        if n <= limit * scale:
            return cluster
    return 16


def _oracle_in_cluster(measured: dict[str, float], cluster: int) -> str:
    """The fastest measured candidate with `cluster` CTAs (else the nearest
    cluster size that has one): generous to a chooser that only names a
    cluster size."""
    sizes = sorted({cluster_of(t) for t in measured},
                   key=lambda c: (abs(math.log2(c) - math.log2(cluster)), c))
    pick = sizes[0]
    return min((t for t in measured if cluster_of(t) == pick),
               key=measured.get)


def _stage_values(workload: str) -> int:
    """Values the reduction stages of `workload` produce per row (what a
    cluster exchanges)."""
    kinds = re.findall(r"reduce \[([a-z, ]+)\]", WORKLOADS[workload].template())
    return sum(len(k.split(",")) for k in kinds)


def paper_choice(point: dict, measured: dict[str, float], plans: dict,
                 profile: dict) -> str:
    """The paper's model (zhengxiongli08/CREDIT, dsmem_eval/cost_model.py,
    written here from its published formula): gain(C) = saved re-read time
    - control overhead - local replay - local store residual - DSMEM store
    time for C in {2, 4, 8}, with waves = ceil(M / floor(SMs / C)) and the
    profile's measured shared-memory and DSMEM bytes per cycle. Its
    baseline is the non-DSMEM kernel, measured: here the best one-CTA
    candidate, whose rereads (if the row does not stay on chip) are what a
    cluster saves. A cluster is chosen when its gain is positive; the
    tiling within the chosen cluster size is the best measured one
    (generous to a chooser that names only a cluster size)."""
    single = {t: v for t, v in measured.items() if ctas_per_row(t) == 1}
    if not single:
        return _oracle_in_cluster(measured, 2)
    baseline = min(single, key=single.get)
    baseline_ms = single[baseline] / 1e3
    raw = profile["raw"]
    clock, sms = profile["clock_ghz"], profile["sms"]
    plan = plans[baseline]
    n, m = point["n"], point["m"]
    reread = plan["reread_bytes_per_row"] / n
    modeled = plan["compulsory_bytes_per_row"] / n + reread
    staged = plan["input_bytes_per_column"]
    partials = _stage_values(point["workload"])
    start = raw.get("cluster_start_us", {})
    best_gain, best_cluster = 0.0, 1
    for cluster in (2, 4, 8):
        control_ms = max(0.0, start.get(str(cluster), 0) -
                         start.get("1", 0)) / 1e3
        saved = baseline_ms * reread / modeled
        waves = math.ceil(m / max(sms // cluster, 1))
        dsmem = waves * 4.0 * (cluster - 1) * partials / \
            raw["dsmem_store_bytes_per_cycle_cta"] / (clock * 1e6)
        staged_cta = math.ceil(n / cluster) * staged
        replay = waves * staged_cta / \
            raw["smem_read_bytes_per_cycle_cta"] / (clock * 1e6)
        effective = m * n * modeled / (baseline_ms * 1e6)
        source = effective / (clock * sms)
        residual = waves * staged_cta * max(
            1 / raw["smem_store_bytes_per_cycle_cta"] - 1 / source, 0.0) / \
            (clock * 1e6)
        gain = saved - control_ms - replay - residual - dsmem
        if gain > best_gain:
            best_gain, best_cluster = gain, cluster
    if best_cluster == 1:
        return baseline
    return _oracle_in_cluster(measured, best_cluster)


def score(rows: list[dict], choose) -> dict:
    """Sign accuracy, regret and the tie list of `choose(row, measured)`.
    A point whose choice was not measured (a raw file that times only some
    candidates) is listed under "unmeasured" and scored no further."""
    right, total, ties, regrets, wrong, unmeasured = 0, 0, [], [], [], []
    for row in rows:
        measured = _measured(row)
        if not measured:
            continue
        best = min(measured.values())
        chosen = choose(row, measured)
        if chosen not in measured:
            unmeasured.append(row["key"])
            continue
        regrets.append(measured[chosen] / best)
        single = [v for t, v in measured.items() if ctas_per_row(t) == 1]
        multi = [v for t, v in measured.items() if ctas_per_row(t) > 1]
        if not single or not multi:
            continue
        total += 1
        truth = min(multi) < min(single)
        said = ctas_per_row(chosen) > 1
        close = max(min(single), min(multi)) / min(min(single), min(multi))
        if close <= TIE:
            ties.append(row["key"])
            right += 1
        elif said == truth:
            right += 1
        else:
            wrong.append(row["key"])
    logs = [math.log(r) for r in regrets]
    return {
        "points": len(regrets), "signed_points": total,
        "sign_accuracy": right / total if total else float("nan"),
        "ties": ties, "wrong_sign": wrong, "unmeasured": unmeasured,
        "regret_geomean": math.exp(sum(logs) / len(logs)) if logs else 1,
        "regret_p95": _percentile(regrets, 0.95),
        "regret_max": max(regrets) if regrets else float("nan"),
    }


def evaluate(raw_path: str, out: str | None, report: str | None,
             profile: str | None, library: str | None,
             compare: str | None = None,
             registers_path: str | None = None) -> dict:
    """Scores the model with `profile` (and, as another chooser, with the
    profile `compare`: an earlier fit, say) on the raw measurements, the
    kernels priced at ptxas's counts of `registers_path` where given."""
    raw = json.loads(pathlib.Path(raw_path).read_text())
    profile_path = profile or str(ROOT / "targets" / "h200.json")
    profile_data = json.loads(pathlib.Path(profile_path).read_text())
    rows = raw["points"]
    for row in rows:
        row["key"] = _point_key(row)
    counts = _op_registers(rows, registers_path)
    items = [(r["workload"], r["dtype"], r["n"], r["m"]) for r in rows]
    predictions = predict(items, profile_path, registers=counts)
    plans = _library_plans(library) if library else {}
    other = predict(items, compare, registers=counts) if compare else None
    # What the runtime launches: a request compiled for a dynamic M holds
    # up to six (max-variants) of the model's tilings, each for a range of M.
    ranges = variants([(r["workload"], r["dtype"], r["n"]) for r in rows],
                      profile_path, registers=counts)
    out_points = []
    for index, (row, prediction) in enumerate(zip(rows, predictions)):
        predicted = prediction["candidates"]
        measured = _measured(row)
        chosen = min((t for t in predicted if t in measured),
                     key=predicted.get, default=None)
        row["chosen"] = chosen
        row["predicted"] = predicted
        row["launched"] = variant_for(ranges[index], row["m"])
        if other:
            theirs = other[index]["candidates"]
            row["chosen_by_compare"] = min(
                (t for t in theirs if t in measured), key=theirs.get,
                default=None)
        out_points.append({
            "workload": row["workload"], "dtype": row["dtype"],
            "m": row["m"], "n": row["n"], "source": row["source"],
            "held_out": row["held_out"],
            "candidates": [
                {"tiling": c["tiling"], "cluster": c["cluster"],
                 "measured_us": c.get("measured_us"),
                 "predicted_us": predicted.get(c["tiling"])}
                for c in row["candidates"]],
            "chosen": chosen, "launched": row["launched"]})

    def model(row, measured):
        return row["chosen"]

    def quack(row, measured):
        return _oracle_in_cluster(measured,
                                  quack_cluster(row["dtype"], row["n"]))

    def paper(row, measured):
        op_plans = plans.get(f"{row['workload']}/{row['dtype']}/{row['n']}")
        if not op_plans:
            return quack(row, measured)
        return paper_choice(row, measured, op_plans, profile_data)

    groups = {"all": rows,
              "held_out": [r for r in rows if r["held_out"]],
              "fitted": [r for r in rows if not r["held_out"]]}
    summary = {}
    for name, group in groups.items():
        summary[name] = {"model": score(group, model),
                         "model_dynamic_m": score(
                             group, lambda row, measured: row["launched"]),
                         "quack_table": score(group, quack)}
        if other:
            summary[name]["model_" + pathlib.Path(compare).stem] = score(
                group, lambda row, measured: row["chosen_by_compare"])
        if plans:
            summary[name]["paper_formula"] = score(group, paper)
        correlations = []
        for row in group:
            measured = _measured(row)
            common = [t for t in measured if t in row["predicted"]]
            if len(common) >= 3:
                correlations.append(_spearman(
                    [row["predicted"][t] for t in common],
                    [measured[t] for t in common]))
        summary[name]["model"]["rank_correlation_mean"] = (
            sum(correlations) / len(correlations) if correlations else
            float("nan"))
    shown = pathlib.Path(profile_path).resolve()
    if ROOT in shown.parents:
        shown = shown.relative_to(ROOT)
    result = {"device": raw["device"], "date": raw["date"],
              "measured": os.path.basename(raw_path), "profile": str(shown),
              "summary": summary, "points": out_points}
    if out:
        pathlib.Path(out).write_text(_compact(result) + "\n")
    text = render_report(result)
    if report:
        pathlib.Path(report).write_text(text)
    print(text)
    return result


def _library_plans(library: str) -> dict:
    """{"workload/dtype/n": {tiling: plan}} from the candidate library's
    manifests (the paper's formula needs bytes per row)."""
    from .compiler import Library
    lib = Library(library)
    plans: dict = {}
    for request in lib.requests():
        kernel = lib.get(request).kernels[0]
        plan = dict(kernel.plan or {})
        plan["input_bytes_per_column"] = sum(
            {"f32": 4, "bf16": 2, "f16": 2}[d] for d in kernel.input_dtypes)
        key = f"{request.workload}/{request.dtype}/{request.n}"
        plans.setdefault(key, {})[request.tiling] = plan
    return plans


def render_report(result: dict) -> str:
    lines = []
    for name, group in result["summary"].items():
        lines.append(f"### {name} points")
        lines.append("")
        lines.append("| chooser | points | sign accuracy | regret geomean | "
                     "regret p95 | regret max |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        for chooser, s in group.items():
            lines.append(
                f"| {chooser} | {s['points']} | {s['sign_accuracy']:.1%} "
                f"({s['signed_points']} signed, {len(s['ties'])} ties) | "
                f"{s['regret_geomean']:.3f} | {s['regret_p95']:.3f} | "
                f"{s['regret_max']:.3f} |")
        for chooser, s in group.items():
            if s.get("unmeasured"):
                lines.append("")
                lines.append(f"{chooser}: {len(s['unmeasured'])} points not "
                             f"scored, their choice was not measured: "
                             f"{', '.join(s['unmeasured'])}")
        corr = group["model"].get("rank_correlation_mean")
        if corr is not None:
            lines.append("")
            lines.append(f"Model rank correlation (Spearman, mean over "
                         f"points): {corr:.3f}")
        lines.append("")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Fitting the profile's fitted parameters on the points not held out.
# --------------------------------------------------------------------------

def registers(library: str) -> dict[str, dict[str, int]]:
    """{"workload/dtype/n": {tiling: ptxas's count}} of the kernels of a
    candidate library (`build`'s) that the plan prices with its register
    estimate: registers staging without split rows, built uncapped."""
    from .compiler import Library, _unpriced_registers
    counts: dict[str, dict[str, int]] = {}
    lib = Library(library)
    for request in lib.requests():
        op = f"{request.workload}/{request.dtype}/{request.n}"
        for tiling, count in _unpriced_registers(lib.entry(request)).items():
            counts.setdefault(op, {})[tiling] = count
    return counts


def _op_registers(rows: list[dict], path: str | None) -> list[dict] | None:
    """Each row's op's counts from a `registers` file, or None."""
    if not path:
        return None
    counts = json.loads(pathlib.Path(path).read_text())
    return [counts.get(f"{r['workload']}/{r['dtype']}/{r['n']}", {})
            for r in rows]


def fit(raw_path: str, profile_path: str, iterations: int,
        registers_path: str | None = None) -> dict:
    """Fits the profile's FITTED parameters on the raw file's points that
    are not held out, the kernels priced at ptxas's counts of
    `registers_path` (a `registers` file) where given."""
    raw = json.loads(pathlib.Path(raw_path).read_text())
    rows = [r for r in raw["points"] if not r["held_out"] and _measured(r)]
    items = [(r["workload"], r["dtype"], r["n"], r["m"]) for r in rows]
    counts = _op_registers(rows, registers_path)
    profile = json.loads(pathlib.Path(profile_path).read_text())
    names = list(FITTED)
    start = [math.log(_get_parameter(profile, n)) for n in names]

    def loss(x) -> float:
        trial = json.loads(json.dumps(profile))
        for name, value in zip(names, x):
            _set_parameter(trial, name, math.exp(value))
        if trial["overlap"] < 1:
            return 1e9
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(trial, f)
            f.flush()
            predictions = predict(items, f.name, registers=counts)
        total = 0.0
        for row, prediction in zip(rows, predictions):
            measured = _measured(row)
            predicted = prediction["candidates"]
            common = [t for t in measured if t in predicted]
            if not common:
                continue
            # Log error of the candidates, weighted towards the fastest
            # (where the choice is made), and the regret of the choice.
            best = min(measured.values())
            weights = [math.exp(-math.log(measured[t] / best) / 0.15)
                       for t in common]
            errors = [w * (math.log(predicted[t] / measured[t])) ** 2
                      for w, t in zip(weights, common)]
            chosen = min(common, key=predicted.get)
            regret = math.log(measured[chosen] / best)
            total += sum(errors) / sum(weights) + 4 * regret
        return total / len(rows)

    best_x, best = nelder_mead(loss, start, iterations)
    for name, value in zip(names, best_x):
        _set_parameter(profile, name, math.exp(value))
    profile["fit"] = {
        "parameters": {n: math.exp(v) for n, v in zip(names, best_x)},
        "loss": best, "points": len(rows), "raw": os.path.basename(raw_path),
        "date": time.strftime("%Y-%m-%d")}
    if registers_path:
        profile["fit"]["registers"] = os.path.basename(registers_path)
    pathlib.Path(profile_path).write_text(json.dumps(profile, indent=1) +
                                          "\n")
    print(f"fitted {len(names)} parameters on {len(rows)} points: loss "
          f"{best:.4f}; {profile['fit']['parameters']}")
    return profile


def nelder_mead(f, x0: list[float], iterations: int,
                step: float = 0.3) -> tuple[list[float], float]:
    """Minimizes f from x0 (a small dependency-free Nelder-Mead)."""
    n = len(x0)
    simplex = [list(x0)]
    for i in range(n):
        x = list(x0)
        x[i] += step
        simplex.append(x)
    values = [f(x) for x in simplex]
    for _ in range(iterations):
        order = sorted(range(n + 1), key=values.__getitem__)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centroid = [sum(x[i] for x in simplex[:-1]) / n for i in range(n)]
        worst = simplex[-1]
        reflected = [c + (c - w) for c, w in zip(centroid, worst)]
        fr = f(reflected)
        if fr < values[0]:
            expanded = [c + 2 * (c - w) for c, w in zip(centroid, worst)]
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else \
                (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = [c + 0.5 * (w - c) for c, w in zip(centroid, worst)]
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [[b + 0.5 * (x - b) for b, x in
                                     zip(best, s)] for s in simplex[1:]]
                values = [values[0]] + [f(x) for x in simplex[1:]]
    i = min(range(n + 1), key=values.__getitem__)
    return simplex[i], values[i]


def choices(paths: list[str], rows: tuple[int, ...] = (1, 64, 4096, 65536),
            profile: str | None = None) -> str:
    """For each MLIR file: the model's choice and predicted time at each
    row count, and the runner-up at the largest (credit-opt's
    credit-cost-model on the file with M set)."""
    lines = [f"{'example':<28} {'M':>6}  {'choice (predicted us)':<66} "
             "runner-up"]
    for path in paths:
        text = pathlib.Path(path).read_text()
        for m in rows:
            output = _run_pass(text.replace("tensor<?x", f"tensor<{m}x"),
                               "credit-cost-model", ["remarks=false"],
                               profile, None, "sm_90")
            match = _COST.search(output)
            ranked = _CANDIDATE.findall(match.group(3))
            short = [re.sub(r"#credit\.tiling<|>|vector = \d+, ", "", t)
                     for t, _ in ranked]
            first = f"{short[0]} ({float(ranked[0][1]):.1f})"
            second = (f"{short[1]} (+{float(ranked[1][1]) / float(ranked[0][1]) - 1:.0%})"
                      if len(ranked) > 1 else "-")
            lines.append(f"{pathlib.Path(path).stem if m == rows[0] else '':<28} "
                         f"{m:>6}  {first:<66} {second}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("points", help="list the evaluation points")
    p = sub.add_parser("choices", help="the model's choices for MLIR files")
    p.add_argument("files", nargs="+")
    p.add_argument("--profile")
    p = sub.add_parser("build", help="compile every candidate (CPU)")
    p.add_argument("--out", required=True)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p = sub.add_parser("measure", help="time every candidate (GPU)")
    p.add_argument("--library", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--budget", type=float, default=420)
    p.add_argument("--reps", type=int, default=15)
    p.add_argument("--only")
    p.add_argument("--resume", help="an earlier raw file to complete")
    p = sub.add_parser("profile", help="calibration output to a profile")
    p.add_argument("--calibration", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("registers", help="ptxas's counts of a candidate "
                       "library's kernels that the plan estimates")
    p.add_argument("--library", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("fit", help="fit the profile on measured points")
    p.add_argument("--raw", required=True)
    p.add_argument("--profile", required=True)
    p.add_argument("--iterations", type=int, default=150)
    p.add_argument("--registers", help="price kernels at these counts "
                   "(a `registers` file)")
    p = sub.add_parser("evaluate", help="score the model and the baselines")
    p.add_argument("--raw", required=True)
    p.add_argument("--out")
    p.add_argument("--report")
    p.add_argument("--profile")
    p.add_argument("--library")
    p.add_argument("--compare", help="another profile, scored beside")
    p.add_argument("--registers", help="price kernels at these counts "
                   "(a `registers` file)")
    args = parser.parse_args(argv)
    if args.command == "points":
        pts = points()
        for p in pts:
            print(p.key, "held out" if p.held_out else "")
        print(f"{len(pts)} points, {sum(p.held_out for p in pts)} held out, "
              f"{len({p.op for p in pts})} ops")
        return 0
    if args.command == "choices":
        print(choices(args.files, profile=args.profile))
        return 0
    if args.command == "build":
        return build(args.out, args.jobs)
    if args.command == "measure":
        measure(args.library, args.out, args.budget, args.reps, args.only,
                args.resume)
        return 0
    if args.command == "profile":
        raw = json.loads(pathlib.Path(args.calibration).read_text())
        out = pathlib.Path(args.out)
        previous = json.loads(out.read_text()) if out.exists() else None
        out.write_text(json.dumps(profile_from_calibration(raw, previous),
                                  indent=1) + "\n")
        return 0
    if args.command == "registers":
        pathlib.Path(args.out).write_text(
            _compact(registers(args.library)) + "\n")
        return 0
    if args.command == "fit":
        fit(args.raw, args.profile, args.iterations, args.registers)
        return 0
    evaluate(args.raw, args.out, args.report, args.profile, args.library,
             args.compare, args.registers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
