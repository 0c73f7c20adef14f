"""The benchmark harness's bookkeeping, without a GPU: best peer and speedup
per point, the table's cells (time, n/a, err, -), --render, and how many
replays time_graph takes."""

import contextlib
import json
import time
import types

import pytest

from credit import bench


def point(times_ms, errors):
    row = {"workload": "softmax", "dtype": "bf16", "m": 8, "n": 1048576,
           "bytes": 2 * 8 * 1048576 * 2, "times_ms": times_ms,
           "errors": errors}
    bench._summarize(row, copy_gbs=4000.0)
    return row


def test_summary_names_the_best_peer_and_the_speedup():
    row = point({"credit_c0": 0.020, "credit_c8": 0.018,
                 "torch_compile": 0.030, "triton_looped": 0.025},
                {"credit_c0": 1e-3, "credit_c8": 1e-3,
                 "torch_compile": 1e-3, "triton_looped": 1e-3})
    assert row["best_peer"] == "triton_looped"
    assert row["best_credit"] == "credit_c8"
    assert row["speedup"] == pytest.approx(1.25)
    assert row["copy_fraction"] == pytest.approx(
        row["bytes"] / 0.020 / 1e6 / 4000.0)


def test_quack_is_a_peer_and_has_its_own_summary():
    faster = point({"credit_c0": 0.020, "quack": 0.024, "liger": 0.030},
                   {"credit_c0": 1e-3, "quack": 1e-3, "liger": 1e-3})
    slower = point({"credit_c0": 0.020, "quack": 0.016},
                   {"credit_c0": 1e-3, "quack": 1e-3})
    without = point({"credit_c0": 0.020, "liger": 0.030},
                    {"credit_c0": 1e-3, "liger": 1e-3})
    assert faster["best_peer"] == "quack"
    assert faster["speedup_vs_quack"] == pytest.approx(1.2)
    assert slower["speedup"] == pytest.approx(0.8)
    assert "speedup_vs_quack" not in without
    table = bench.markdown({"device": "H200", "torch": "2.11",
                            "triton": "3.6.0", "copy_gbs": 4000.0,
                            "points": [faster, slower, without]})
    assert "| liger | quack |" in table
    assert ("Against Quack alone (Quack / c0, 2 points where it has the "
            "workload): geometric mean 0.980x, lowest 0.80x.") in table


def test_table_marks_unsupported_failed_and_wrong_results():
    row = point({"credit_c0": 0.020, "torch_compile": 0.030},
                {"credit_c0": 1e-3, "torch_compile": 1e-3,
                 "liger": "n/a: Liger-Kernel refuses rows over 65536",
                 "triton_resident": "RuntimeError: out of resources",
                 "triton_looped": 0.5})
    table = bench.markdown({"device": "H200", "torch": "2.11",
                            "triton": "3.6.0", "copy_gbs": 4000.0,
                            "points": [row]})
    line = next(l for l in table.splitlines() if l.startswith("| softmax"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    header = next(l for l in table.splitlines() if l.startswith("| workload"))
    columns = [c.strip() for c in header.strip("|").split("|")]
    value = dict(zip(columns, cells))
    assert value["c0"] == "20.0"
    assert value["liger"] == "n/a"
    assert value["triton_resident"] == "err"
    assert value["triton_looped"] == "err"      # wrong result: not timed
    assert value["cuda_reread"] == "-"          # not run at this point
    assert value["best peer"] == "torch_compile"
    assert value["speedup"] == "1.50"
    assert "Geometric-mean speedup over the best peer: 1.500x" in table


def test_render_prints_a_saved_run(tmp_path, capsys):
    row = point({"credit_c0": 0.020, "torch_eager": 0.040},
                {"credit_c0": 1e-3, "torch_eager": 1e-3})
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"device": "H200", "torch": "2.11",
                                 "triton": "3.6.0", "copy_gbs": 4000.0,
                                 "points": [row]}))
    assert bench.main(["--render", str(saved)]) == 0
    assert "| softmax | bf16 | 8 x 1048576 | 20.0 |" in capsys.readouterr().out


def test_a_run_needs_a_grid_and_an_output():
    with pytest.raises(SystemExit):
        bench.main(["--grid", "paper"])


def test_quack_requests_are_the_default_at_quacks_workloads():
    from credit import suites
    requests = suites.SUITES["bench-quack"]()
    assert {r.cluster for r in requests} == {0}
    assert {r.workload for r in requests} == set(suites.QUACK_WORKLOADS)
    # Every N of both grids' points with those workloads.
    wanted = {(p.workload, p.dtype, p.n)
              for p in suites.our_points() + suites.decode_points()
              if p.workload in suites.QUACK_WORKLOADS}
    assert {(r.workload, r.dtype, r.n) for r in requests} == wanted


def test_no_quack_peer_without_the_package(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "quack", None)  # import fails
    monkeypatch.setitem(sys.modules, "quack.softmax", None)
    assert bench._quack_peers() == {}


class _FakeCuda:
    """Enough of torch.cuda for time_graph: graphs whose replays take
    `replay_s` of wall time, and events that say 1 ms between them."""

    def __init__(self, replay_s):
        self.replays = 0
        cuda = self

        class Graph:
            def replay(self):
                cuda.replays += 1
                time.sleep(replay_s)

        class Event:
            def __init__(self, enable_timing=False):
                pass

            def record(self):
                pass

            def synchronize(self):
                pass

            def elapsed_time(self, end):
                return 1.0

        class Stream:
            def wait_stream(self, other):
                pass

        self.CUDAGraph, self.Event, self.Stream = Graph, Event, Stream
        self.stream = self.graph = lambda *a: contextlib.nullcontext()
        self.current_stream = Stream
        self.synchronize = lambda: None


def test_time_graph_replays_long_graphs_fewer_times():
    calls = []
    fake = types.SimpleNamespace(cuda=_FakeCuda(0.02))
    # 2 sets cycled to 64 calls per replay; 1 ms per replay, so 1/64 ms
    # per call.
    ms = bench.time_graph(fake, lambda *a: calls.append(a), [(1,), (2,)],
                          reps=15)
    assert ms == pytest.approx(1 / 64)
    assert fake.cuda.replays == 1 + 15
    # A budget of 0.1 s over replays of 0.02 s: 5 of them, after the warm
    # replay and the one that times a replay.
    fake = types.SimpleNamespace(cuda=_FakeCuda(0.02))
    bench.time_graph(fake, lambda *a: None, [(1,)], reps=15,
                     replay_budget_s=0.1)
    assert 1 + 1 + 3 <= fake.cuda.replays <= 1 + 1 + 5
    # Never fewer than 3, never more than reps.
    fake = types.SimpleNamespace(cuda=_FakeCuda(0.05))
    bench.time_graph(fake, lambda *a: None, [(1,)], reps=15,
                     replay_budget_s=0.01)
    assert fake.cuda.replays == 1 + 1 + 3
    fake = types.SimpleNamespace(cuda=_FakeCuda(0.0))
    bench.time_graph(fake, lambda *a: None, [(1,)], reps=7,
                     replay_budget_s=10)
    assert fake.cuda.replays == 1 + 1 + 7


def test_time_graph_puts_the_foreign_call_before_each_call():
    # --after-foreign: the captured graph alternates the foreign call and
    # the timed one; the warm-up before capture runs the timed one alone.
    calls = []
    fake = types.SimpleNamespace(cuda=_FakeCuda(0.0))
    bench.time_graph(fake, lambda *a: calls.append(a), [(1,), (2,)],
                     reps=3, min_calls=4, before=lambda: calls.append("f"))
    assert calls == [(1,), (2,)] + ["f", (1,), "f", (2,)] * 2


def test_after_foreign_runs_say_so_in_their_table():
    results = {"grid": "decode", "device": "d", "torch": "t", "triton": "x",
               "copy_gbs": 3000.0, "points": []}
    assert "foreign kernel" not in bench.markdown(results)
    results["after_foreign"] = True
    assert "after a foreign kernel" in bench.markdown(results)
