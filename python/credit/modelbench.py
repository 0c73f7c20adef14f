"""Training-step time of a transformers model with and without
`credit.patch`, and fused linear cross-entropy against the unfused PyTorch
computation and Liger-Kernel's, on the GPU.

    python -m credit.modelbench --out benchmarks/model-DATE-runN.json

Every configuration is checked against the unpatched (or unfused) result
before it is timed: losses within bf16 rounding.
"""

from __future__ import annotations

import argparse
import datetime
import json
import time

import torch
import torch.nn.functional as F

import credit


def _time(step, warmup: int = 3, iters: int = 10) -> float:
    """Milliseconds per call of `step` (synchronized)."""
    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        step()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / iters * 1e3


def _rel(a, b):
    return ((a.double() - b.double()).norm() /
            b.double().norm().clamp(min=1e-30)).item()


def patched_llama(batch: int = 4, seq: int = 1024, compile_peer: bool = True):
    import transformers
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=32000, hidden_size=1024, intermediate_size=2816,
        num_hidden_layers=4, num_attention_heads=16, num_key_value_heads=4,
        max_position_embeddings=seq)
    model = transformers.LlamaForCausalLM(config).to("cuda", torch.bfloat16)
    ids = torch.randint(0, config.vocab_size, (batch, seq), device="cuda")

    def step(net):
        def run():
            net.zero_grad(set_to_none=True)
            loss = net(input_ids=ids, labels=ids).loss
            loss.backward()
            return loss
        return run

    reference = step(model)().detach()
    result = {"model": "llama", "config": {
        "hidden": config.hidden_size, "layers": config.num_hidden_layers,
        "vocab": config.vocab_size, "batch": batch, "seq": seq}}
    result["unpatched_ms"] = _time(step(model))
    with credit.patch(model) as patched:
        loss = step(model)().detach()
        result["patched_rel_loss"] = _rel(loss, reference)
        assert result["patched_rel_loss"] < 1e-2, result
        result["patched_modules"] = len(patched.modules)
        result["patched_ms"] = _time(step(model))
    if compile_peer:
        torch._dynamo.reset()
        compiled = torch.compile(model)
        loss = step(compiled)().detach()
        assert _rel(loss, reference) < 1e-2
        result["compiled_ms"] = _time(step(compiled))
    return result


def _peak(run) -> tuple[float, int]:
    """Milliseconds per call, and the peak bytes one call allocates above
    what was allocated before it."""
    ms = _time(run, warmup=2, iters=5)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    run()
    torch.cuda.synchronize()
    return ms, torch.cuda.max_memory_allocated() - base


def linear_cross_entropy(tokens: int = 8192, hidden: int = 4096,
                         vocabs=(128256, 262144)):
    try:
        from liger_kernel.transformers.functional import \
            liger_fused_linear_cross_entropy
    except ImportError:
        liger_fused_linear_cross_entropy = None
    points = []
    for vocab in vocabs:
        torch.manual_seed(0)
        h = (torch.randn(tokens, hidden, device="cuda", dtype=torch.bfloat16)
             * 0.5).requires_grad_()
        w = (torch.randn(vocab, hidden, device="cuda", dtype=torch.bfloat16)
             * 0.02).requires_grad_()
        target = torch.randint(0, vocab, (tokens,), device="cuda")
        target[::11] = -100

        def unfused():
            h.grad = w.grad = None
            loss = F.cross_entropy((h @ w.t()).float(), target)
            loss.backward()
            return loss

        def ours():
            h.grad = w.grad = None
            loss = credit.linear_cross_entropy(h, w, target)
            loss.backward()
            return loss

        reference = unfused().detach()
        ref_grad = h.grad.clone()
        loss = ours().detach()
        point = {"tokens": tokens, "hidden": hidden, "vocab": vocab,
                 "rel_loss": _rel(loss, reference),
                 "rel_grad_hidden": _rel(h.grad, ref_grad)}
        assert point["rel_loss"] < 1e-2 and point["rel_grad_hidden"] < 3e-2, \
            point
        point["unfused_ms"], point["unfused_peak_bytes"] = _peak(unfused)
        point["credit_ms"], point["credit_peak_bytes"] = _peak(ours)
        if liger_fused_linear_cross_entropy is not None:
            def liger():
                h.grad = w.grad = None
                loss = liger_fused_linear_cross_entropy(h, w, target)
                loss.backward()
                return loss
            assert _rel(liger().detach(), reference) < 1e-2
            point["liger_ms"], point["liger_peak_bytes"] = _peak(liger)
        points.append(point)
        print(json.dumps(point), flush=True)
        del h, w
        torch.cuda.empty_cache()
    return points


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out")
    parser.add_argument("--no-compile", action="store_true")
    parser.add_argument("--only", choices=["linear-ce", "patch"])
    args = parser.parse_args(argv)
    result = {"date": datetime.date.today().isoformat(),
              "device": torch.cuda.get_device_name(),
              "torch": torch.__version__}
    if args.only != "patch":
        result["linear_cross_entropy"] = linear_cross_entropy()
    if args.only != "linear-ce":
        result["patch"] = patched_llama(compile_peer=not args.no_compile)
        print(json.dumps(result["patch"]), flush=True)
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(result, handle, indent=1)


if __name__ == "__main__":
    main()
