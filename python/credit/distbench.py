"""Vocabulary-parallel cross-entropy and softmax: credit.distributed against
the Megatron-style computation in plain PyTorch.

    torchrun --nproc-per-node P -m credit.distbench --out FILE.json
    python -m credit.distbench --out FILE.json       (a group of one)

Every rank holds a [tokens, V/P] bf16 shard of the logits. The peer is the
published Megatron algorithm written with torch operations: the shard in
float32, an all-reduce of the row maxima, the target logits and the sums of
exponentials (three all-reduces), the softmax kept for the backward pass.
CREDIT's is one partial kernel, one all_gather of the packed per-row
partials and one combine kernel that writes the loss and the gradient.
Each point times a forward and backward step (CUDA events, median of
`--reps` after warm-up, all ranks in step), checks both losses against a
float64 reference of the first rows, and records the peak memory beyond
the inputs and the bytes each rank sends (ring collectives).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics

import torch
import torch.distributed as dist

from . import distributed as cd


class _MegatronCrossEntropy(torch.autograd.Function):
    """Megatron-LM's vocab-parallel cross-entropy, in plain PyTorch."""

    @staticmethod
    def forward(ctx, logits, target, start, group):
        logits = logits.float()
        maximum = logits.max(-1)[0]
        dist.all_reduce(maximum, op=dist.ReduceOp.MAX, group=group)
        logits.sub_(maximum.unsqueeze(-1))
        n = logits.shape[-1]
        outside = (target < start) | (target >= start + n)
        local = target - start
        local[outside] = 0
        rows = torch.arange(logits.shape[0], device=logits.device)
        predicted = logits[rows, local].clone()
        predicted[outside] = 0
        dist.all_reduce(predicted, group=group)
        torch.exp(logits, out=logits)
        total = logits.sum(-1)
        dist.all_reduce(total, group=group)
        loss = torch.log(total) - predicted
        logits.div_(total.unsqueeze(-1))
        ctx.save_for_backward(logits, outside, local)
        return loss

    @staticmethod
    def backward(ctx, grad_loss):
        softmax, outside, local = ctx.saved_tensors
        rows = torch.arange(softmax.shape[0], device=softmax.device)
        softmax[rows, local] -= 1.0 - outside.float()
        softmax.mul_(grad_loss.unsqueeze(-1))
        return softmax, None, None, None


def megatron_softmax(x, group):
    """Softmax over a sharded row: two all-reduces (max, sum)."""
    x = x.float()
    maximum = x.max(-1, keepdim=True)[0]
    dist.all_reduce(maximum, op=dist.ReduceOp.MAX, group=group)
    e = torch.exp(x - maximum)
    total = e.sum(-1, keepdim=True)
    dist.all_reduce(total, group=group)
    return (e / total).to(torch.bfloat16)


def _ring_bytes(size: int, payload: int, gather: bool) -> int:
    """Bytes one rank sends in a ring all-gather (payload per rank) or
    all-reduce (payload in all) over `size` ranks."""
    if size == 1:
        return 0
    return (size - 1) * payload if gather else \
        2 * (size - 1) * payload // size


def _time(step, reps: int) -> float:
    """Median milliseconds of `step()` over `reps` runs after warm-up."""
    for _ in range(2):
        step()
    times = []
    for _ in range(reps):
        dist.barrier()
        torch.cuda.synchronize()
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        step()
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end))
    return statistics.median(times)


def _peak(step) -> int:
    """Bytes allocated at the peak of one `step()` beyond what was
    allocated before it."""
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    step()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() - base


def run_point(tokens: int, vocab: int, reps: int, group) -> dict:
    rank, size = dist.get_rank(group), dist.get_world_size(group)
    shard = -(-vocab // size)
    start = rank * shard
    shard = min(shard, vocab - start)
    generator = torch.Generator(device="cuda").manual_seed(17)
    full_rows = 64  # checked against float64 (the whole row, every rank)
    logits_full = torch.randn(full_rows, vocab, generator=generator,
                              device="cuda") * 2
    target = torch.randint(0, vocab, (tokens,), generator=generator,
                           device="cuda")
    x = torch.randn(tokens, shard, device="cuda").mul_(2).to(torch.bfloat16)
    x[:full_rows] = logits_full[:, start:start + shard].to(torch.bfloat16)
    reference = torch.nn.functional.cross_entropy(
        logits_full.to(torch.bfloat16).double(), target[:full_rows],
        reduction="none")

    def credit_step(validate):
        leaf = x.detach().requires_grad_()
        loss = cd.cross_entropy(leaf, target, group, vocab_start=start,
                                reduction="none", validate=validate)
        loss.mean().backward()
        return loss

    def megatron_step():
        leaf = x.detach().requires_grad_()
        loss = _MegatronCrossEntropy.apply(leaf, target, start, group)
        loss.mean().backward()
        return loss

    errors = {}
    for name, step in (("credit", lambda: credit_step(True)),
                       ("megatron", megatron_step)):
        loss = step()[:full_rows].double()
        errors[name] = ((loss - reference).abs().max() /
                        reference.abs().max()).item()
    point = {
        "op": "cross_entropy", "dtype": "bf16", "tokens": tokens,
        "vocab": vocab, "shard": shard, "world_size": size,
        "credit_ms": _time(lambda: credit_step(True), reps),
        "credit_unchecked_ms": _time(lambda: credit_step(False), reps),
        "megatron_ms": _time(megatron_step, reps),
        "credit_peak_bytes": _peak(lambda: credit_step(True)),
        "megatron_peak_bytes": _peak(megatron_step),
        "credit_collectives": 1,
        "megatron_collectives": 3,
        "credit_bytes_sent": _ring_bytes(
            size, 4 * (cd._HEADER + cd._WIDTH * tokens), True),
        "megatron_bytes_sent": 3 * _ring_bytes(size, 4 * tokens, False),
        "credit_max_rel_error": errors["credit"],
        "megatron_max_rel_error": errors["megatron"],
    }
    point["speedup"] = point["megatron_ms"] / point["credit_ms"]

    # Softmax forward over the same shards.
    point["softmax_credit_ms"] = _time(
        lambda: cd.softmax(x, group, validate=False), reps)
    point["softmax_megatron_ms"] = _time(
        lambda: megatron_softmax(x, group), reps)
    return point


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--tokens", type=int, nargs="+",
                        default=[4096, 8192, 16384])
    parser.add_argument("--vocab", type=int, nargs="+",
                        default=[128256, 262144])
    parser.add_argument("--reps", type=int, default=10)
    args = parser.parse_args(argv)
    if "RANK" in os.environ:
        local = int(os.environ.get("LOCAL_RANK", 0))
        torch.cuda.set_device(local)
        dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    else:
        dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29533",
                                rank=0, world_size=1,
                                device_id=torch.device("cuda", 0))
    rank = dist.get_rank()
    points = []
    for vocab in args.vocab:
        for tokens in args.tokens:
            point = run_point(tokens, vocab, args.reps, None)
            points.append(point)
            if rank == 0:
                print(f"cross_entropy T={tokens} V={vocab} P="
                      f"{point['world_size']}: credit {point['credit_ms']:.3f}"
                      f" ms (unchecked {point['credit_unchecked_ms']:.3f}), "
                      f"megatron {point['megatron_ms']:.3f} ms, "
                      f"{point['speedup']:.2f}x; peak "
                      f"{point['credit_peak_bytes'] / 2**30:.2f} vs "
                      f"{point['megatron_peak_bytes'] / 2**30:.2f} GiB; "
                      f"softmax {point['softmax_credit_ms']:.3f} vs "
                      f"{point['softmax_megatron_ms']:.3f} ms; errors "
                      f"{point['credit_max_rel_error']:.1e} / "
                      f"{point['megatron_max_rel_error']:.1e}", flush=True)
    if rank == 0:
        result = {"date": datetime.date.today().isoformat(),
                  "device": torch.cuda.get_device_name(),
                  "torch": torch.__version__,
                  "world_size": dist.get_world_size(),
                  "points": points}
        with open(args.out, "w") as out:
            json.dump(result, out, indent=1)
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
