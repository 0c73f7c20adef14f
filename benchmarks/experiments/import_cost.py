"""Host microseconds of an eager torch.softmax call with autograd after
importing nothing, torch.distributed or credit (argument: none, dist,
credit): whether importing the package slows PyTorch's own calls (run
2026-12-01: no, within the machine's drift)."""
import sys, time, torch
if sys.argv[1] == "dist":
    import torch.distributed
if sys.argv[1] == "credit":
    import credit
x = torch.randn(1, 32000, device="cuda", requires_grad=True)
for _ in range(100): torch.softmax(x, -1)
torch.cuda.synchronize()
best = 1e9
for r in range(11):
    t = time.perf_counter()
    for _ in range(100): torch.softmax(x, -1)
    best = min(best, (time.perf_counter() - t) / 100 * 1e6)
print(sys.argv[1], f"{best:.1f} us")
