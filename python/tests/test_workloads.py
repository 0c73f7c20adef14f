"""Workload templates: rendering, and the examples generated from them."""

import pathlib

import pytest

from credit import workloads
from credit.workloads import WORKLOADS

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def test_every_design_workload_is_there():
    assert sorted(WORKLOADS) == sorted([
        "layernorm_bwd", "weighted_var_bwd", "pearson_bwd",
        "softmax_logits_bwd", "lars_momentum", "rowwise_quant", "softmax",
        "log_softmax", "layernorm", "rmsnorm", "rmsnorm_bwd", "cross_entropy",
        "l2_normalize"])


def test_examples_match_templates():
    assert workloads.main(["--check-examples", str(EXAMPLES)]) == 0


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_render_substitutes_everything(name):
    text = WORKLOADS[name].render(6000, "f16")
    assert "${" not in text
    assert "x6000xf16>" in text
    assert f'credit.rowwise "{name}"' in text


def test_render_float_literals():
    text = WORKLOADS["rmsnorm"].render(4096, "bf16", eps=1e-5)
    assert "arith.constant 4096.0 : f32" in text
    assert "arith.constant 1.0e-05 : f32" in text


def test_render_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unsupported dtype 'i8'"):
        WORKLOADS["softmax"].render(128, "i8")
    with pytest.raises(ValueError, match="positive integer"):
        WORKLOADS["softmax"].render(0, "f32")
    with pytest.raises(ValueError, match="softmax takes no eps"):
        WORKLOADS["softmax"].render(128, "f32", eps=1e-5)


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_lookahead_workloads_are_the_one_stage_ones(name, tmp_path):
    """suites.ONE_STAGE (the workloads the GPU suite runs with lookahead)
    is exactly the set the compiler builds a lookahead tiling for; the
    others get the plan's reason."""
    from credit import suites
    from credit.compiler import CompileError, Compiler, Request
    compiler = Compiler(cache_dir=tmp_path)
    if not compiler.available:
        pytest.skip(compiler.unavailable)
    tiling = suites.split_tiling("f32", 65536, 1, 4, "reread", 256,
                                 lookahead=1)
    request = Request(name, "f32", 65536, 0, WORKLOADS[name].eps,
                      tiling=tiling)
    if name in suites.ONE_STAGE:
        assert compiler.compile(request).kernels
    else:
        with pytest.raises(CompileError, match="lookahead overlaps a row's "
                           "one exchange .* but the op has 2 reduction "
                           "stages"):
            compiler.compile(request)
