"""The benchmark's hand-written baselines compile for sm_90 without a GPU:
every Triton kernel (both variants, 16-bit and fp32 rows) through Triton's
own compiler, and the paper's CUDA baselines through nvcc, with one entry
per workload and variant that the launcher expects."""

import re
import subprocess

import pytest

from credit.peers import cuda_paper

triton = pytest.importorskip("triton")

from credit.peers import triton_kernels  # noqa: E402  (needs triton)

KERNELS = sorted(name for name in dir(triton_kernels)
                 if name.endswith(("_resident", "_looped")))
# Pointers that are not rows of the storage dtype.
POINTER_TYPES = {"t_ptr": "*i64", "q_ptr": "*i8", "mean_ptr": "*fp32",
                 "rstd_ptr": "*fp32", "loss_ptr": "*fp32",
                 "scale_ptr": "*fp32", "dw_ptr": "*fp32"}


def test_every_workload_has_both_triton_variants():
    from credit.workloads import WORKLOADS

    # log_softmax is the softmax kernels with LOG=True.
    expected = sorted(f"{w}_{v}" for w in WORKLOADS if w != "log_softmax"
                      for v in ("resident", "looped"))
    assert KERNELS == expected


@pytest.mark.parametrize("dtype", ["fp32", "bf16"])
@pytest.mark.parametrize("name", KERNELS)
def test_triton_kernel_compiles_for_sm90(name, dtype):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    kernel = getattr(triton_kernels, name)
    signature, constants = {}, {}
    for index, arg in enumerate(kernel.arg_names):
        if arg in ("BLOCK", "LOG"):
            signature[arg] = "constexpr"
            constants[(index,)] = (4096 if arg == "BLOCK" else True)
        elif arg.endswith("_ptr"):
            signature[arg] = POINTER_TYPES.get(arg, f"*{dtype}")
        else:
            signature[arg] = "i32"
    compiled = triton.compile(ASTSource(kernel, signature, constants),
                              target=GPUTarget("cuda", 90, 32),
                              options={"num_warps": 8})
    assert f".entry {name}" in compiled.asm["ptx"]
    assert compiled.asm["cubin"]


def test_paper_cuda_baselines_compile_with_every_entry(tmp_path):
    if cuda_paper.find_nvcc() is None:
        pytest.skip("nvcc not found")
    ptx = tmp_path / "paper.ptx"
    subprocess.run([cuda_paper.find_nvcc(), "-ptx", "-arch=sm_90", "-O3",
                    "--use_fast_math", str(cuda_paper.SOURCE), "-o",
                    str(ptx)], check=True)
    entries = set(re.findall(r"\.entry (\w+)\(", ptx.read_text()))
    assert entries == {f"paper_{w}_{v}" for w in cuda_paper.ENTRIES
                       for v in cuda_paper.VARIANTS}
    cubin = cuda_paper.build(tmp_path)
    assert cubin.stat().st_size > 0


def test_paper_cuda_build_reports_missing_nvcc(monkeypatch, tmp_path,
                                               capsys):
    monkeypatch.setattr(cuda_paper, "find_nvcc", lambda: None)
    assert cuda_paper.main(["--out", str(tmp_path)]) == 1
    assert "nvcc not found" in capsys.readouterr().err
