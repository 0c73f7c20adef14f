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
