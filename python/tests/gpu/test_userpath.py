"""The user's path: the cached launch plan and its C launcher, CUDA graph
capture, model patching and fused linear cross-entropy, each against
float64 PyTorch."""

import json
import os
import pathlib

import pytest
import torch
import torch.nn.functional as F

import credit
import credit.ops
from credit import fastpath
from credit.compiler import Compiler


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda", dtype=dtype)


def rel(a, b):
    a, b = a.double(), b.double()
    return ((a - b).norm() / b.norm().clamp(min=1e-30)).item()


def test_fast_launcher_is_built():
    if os.environ.get("CREDIT_REQUIRE_FASTLAUNCH") != "1":
        pytest.skip("only where the package was installed with its C "
                    "extension (CREDIT_REQUIRE_FASTLAUNCH=1)")
    assert fastpath._fastlaunch is not None


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_plan_is_reused(dtype):
    x = randn(37, 6144, dtype=dtype)
    credit.softmax(x)  # plans
    plans = len(fastpath.plans)
    for m in (1, 37, 300, 5000):  # every variant of the request
        x = randn(m, 6144, dtype=dtype)
        y = credit.softmax(x)
        assert rel(y, torch.softmax(x.double(), -1)) < (1e-5 if dtype ==
                                                        torch.float32 else 1e-2)
    assert len(fastpath.plans) == plans


def test_launch_rule_switches_to_a_cluster_per_row_group(tmp_path,
                                                         monkeypatch):
    # Under a profile whose launch rule switches from 3 row groups per
    # resident cluster, a cluster kernel runs as one wave of clusters that
    # loop at 2 and as a cluster per row group at 3 or more, and is right
    # both ways.
    # The shipped profile is the repository's (the wheel's credit-opt has
    # it built in): where the tests run outside a checkout, skipped.
    root = pathlib.Path(__file__).resolve().parents[3]
    source = root / "targets" / "h200.json"
    if not source.is_file():
        pytest.skip(f"{source} is not there: the tests run outside a checkout")
    profile = json.loads(source.read_text())
    profile["row_group_launch"] = {"min_share": 3, "min_ctas_per_sm": 1}
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(profile))
    runtime = credit.ops.Runtime()
    runtime.compiler = Compiler(cache_dir=tmp_path / "cache", profile=path)
    if not runtime.compiler.available:
        pytest.skip("credit-opt is not built")
    monkeypatch.setattr(credit.ops, "_runtime", runtime)
    monkeypatch.setattr(fastpath, "plans", {})
    monkeypatch.setattr(credit.ops, "poison_outputs", True)
    tiling = "#credit.tiling<cluster = 4, threads = 256, vector = 8, elems = 8>"
    with credit.ops.force_tiling(tiling):
        credit.softmax(randn(1, 8192, dtype=torch.bfloat16))
        (plan,) = fastpath.plans.values()
        (kernel,) = plan.kernels
        assert kernel.switch_share == 3
        active = kernel.loaded.max_groups
        looped, grouped = active + 1, 3 * active + 5
        assert kernel.loaded.rows_per_cluster(looped, None) == 2
        assert kernel.loaded.rows_per_cluster(grouped, None) == 1
        for m in (37, looped, grouped):
            x = randn(m, 8192, dtype=torch.bfloat16)
            y = credit.softmax(x)
            assert rel(y, torch.softmax(x.double(), -1)) < 1e-2, m


def test_fast_path_falls_back_and_checks():
    x = randn(8, 4096)
    w = randn(4096)
    credit.rms_norm(x, w)  # plans
    # Strided rows, batched inputs and a misaligned view take the checked
    # path and are still right.
    wide = randn(8, 4096 + 64)[:, :4096]
    assert rel(credit.rms_norm(wide, w),
               F.rms_norm(wide.double(), (4096,), w.double(), 1e-6)) < 1e-5
    batched = randn(2, 3, 4096)
    assert rel(credit.rms_norm(batched, w),
               F.rms_norm(batched.double(), (4096,), w.double(), 1e-6)) < 1e-5
    shifted = randn(8 * 4096 + 1)[1:].view(8, 4096)
    assert rel(credit.rms_norm(shifted, w),
               F.rms_norm(shifted.double(), (4096,), w.double(), 1e-6)) < 1e-5
    # Bad arguments are still errors once a plan exists.
    with pytest.raises(credit.ArgumentError, match=r"weight has shape"):
        credit.rms_norm(x, randn(2048))
    with pytest.raises(credit.ArgumentError, match="weight has dtype"):
        credit.rms_norm(x, randn(4096, dtype=torch.bfloat16))
    with pytest.raises(credit.ArgumentError, match="x is on cpu"):
        credit.rms_norm(x.cpu(), w)
    target = torch.randint(0, 4096, (8,), device="cuda")
    credit.cross_entropy(x, target)
    with pytest.raises(credit.ArgumentError):
        credit.cross_entropy(x, target[:4])


def test_no_rows():
    x = randn(0, 4096)
    assert credit.softmax(x).shape == (0, 4096)
    w = randn(4096)
    rstd = torch.empty(0, device="cuda")
    dx, dw = credit.rmsnorm_bwd(x, x, w, rstd)
    assert dx.shape == (0, 4096)
    assert torch.equal(dw, torch.zeros_like(dw))


def test_cuda_graph_capture():
    x = randn(64, 8192, dtype=torch.bfloat16)
    w = randn(8192, dtype=torch.bfloat16)
    credit.rms_norm(x, w)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        credit.rms_norm(x, w)  # warm-up on the capture stream
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = credit.rms_norm(x, w)
    x.copy_(randn(64, 8192, dtype=torch.bfloat16))
    graph.replay()
    torch.cuda.synchronize()
    assert rel(y, F.rms_norm(x.double(), (8192,), w.double(), 1e-6)) < 1e-2


def test_autograd_and_compile_keep_working():
    x = randn(16, 4096, dtype=torch.bfloat16).requires_grad_()
    w = randn(4096, dtype=torch.bfloat16).requires_grad_()
    credit.rms_norm(x, w).float().square().sum().backward()
    xr, wr = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    F.rms_norm(xr, (4096,), wr, 1e-6).square().sum().backward()
    assert rel(x.grad, xr.grad) < 2e-2 and rel(w.grad, wr.grad) < 2e-2
    torch._dynamo.reset()
    compiled = torch.compile(lambda a: credit.softmax(a) * 2, dynamic=False)
    a = randn(8, 4096)
    assert rel(compiled(a), torch.softmax(a.double(), -1) * 2) < 1e-5


def _native_module():
    from credit import native
    if native.mode() == "off":
        pytest.skip("CREDIT_NATIVE=0")
    module = native.module()  # CREDIT_NATIVE=sync builds it here
    if module is None:
        if os.environ.get("CREDIT_REQUIRE_NATIVE") == "1":
            pytest.fail(f"no C++ call path: {native.failure}")
        pytest.skip("the C++ call path is not loaded (CREDIT_NATIVE=sync "
                    "builds it on first use)")
    return module


def _node(grad_fn) -> str:
    """The name of an autograd node: C++ nodes have name(), Python
    autograd.Functions' nodes their class."""
    try:
        return grad_fn.name()
    except RuntimeError:
        return type(grad_fn).__name__


def _grads_match(ours, theirs, make, tolerance):
    """Runs `ours` and `theirs` (float64) on the tensors `make()` gives
    (fresh, laid out as they will be called) with a random upstream
    gradient; their outputs and every input's gradient must agree.
    Returns our output's grad_fn."""
    mine = [t.requires_grad_() if t.is_floating_point() else t
            for t in make()]
    ref = [t.detach().double().requires_grad_() if t.is_floating_point()
           else t for t in mine]
    y, y_ref = ours(*mine), theirs(*ref)
    assert rel(y, y_ref) < tolerance
    upstream = torch.randn(y.shape, device="cuda", dtype=torch.float64)
    (y.double() * upstream).sum().backward()
    (y_ref * upstream).sum().backward()
    for a, b in zip(mine, ref):
        if a.is_floating_point():
            assert rel(a.grad, b.grad) < tolerance
    return y.grad_fn


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_native_autograd_matches_float64(dtype):
    _native_module()
    tolerance = 1e-5 if dtype == torch.float32 else 2e-2
    n = 6144

    def rows():
        return randn(3, 5, n, dtype=dtype)

    def vector():
        return randn(n, dtype=dtype)

    def logits_and_target():
        target = torch.randint(0, 32000, (15,), device="cuda")
        target[4] = -100  # an ignored row
        return randn(15, 32000, dtype=dtype) * 3, target

    cases = [
        ("SoftmaxFunction", credit.softmax, lambda x: torch.softmax(x, -1),
         lambda: (rows(),)),
        ("RMSNormFunction", lambda x, w: credit.rms_norm(x, w, 1e-6),
         lambda x, w: F.rms_norm(x, (n,), w, 1e-6),
         lambda: (rows(), vector())),
        ("LayerNormFunction",
         lambda x, w, b: credit.layer_norm(x, (n,), w, b, 1e-5),
         lambda x, w, b: F.layer_norm(x, (n,), w, b, 1e-5),
         lambda: (rows(), vector(), vector())),
        ("CrossEntropyFunction",
         lambda z, t: credit.cross_entropy(z, t, reduction="none"),
         lambda z, t: F.cross_entropy(z, t, reduction="none"),
         logits_and_target),
    ]
    for name, ours, theirs, make in cases:
        for _ in range(2):  # the first call makes the plans
            node = _grads_match(ours, theirs, make, tolerance)
        assert name in _node(node) and "CppNode" in _node(node), _node(node)
    # The mean over the rows not ignored, through the same node.
    _grads_match(credit.cross_entropy, F.cross_entropy, logits_and_target,
                 tolerance)


@pytest.mark.parametrize("wanted", [(True, True, False), (True, False, True),
                                    (False, True, True)])
def test_layer_norm_gradients_asked_for(wanted):
    """layer_norm's backward makes the gradients autograd asks for, and
    only those (PyTorch's kernel makes dgamma and dbeta by a mask), on the
    first call (Python's node) and the next (the C++ node)."""
    n = 5000
    for call in range(2):
        x, w, b = randn(7, n), randn(n), randn(n)
        mine = [t.requires_grad_(want) for t, want in zip((x, w, b), wanted)]
        ref = [t.detach().double().requires_grad_(want)
               for t, want in zip(mine, wanted)]
        y = credit.layer_norm(*mine[:1], (n,), *mine[1:])
        y_ref = F.layer_norm(ref[0], (n,), ref[1], ref[2], 1e-5)
        upstream = torch.randn(y.shape, device="cuda", dtype=torch.float64)
        (y.double() * upstream).sum().backward()
        (y_ref * upstream).sum().backward()
        for a, r, want in zip(mine, ref, wanted):
            assert (a.grad is not None) == want
            if want:
                assert rel(a.grad, r.grad) < 1e-5


_FIRST_BACKWARD = """
import os, torch, credit
from credit import fastpath
native = os.environ.get("CREDIT_NATIVE") != "0"
if os.environ.get("CREDIT_TEST_LAUNCHER") == "python":
    fastpath._fastlaunch = None  # the cuda-python launcher
x = torch.randn(15, 6144, device="cuda", dtype=torch.bfloat16,
                requires_grad=True)
up = torch.randn(15, 6144, device="cuda", dtype=torch.bfloat16)
credit.softmax(x)  # the first call plans, on the checked path
y = credit.softmax(x)
assert ("CppNode" in y.grad_fn.name()) == native, y.grad_fn.name()
y.backward(up)  # CREDIT's node is the root: the first work on its thread
p = torch.softmax(x.detach().double(), -1)
ref = p * (up.double() - (p * up.double()).sum(-1, keepdim=True))
err = ((x.grad.double() - ref).norm() / ref.norm()).item()
assert err < 2e-2, err
print("ok")
"""


def test_native_backward_first_on_its_thread():
    """A fresh process whose first autograd work is CREDIT's backward, on
    a worker thread with no CUDA context bound yet (outputs not
    poisoned: nothing else runs CUDA on that thread first)."""
    _native_module()
    import subprocess
    import sys
    env = dict(os.environ, CREDIT_NATIVE="sync")
    result = subprocess.run([sys.executable, "-c", _FIRST_BACKWARD],
                            capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0 and "ok" in result.stdout, \
        result.stderr[-3000:]


@pytest.mark.parametrize("launcher", ["c", "python"])
def test_backward_first_on_its_thread_without_native(launcher):
    """As above, without the C++ call path: the C launcher (where it is
    built) and the cuda-python one bind the device's primary context on
    autograd's worker thread themselves."""
    import subprocess
    import sys
    from credit import fastpath
    if launcher == "c" and fastpath._fastlaunch is None:
        pytest.skip("the C launcher (credit._fastlaunch) is not built")
    env = dict(os.environ, CREDIT_NATIVE="0", CREDIT_TEST_LAUNCHER=launcher)
    result = subprocess.run([sys.executable, "-c", _FIRST_BACKWARD],
                            capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0 and "ok" in result.stdout, \
        result.stderr[-3000:]


def test_native_path_falls_back():
    """Tensors the C++ plans do not take (strided, misaligned) take the
    Python path, with autograd too, and are right; a gradient the
    backward must copy (expanded) is right."""
    _native_module()
    n = 4096
    w = randn(n)
    credit.rms_norm(randn(4, n).requires_grad_(), w)  # plans
    layouts = (lambda: randn(8, n + 64)[:, :n],
               lambda: randn(8 * n + 1)[1:].view(8, n))
    for layout in layouts:
        node = _grads_match(lambda x, w: credit.rms_norm(x, w, 1e-6),
                            lambda x, w: F.rms_norm(x, (n,), w, 1e-6),
                            lambda: (layout(), randn(n)), 1e-5)
        assert "CppNode" not in _node(node)
    x = randn(8, n).requires_grad_()
    credit.softmax(x).sum().backward()
    assert x.grad.abs().max().item() < 1e-5  # softmax rows sum to one
    key = credit.ops._call_key("rmsnorm", w, 1e-6, 64)
    assert fastpath.plans[key].native


def _llama(seed: int = 0):
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(seed)
    config = transformers.LlamaConfig(
        vocab_size=32000, hidden_size=256, intermediate_size=512,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=512)
    return transformers.LlamaForCausalLM(config).to("cuda", torch.bfloat16)


def _loss_and_grads(model, ids, labels):
    model.zero_grad(set_to_none=True)
    loss = model(input_ids=ids, labels=labels).loss
    loss.backward()
    return loss.detach(), {n: p.grad.detach().clone()
                           for n, p in model.named_parameters()}


def test_patch_llama_matches_and_undoes():
    model = _llama()
    torch.manual_seed(1)
    ids = torch.randint(0, 32000, (2, 128), device="cuda")
    labels = ids.clone()
    labels[:, :5] = -100
    loss, grads = _loss_and_grads(model, ids, labels)
    patched = credit.patch(model)
    assert patched.rms_norms == 2 * 2 + 1
    patched_loss, patched_grads = _loss_and_grads(model, ids, labels)
    assert rel(patched_loss, loss) < 1e-2
    for name, grad in grads.items():
        assert rel(patched_grads[name], grad) < 5e-2, name
    patched.undo()
    assert all("forward" not in m.__dict__ for m in model.modules())
    again, _ = _loss_and_grads(model, ids, labels)
    assert torch.equal(again, loss)


@pytest.mark.parametrize("chunk", [None, 96])
def test_linear_cross_entropy(chunk):
    torch.manual_seed(2)
    tokens, hidden_size, vocab = 500, 256, 32000
    h = (randn(tokens, hidden_size, dtype=torch.bfloat16) * 0.5).requires_grad_()
    w = (randn(vocab, hidden_size, dtype=torch.bfloat16) * 0.05).requires_grad_()
    target = torch.randint(0, vocab, (tokens,), device="cuda")
    target[::7] = -100
    loss = credit.linear_cross_entropy(h, w, target, chunk=chunk)
    loss.backward()
    hr = h.detach().double().requires_grad_()
    wr = w.detach().double().requires_grad_()
    reference = F.cross_entropy(hr @ wr.t(), target)
    reference.backward()
    assert rel(loss, reference) < 1e-2
    assert rel(h.grad, hr.grad) < 2e-2
    assert rel(w.grad, wr.grad) < 2e-2
    none = credit.linear_cross_entropy(h.detach(), w.detach(), target,
                                       reduction="none", chunk=chunk)
    ref_none = F.cross_entropy(hr.detach() @ wr.detach().t(), target,
                               reduction="none")
    assert rel(none, ref_none) < 1e-2


def test_discarded_statistics_do_not_leak():
    # layer_norm discards mean and rstd (the plan's scratch); the same plan
    # then returns them when asked, and rms_norm's rstd too.
    x = randn(300, 4096)
    g, b = randn(4096), randn(4096)
    for _ in range(2):
        y = credit.layer_norm(x, (4096,), g, b)
    y2, mean, rstd = credit.layer_norm_with_stats(x, g, b)
    x64 = x.double()
    assert rel(y, F.layer_norm(x64, (4096,), g.double(), b.double())) < 1e-5
    assert torch.equal(y, y2)
    assert rel(mean, x64.mean(-1)) < 1e-5
    assert rel(rstd, torch.rsqrt(x64.var(-1, unbiased=False) + 1e-5)) < 1e-5
    credit.rms_norm(randn(1000, 4096), g)  # a larger scratch
    _, r = credit.rms_norm_with_rstd(x, g)
    assert rel(r, torch.rsqrt(x64.square().mean(-1) + 1e-6)) < 1e-5
    q, scale = credit.rowwise_quant(x)
    assert rel(scale, x64.abs().amax(-1) / 127) < 1e-6
