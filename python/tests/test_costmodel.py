"""The cost model's evaluation tooling (no GPU): points, scoring, the
baselines, and predictions through credit-opt."""

import json
import math

import pytest

from credit import costmodel
from credit.compiler import find_credit_opt


def test_points_are_fixed_and_hold_some_out():
    points = costmodel.points()
    assert len(points) >= 200
    held = [p for p in points if p.held_out]
    assert len(held) >= 50 and all(p.source == "random" for p in held)
    assert points == costmodel.points()  # the seed fixes them
    assert {p.source for p in points} == {"paper", "ours", "random"}
    randoms = [p for p in points if p.source == "random"]
    assert all(1024 <= p.n <= 1 << 20 and 1 <= p.m <= 65536 for p in randoms)
    assert all(p.m * p.n <= costmodel.MAX_ELEMENTS for p in randoms)
    assert any(p.n % 16 for p in randoms)  # some N that are not multiples
    assert {p.dtype for p in randoms} == {"f32", "bf16", "f16"}


def _row(key, times, chosen=None, held_out=False):
    candidates = [{"tiling": t, "cluster": costmodel.cluster_of(t),
                   "measured_us": us} for t, us in times.items()]
    return {"key": key, "candidates": candidates, "chosen": chosen,
            "held_out": held_out, "m": 64, "n": 65536, "dtype": "bf16",
            "workload": "softmax"}


def tiling(cluster, threads=256):
    return (f"#credit.tiling<cluster = {cluster}, threads = {threads}, "
            "vector = 8, elems = 8>")


def test_score_counts_signs_ties_and_regret():
    rows = [
        # A cluster is 2x faster and the chooser says so: right, regret 1.
        _row("a", {tiling(1): 20.0, tiling(4): 10.0}, tiling(4)),
        # Wrong sign: regret 2.
        _row("b", {tiling(1): 20.0, tiling(4): 10.0}, tiling(1)),
        # Within 3%: right either way.
        _row("c", {tiling(1): 10.0, tiling(4): 10.2}, tiling(4)),
    ]
    s = costmodel.score(rows, lambda row, measured: row["chosen"])
    assert s["signed_points"] == 3
    assert s["sign_accuracy"] == pytest.approx(2 / 3)
    assert s["ties"] == ["c"] and s["wrong_sign"] == ["b"]
    assert s["regret_max"] == pytest.approx(2.0)
    assert s["regret_geomean"] == pytest.approx(math.exp(
        (math.log(1) + math.log(2) + math.log(1.02)) / 3))


def test_score_lists_choices_that_were_not_measured():
    # A raw file that timed only some candidates: a choice outside them is
    # listed, not scored (and not a crash).
    rows = [_row("a", {tiling(1): 20.0, tiling(4): 10.0}, tiling(4)),
            _row("b", {tiling(1): 20.0, tiling(4): 10.0}, tiling(8))]
    s = costmodel.score(rows, lambda row, measured: row["chosen"])
    assert s["unmeasured"] == ["b"]
    assert s["points"] == 1 and s["signed_points"] == 1
    assert s["regret_max"] == pytest.approx(1.0)


def test_quack_table_and_oracle_within_cluster():
    assert costmodel.quack_cluster("bf16", 16384) == 1
    assert costmodel.quack_cluster("bf16", 32768) == 2
    assert costmodel.quack_cluster("bf16", 131072) == 8
    assert costmodel.quack_cluster("bf16", 262144) == 16
    assert costmodel.quack_cluster("f32", 32768) == 1   # thresholds doubled
    assert costmodel.quack_cluster("f32", 65536) == 2
    measured = {tiling(2, 128): 5.0, tiling(2, 256): 4.0, tiling(8): 3.0}
    assert costmodel._oracle_in_cluster(measured, 2) == tiling(2, 256)
    # No candidate of that size: the nearest size that has one.
    assert costmodel._oracle_in_cluster(measured, 16) == tiling(8)


def test_paper_formula_needs_rereads_to_pick_a_cluster():
    profile = {"clock_ghz": 2.0, "sms": 132, "raw": {
        "cluster_start_us": {"1": 5.0, "2": 5.1, "4": 5.1, "8": 5.2},
        "dsmem_store_bytes_per_cycle_cta": 17.6,
        "smem_read_bytes_per_cycle_cta": 128.0,
        "smem_store_bytes_per_cycle_cta": 128.0}}
    point = {"n": 65536, "m": 4096, "workload": "softmax"}
    measured = {tiling(1): 1000.0, tiling(4): 700.0}
    on_chip = {tiling(1): {"reread_bytes_per_row": 0,
                           "compulsory_bytes_per_row": 65536 * 4,
                           "input_bytes_per_column": 2}}
    assert costmodel.paper_choice(point, measured, on_chip, profile) == \
        tiling(1)
    rereading = {tiling(1): dict(on_chip[tiling(1)],
                                 reread_bytes_per_row=65536 * 4)}
    assert costmodel.cluster_of(costmodel.paper_choice(
        point, measured, rereading, profile)) > 1


def test_nelder_mead_finds_a_minimum():
    x, value = costmodel.nelder_mead(
        lambda v: (v[0] - 1) ** 2 + (v[1] + 2) ** 2, [0.0, 0.0], 200)
    assert x == pytest.approx([1, -2], abs=1e-3) and value < 1e-6


def test_profile_from_calibration_keeps_fitted_parameters():
    raw = {
        "device": "GPU", "sm": "sm_90", "sms": 2, "clock_ghz": 2.0,
        "l2_bytes": 1000, "copy_gbs": 100.0, "l2_latency_ns": 150.0,
        "stream": [
            {"sms": 2, "threads": 128, "chunks": 1, "ctas_per_sm": 1,
             "gbs": 10.0},
            {"sms": 2, "threads": 1024, "chunks": 4, "ctas_per_sm": 2,
             "gbs": 110.0},
            {"sms": 1, "threads": 1024, "chunks": 4, "ctas_per_sm": 1,
             "gbs": 60.0}],
        "block_reduce_us": {"1": 0.1, "32": 0.4},
        "cluster_exchange_us": {"2": {"one": 0.3, "full": 0.4}},
        "cluster_async_exchange_us": {"2": {"one": 0.1, "full": 0.15}},
        "launch_us": 3.0, "cta_waves_us": {"1": 5.0, "64": 68.0},
        "fma_per_us_per_sm": 1000.0, "smem_read_bytes_per_cycle_cta": 128,
        "active_clusters": {"2": [1, 2]}}
    profile = costmodel.profile_from_calibration(raw, None)
    assert profile["calibrated"] and profile["dram_gbs"] == 110.0
    assert profile["sm_gbs"] == 60.0
    # 128 threads x 16 B in flight per SM, reading 5 GB/s over 2 SMs.
    assert profile["dram_latency_us"] == pytest.approx(2048 / 2500)
    assert profile["block_reduce_per_warp_us"] == pytest.approx(0.3 / 31)
    previous = dict(profile, fit={"parameters": {"overlap": 3.0,
                                                 "exchange_scale": 2.0}})
    refit = costmodel.profile_from_calibration(raw, previous)
    assert refit["overlap"] == 3.0
    assert refit["cluster_exchange_us"] == {"2": 0.8}
    # The asynchronous exchange is measured alike and scaled alike.
    assert profile["async_exchange_us"] == {"2": 0.15}
    assert refit["async_exchange_us"] == {"2": 0.3}
    del raw["cluster_async_exchange_us"]
    assert "async_exchange_us" not in costmodel.profile_from_calibration(
        raw, None)
    # A launch rule (no microbenchmark measures it) is kept.
    assert "row_group_launch" not in refit
    rule = {"min_share": 6, "min_ctas_per_sm": 2}
    assert costmodel.profile_from_calibration(
        raw, dict(previous, row_group_launch=rule))["row_group_launch"] == rule


@pytest.mark.skipif(find_credit_opt() is None, reason="credit-opt not built")
def test_predictions_through_credit_opt(tmp_path):
    items = [("softmax", "bf16", 262144, 64), ("rmsnorm", "f32", 4096, 32768),
             ("cross_entropy", "f16", 50257, None)]
    results = costmodel.predict(items)
    assert [r["rows"] for r in results] == [64, 32768, 4096]
    for result in results:
        times = list(result["candidates"].values())
        assert times == sorted(times) and len(times) >= 3
    # Long rows: several CTAs per row; many short rows: one CTA per row.
    assert costmodel.ctas_per_row(next(iter(results[0]["candidates"]))) > 1
    assert costmodel.ctas_per_row(next(iter(results[1]["candidates"]))) == 1
    # A profile changes the predictions, not the candidates.
    profile = json.loads((costmodel.ROOT / "targets" / "h200.json")
                         .read_text())
    profile["launch_us"] += 10
    path = tmp_path / "p.json"
    path.write_text(json.dumps(profile))
    slower = costmodel.predict(items[:1], str(path))[0]["candidates"]
    assert set(slower) == set(results[0]["candidates"])
    assert all(slower[t] > results[0]["candidates"][t] for t in slower)


@pytest.mark.skipif(find_credit_opt() is None, reason="credit-opt not built")
def test_predictions_at_ptxas_counts():
    """A count given for one registers-staged tiling reprices that tiling
    alone: fewer registers, more CTAs per SM, a shorter time at 512 rows."""
    item = ("softmax", "bf16", 131072, 512)
    estimated = costmodel.predict([item])[0]["candidates"]
    tiling = next(t for t in estimated
                  if "staging" not in t and "splits" not in t)
    times = {count: costmodel.predict([item], registers=[{tiling: count}])
             [0]["candidates"] for count in (32, 255)}
    for repriced in times.values():
        assert {t for t in estimated if repriced[t] != estimated[t]} == \
            {tiling}
    assert times[32][tiling] < estimated[tiling] < times[255][tiling]
    ranges = costmodel.variants([item[:3]], registers=[{tiling: 32}])[0]
    assert tiling in [t for t, _, _ in ranges]


def test_calibration_microbenchmarks_compile(tmp_path):
    import subprocess
    from credit.peers import cuda_paper
    nvcc = cuda_paper.find_nvcc()
    if nvcc is None:
        pytest.skip("nvcc not found")
    source = costmodel.ROOT / "benchmarks" / "calibration" / "calibrate.cu"
    proc = subprocess.run(
        [nvcc, "-O3", "-arch=sm_90", "-std=c++17", "-o",
         str(tmp_path / "calibrate"), str(source)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_variant_for_picks_the_range_of_m():
    ranges = [("a", 1, 5), ("b", 6, 23), ("a", 24, 0)]
    assert costmodel.variant_for(ranges, 1) == "a"
    assert costmodel.variant_for(ranges, 23) == "b"
    assert costmodel.variant_for(ranges, 1 << 30) == "a"
    with pytest.raises(ValueError):
        costmodel.variant_for([("a", 2, 5)], 1)


@pytest.mark.skipif(find_credit_opt() is None, reason="credit-opt not built")
def test_variants_cover_every_row_count():
    """What a request compiled for a dynamic M holds: tilings for
    contiguous ranges from M = 1 up, the last without a bound, each among
    the model's candidates."""
    ops = [("layernorm_bwd", "f32", 32768), ("softmax", "bf16", 4096),
           ("cross_entropy", "bf16", 262144)]
    results = costmodel.variants(ops)
    candidates = costmodel.predict([op + (None,) for op in ops])
    for ranges, predicted in zip(results, candidates):
        assert ranges[0][1] == 1 and ranges[-1][2] == 0
        for (_, _, high), (_, low, _) in zip(ranges, ranges[1:]):
            assert low == high + 1
        assert len({t for t, _, _ in ranges}) <= 6  # max-variants
        assert all(t in predicted["candidates"] for t, _, _ in ranges)


def test_point_key_of_a_raw_row_is_the_point_key():
    point = costmodel.points()[0]
    row = {"workload": point.workload, "dtype": point.dtype, "m": point.m,
           "n": point.n, "source": point.source}
    assert costmodel._point_key(row) == point.key
