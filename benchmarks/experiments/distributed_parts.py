"""Where a vocabulary-parallel cross-entropy step spends its time (a group
of one): each part timed alone with CUDA events, against the single-GPU
fused kernel. Run with CREDIT_ARTIFACTS naming the bench-distributed and
bench libraries."""

import sys

import torch
import torch.distributed as dist

import credit
import credit.distributed as cd
from credit.distbench import _time as timed


def main():
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29544",
                            rank=0, world_size=1,
                            device_id=torch.device("cuda", 0))
    t, v = int(sys.argv[1]), int(sys.argv[2])
    x = torch.randn(t, v, device="cuda").to(torch.bfloat16)
    target = torch.randint(0, v, (t,), device="cuda")
    local = cd._local_target(target, 0, v)
    out = [torch.empty(t, device="cuda") for _ in range(3)]
    cd.partial("cross_entropy", [x], [local], out)
    gathered = torch.empty(1, 8 + 3 * t, device="cuda")
    parts = {
        "partial": lambda: cd.partial("cross_entropy", [x], [local], out),
        "combine": lambda: cd.combine("cross_entropy", [x], [local], out, 1),
        "all_gather": lambda: dist.all_gather_into_tensor(
            gathered, gathered[0]),
        "local_target": lambda: cd._local_target(target, 0, v),
        "scale_rows": lambda: credit.ops.scale_rows(
            x, torch.full((t,), 1.0 / t, device="cuda")),
        "forward": lambda: cd.cross_entropy(x, target, reduction="none"),
        "forward_unchecked": lambda: cd.cross_entropy(
            x, target, reduction="none", validate=False),
        "single_gpu_fused": lambda: credit.ops._cross_entropy(x, target),
    }
    gb = x.numel() * 2 / 1e9
    for name, fn in parts.items():
        ms = timed(fn, 20)
        print(f"{name:18s} {ms:8.3f} ms  ({gb / ms:6.2f} GB of logits per ms)")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
