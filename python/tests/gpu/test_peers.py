"""The benchmark's hand-written peers on the GPU against float64 references.

Each Triton kernel (resident and looped) and each of the paper's CUDA
baselines (smem and reread) runs on fresh random inputs with poisoned
outputs (NaN, -128 for int8; credit.ops.poison_outputs, set by conftest) and must match credit.reference on float64
copies: relative 2-norm error below 1e-4 for fp32 rows and 1e-2 for bf16,
over the elements whose reference is finite; int8 outputs may differ by one
step at rounding ties only. Shapes cover one chunk, several chunks with a
ragged tail (Triton), the largest resident row, and rows too long for
shared memory (CUDA smem says NotApplicable).
"""

import pytest
import torch

from credit import bench, suites
from credit.peers import cuda_paper, triton_rowwise

TOLERANCE = {"f32": 1e-4, "bf16": 1e-2}
REFERENCES = bench._references()

TRITON_CASES = [(w, v, d, m, n)
                for w in triton_rowwise.WORKLOADS
                for v in triton_rowwise.VARIANTS
                for d, m, n in (("f32", 37, 4096), ("bf16", 37, 4096),
                                ("f32", 5, 9001), ("bf16", 3, 65536))]
TRITON_CASES += [(w, "looped", "f32", 2, 200003)
                 for w in triton_rowwise.WORKLOADS]
CUDA_CASES = [(w, v, "f32", m, n)
              for w in cuda_paper.ENTRIES for v in cuda_paper.VARIANTS
              for m, n in ((37, 4096), (3, 16384), (2, 65536), (5, 1028))]


@pytest.fixture(autouse=True)
def _default_configurations(monkeypatch):
    """Every Triton case runs its default configuration (tuning each would
    compile ~10 variants per case); test_triton_autotuned tunes."""
    monkeypatch.setattr(triton_rowwise, "autotune", False)


@pytest.fixture(scope="module")
def paper():
    return cuda_paper.load()


def check(fn, workload, dtype, m, n):
    torch.manual_seed(m * 1000003 + n)
    args = bench._inputs(suites.Point(workload, dtype, m, n), torch)
    out = fn(*args)
    torch.cuda.synchronize()
    reference = REFERENCES[workload](*[a.double() if a.is_floating_point()
                                       else a for a in args])
    for o in bench._flatten(out):
        if o.dtype == torch.int8:
            assert not (o == -128).any(), "unwritten int8 outputs"
    error = bench._error(out, reference)
    assert error < TOLERANCE[dtype], f"relative error {error:.3g}"


@pytest.mark.parametrize("workload,variant,dtype,m,n", TRITON_CASES)
def test_triton(workload, variant, dtype, m, n):
    fn = triton_rowwise.functions(variant)[workload]
    check(fn, workload, dtype, m, n)


@pytest.mark.parametrize("workload,variant,dtype,m,n", CUDA_CASES)
def test_paper_cuda(paper, workload, variant, dtype, m, n):
    entry = cuda_paper.ENTRIES[workload]
    if variant == "smem" and 4 * n * entry.rows > paper.max_shared - 1024:
        with pytest.raises(cuda_paper.NotApplicable):
            paper.call(workload, variant,
                       *bench._inputs(suites.Point(workload, dtype, m, n),
                                      torch))
        return
    check(paper.functions(variant)[workload], workload, dtype, m, n)


@pytest.mark.parametrize("workload,variant,dtype,n", [
    ("layernorm", "resident", "bf16", 6000),
    ("cross_entropy", "looped", "bf16", 20000),
    ("rmsnorm_bwd", "looped", "f32", 9001),   # accumulates: reset after tuning
    ("rmsnorm_bwd", "resident", "bf16", 4096),
])
def test_triton_autotuned(monkeypatch, workload, variant, dtype, n):
    monkeypatch.setattr(triton_rowwise, "autotune", True)
    fn = triton_rowwise.functions(variant)[workload]
    check(fn, workload, dtype, 33, n)   # tunes, then launches the best
    check(fn, workload, dtype, 33, n)   # the tuned configuration again


def test_triton_resident_refuses_long_rows():
    x = torch.randn(2, triton_rowwise.MAX_RESIDENT + 1, device="cuda")
    with pytest.raises(triton_rowwise.NotApplicable):
        triton_rowwise.softmax("resident", x)


def test_paper_cuda_refuses_bf16_and_ragged_rows(paper):
    with pytest.raises(cuda_paper.NotApplicable, match="fp32"):
        paper.call("rowwise_quant", "reread",
                   torch.randn(2, 4096, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(cuda_paper.NotApplicable, match="multiple of 4"):
        paper.call("rowwise_quant", "reread",
                   torch.randn(2, 4098, device="cuda"))
