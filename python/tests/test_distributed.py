"""credit.distributed's protocol over several ranks, on CPU tensors with the
gloo backend (no GPU): uneven shards against a float64 reference of the
whole row, forward and backward, and bad use that must fail the same way on
every rank instead of hanging. Skipped without torch."""

import socket
import traceback

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

SHARDS = (700, 1, 523)  # uneven, with a one-column shard


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _expect_error(fn, match):
    """Runs fn, which must raise DistributedError; returns its message,
    gathered from every rank."""
    import credit.distributed as cd
    try:
        fn()
    except cd.DistributedError as error:
        message = str(error)
    else:
        message = "no error"
    assert match in message, message
    messages = [None] * dist.get_world_size()
    dist.all_gather_object(messages, message.split(": ", 1)[1])
    assert len(set(messages)) == 1, messages


def worker(rank, world, port, failures, backend="gloo", shards=SHARDS,
           cuda=False):
    """One rank: credit.distributed on its shard of float64 rows against
    torch on the whole rows, with CPU tensors or (`cuda`) on GPU
    rank % GPUs (gloo can share one GPU between ranks, NCCL cannot)."""
    try:
        import credit.distributed as cd
        device = torch.device("cpu")
        if cuda:
            import credit.ops
            credit.ops.poison_outputs = True  # as the GPU suite does
            device = torch.device("cuda", rank % torch.cuda.device_count())
            torch.cuda.set_device(device)
        dist.init_process_group(backend,
                                init_method=f"tcp://127.0.0.1:{port}",
                                rank=rank, world_size=world,
                                **({"device_id": device}
                                   if backend == "nccl" else {}))
        generator = torch.Generator().manual_seed(1234)
        m, n = 9, sum(shards)
        start = sum(shards[:rank])
        columns = slice(start, start + shards[rank])
        x = torch.randn(m, n, generator=generator, dtype=torch.float64) * 3
        x[1, :n - shards[-1]] = float("-inf")  # finite in the last shard
        x[2, :shards[0]] = float("-inf")
        dy = torch.randn(m, n, generator=generator, dtype=torch.float64)
        target = torch.randint(0, n, (m,), generator=generator)
        target[4] = -100
        target[5] = shards[0]  # the first column of the second shard
        target[1] = n - 1

        def local(t):
            return t.to(device)

        def check(name, out, ref):
            # f32 results: relative error in the 2-norm over finite values;
            # infinities exactly where the reference has them.
            out, ref = out.detach().double().cpu(), ref.double()
            finite = torch.isfinite(ref)
            assert torch.equal(out[~finite], ref[~finite]), \
                f"rank {rank} {name}: infinities differ"
            err = ((out - ref)[finite].norm() /
                   ref[finite].norm().clamp_min(1e-30)).item()
            assert err < 1e-6, f"rank {rank} {name}: relative error {err}"

        for fn, ref_fn in [(cd.softmax, torch.softmax),
                           (cd.log_softmax, torch.log_softmax)]:
            leaf = local(x[:, columns].float()).requires_grad_()
            y = fn(leaf)
            y.backward(local(dy[:, columns].float()))
            full = x.clone().requires_grad_()
            ref = ref_fn(full, -1)
            ref.backward(dy)
            check(f"{fn.__name__} y", y, ref[:, columns].detach())
            check(f"{fn.__name__} dx", leaf.grad, full.grad[:, columns])

        leaf = local(x[:, columns].float()).requires_grad_()
        loss = cd.cross_entropy(leaf, local(target), vocab_start=start)
        loss.backward()
        full = x.clone().requires_grad_()
        ref = torch.nn.functional.cross_entropy(full, target)
        ref.backward()
        check("cross_entropy loss", loss, ref.detach())
        check("cross_entropy dlogits", leaf.grad, full.grad[:, columns])

        shard = local(x[:, columns].float())
        # Uneven shards with the default vocab_start (rank * V_r).
        _expect_error(lambda: cd.cross_entropy(shard, local(target)),
                      "the shards do not tile the vocabulary")
        # A rank with another dtype.
        odd = shard.half() if rank == 1 else shard
        _expect_error(lambda: cd.softmax(odd), "different dtypes: rank 0 "
                      "float32, rank 1 float16")
        # A rank that calls another function.
        _expect_error(
            lambda: (cd.log_softmax if rank == world - 1 else cd.softmax)(
                shard),
            "the ranks called different functions")
        dist.destroy_process_group()
        # No group.
        _expect_local = None
        try:
            cd.softmax(shard)
        except cd.DistributedError as error:
            _expect_local = str(error)
        assert _expect_local and "not initialised" in _expect_local
    except BaseException:  # report every rank's failure to the parent
        failures.put(f"rank {rank}:\n{traceback.format_exc()}")


def run_ranks(backend: str, shards: tuple[int, ...], cuda=False) -> None:
    """worker() on len(shards) processes; fails with every rank's report
    when one fails or hangs."""
    context = mp.get_context("spawn")
    failures = context.Queue()
    world = len(shards)
    port = _free_port()
    processes = [context.Process(target=worker,
                                 args=(rank, world, port, failures, backend,
                                       shards, cuda))
                 for rank in range(world)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    alive = [p for p in processes if p.is_alive()]
    for process in alive:
        process.kill()
    reports = []
    while not failures.empty():
        reports.append(failures.get())
    assert not alive, "ranks hung:\n" + "\n".join(reports)
    assert not reports, "\n".join(reports)
    assert all(p.exitcode == 0 for p in processes)


def test_gloo_three_ranks():
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("torch.distributed has no gloo")
    run_ranks("gloo", SHARDS)
