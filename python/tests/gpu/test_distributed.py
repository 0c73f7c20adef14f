"""Rows sharded across devices, on one GPU: the partial and combine kernels
of each shard against a float64 reference of the whole row, and
credit.distributed's functions in a group of one (NCCL).

Shards are simulated by slicing one row into the layouts of
suites.shard_cases(); the partials of all shards are handed to every
shard's combine kernel in shard order, exactly as the gather of a real
group does. Outputs are poisoned (conftest); rows with -inf in whole
shards check that the combination of a shard's -inf maximum with finite
ones is exact.
"""

import socket

import pytest
import torch
import torch.distributed as dist

import credit.distributed as cd
from credit import reference, suites

from .test_correctness import TOLERANCE, TORCH_DTYPES, compare

CASES = suites.shard_cases()


def inputs(case, generator):
    n = sum(case.shards)
    dtype = TORCH_DTYPES[case.dtype]
    x = torch.randn(case.m, n, generator=generator, device="cuda") * 3
    if case.m > 4:
        # Row 1: -inf but for the last shard; row 2: shard 0 all -inf; row
        # 3: all -inf (NaN, as torch gives).
        x[1, :n - case.shards[-1]] = float("-inf")
        x[2, :case.shards[0]] = float("-inf")
        x[3, :] = float("-inf")
    x = x.to(dtype)
    rows = [x]
    scalars = []
    if case.workload == "softmax_logits_bwd":
        rows.append(torch.randn(case.m, n, generator=generator,
                                device="cuda").to(dtype))
    if case.workload == "cross_entropy":
        target = torch.randint(0, n, (case.m,), generator=generator,
                               device="cuda")
        if case.m > 4:
            target[4] = -100
            target[5] = n - 1  # in the last shard (one column for some)
            target[1] = n - 1  # a finite logit of a masked row
        scalars.append(target)
    return rows, scalars


def run_sharded(case, rows, scalars):
    """Each shard's partial, then each shard's combine over all partials:
    the outputs of every shard, concatenated."""
    entries = len(cd.PARTIALS[case.workload])
    starts = [sum(case.shards[:i]) for i in range(len(case.shards))]
    shard_rows, shard_scalars, partials = [], [], []
    for start, n in zip(starts, case.shards):
        local = [t[:, start:start + n].contiguous() for t in rows]
        local_scalars = [cd._local_target(t, start, n) for t in scalars]
        out = [torch.empty(case.m, device="cuda") for _ in range(entries)]
        cd.partial(case.workload, local, local_scalars, out)
        shard_rows.append(local)
        shard_scalars.append(local_scalars)
        partials += out
    outputs = [cd.combine(case.workload, local, local_scalars, partials,
                          len(case.shards))
               for local, local_scalars in zip(shard_rows, shard_scalars)]
    return outputs


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shards(case):
    generator = torch.Generator(device="cuda")
    generator.seed()
    rows, scalars = inputs(case, generator)
    outputs = run_sharded(case, rows, scalars)
    torch.cuda.synchronize()
    rows64 = [t.double() for t in rows]
    if case.workload == "cross_entropy":
        ref_loss, ref_grad = reference.cross_entropy(rows64[0], scalars[0])
        grad = torch.cat([out[0] for out in outputs], -1)
        compare(f"{case.id}: dlogits", grad, ref_grad, case.dtype)
        # Every shard computes the same loss, bit for bit.
        for out in outputs[1:]:
            assert torch.equal(out[1].nan_to_num(7.0),
                               outputs[0][1].nan_to_num(7.0))
        compare(f"{case.id}: loss", outputs[0][1], ref_loss, "f32")
        return
    ref = getattr(reference, case.workload)(*rows64)[0]
    y = torch.cat([out[0] for out in outputs], -1)
    compare(f"{case.id}: y", y, ref, case.dtype)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def group_of_one():
    if not dist.is_available() or not dist.is_nccl_available():
        pytest.skip("torch.distributed has no NCCL")
    if dist.is_initialized():
        pytest.skip("a process group is already initialised")
    dist.init_process_group(
        "nccl", init_method=f"tcp://127.0.0.1:{_free_port()}", rank=0,
        world_size=1, device_id=torch.device("cuda", 0))
    yield
    dist.destroy_process_group()


@pytest.mark.parametrize("dtype", ["bf16", "f32"])
def test_group_of_one(group_of_one, dtype):
    """The public functions with autograd in a group of one: the same as
    the single-GPU computation in float64, forward and backward."""
    generator = torch.Generator(device="cuda")
    generator.seed()
    m, n = 37, 8192
    torch_dtype = TORCH_DTYPES[dtype]
    x = (torch.randn(m, n, generator=generator, device="cuda") * 3).to(
        torch_dtype)
    target = torch.randint(0, n, (m,), generator=generator, device="cuda")
    target[3] = -100
    dy = torch.randn(m, n, generator=generator, device="cuda").to(torch_dtype)

    for name, fn, ref_fn in [
            ("softmax", cd.softmax, lambda t: torch.softmax(t, -1)),
            ("log_softmax", cd.log_softmax,
             lambda t: torch.log_softmax(t, -1))]:
        leaf = x.clone().requires_grad_()
        y = fn(leaf)
        y.backward(dy)
        leaf64 = x.double().requires_grad_()
        ref = ref_fn(leaf64)
        ref.backward(dy.double())
        compare(f"{name}: y", y.detach(), ref.detach(), dtype)
        compare(f"{name}: dx", leaf.grad, leaf64.grad, dtype)

    for reduction in ("mean", "sum", "none"):
        leaf = x.clone().requires_grad_()
        loss = cd.cross_entropy(leaf, target, reduction=reduction)
        leaf64 = x.double().requires_grad_()
        ref = torch.nn.functional.cross_entropy(leaf64, target,
                                                reduction=reduction)
        upstream = torch.rand_like(ref) if reduction == "none" else None
        (loss * (upstream if upstream is not None else 1)).sum().backward()
        (ref * (upstream if upstream is not None else 1)).sum().backward()
        compare(f"cross_entropy {reduction}: loss", loss.detach(),
                ref.detach(), "f32")
        compare(f"cross_entropy {reduction}: dlogits", leaf.grad,
                leaf64.grad, dtype)


def test_group_of_one_errors(group_of_one):
    x = torch.randn(4, 8192, device="cuda")  # shard_cases' f32 (8192,)
    with pytest.raises(cd.ArgumentError, match="target must be a torch.int64"):
        cd.cross_entropy(x, torch.zeros(4, device="cuda"))
    with pytest.raises(cd.ArgumentError, match="target has shape"):
        cd.cross_entropy(x, torch.zeros(5, dtype=torch.int64, device="cuda"))
    with pytest.raises(cd.ArgumentError, match="dtype torch.float64"):
        cd.softmax(x.double())
    # Columns 10.. of a one-rank vocabulary: the shard does not start at 0.
    with pytest.raises(cd.DistributedError,
                       match="rank 0 starts at column 10"):
        cd.cross_entropy(x, torch.zeros(4, dtype=torch.int64, device="cuda"),
                         vocab_start=10)


def test_two_gpus():
    """The protocol over the GPUs of one machine through NCCL: uneven f32
    shards against float64, forward and backward, and the same error on
    every rank for bad use (tests/test_distributed.py's worker)."""
    if torch.cuda.device_count() < 2:
        pytest.skip("needs two GPUs")
    from ..test_distributed import run_ranks
    run_ranks("nccl", suites.TWO_GPU_SHARDS, cuda=True)


def test_two_ranks_one_gpu():
    """The same two ranks on whatever GPUs there are through gloo (which
    lets two ranks share one GPU): the kernels of both shards with the
    whole protocol, where the machine has one GPU."""
    from ..test_distributed import run_ranks
    run_ranks("gloo", suites.TWO_GPU_SHARDS, cuda=True)


def test_group_of_one_graph(group_of_one):
    """Without the header check (no host synchronization) a sharded call
    is captured in a CUDA graph: replays on new inputs match float64."""
    x = torch.randn(37, 8192, device="cuda", dtype=torch.bfloat16)
    target = torch.randint(0, 8192, (37,), device="cuda")
    with torch.no_grad():
        cd.softmax(x, validate=False)  # load the kernels outside capture
        cd.cross_entropy(x, target, reduction="none", validate=False)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            y = cd.softmax(x, validate=False)
            loss = cd.cross_entropy(x, target, reduction="none",
                                    validate=False)
        for _ in range(2):
            x.copy_(torch.randn_like(x, dtype=torch.float32))
            target.random_(0, 8192)
            graph.replay()
            torch.cuda.synchronize()
            compare("graph softmax", y, torch.softmax(x.double(), -1),
                    "bf16")
            compare("graph loss", loss, torch.nn.functional.cross_entropy(
                x.double(), target, reduction="none"), "f32")
