"""The paper's baseline: hand-written CUDA kernels without DSMEM for its six
workloads (fp32), from benchmarks/baselines/paper_rowwise.cu.

One CTA per row; `smem` stages the row in shared memory between its two
sweeps (where the row's inputs fit), `reread` reads the row from global
memory again. The cubin is built with nvcc (`python -m
credit.peers.cuda_paper --out DIR`) on a machine with the CUDA toolkit and
carried, or built on first use where nvcc is found.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import NotApplicable

SOURCE = (Path(__file__).resolve().parents[3] / "benchmarks" / "baselines" /
          "paper_rowwise.cu")
CUBIN = "paper_rowwise.cubin"
VARIANTS = ("smem", "reread")



@dataclasses.dataclass(frozen=True)
class Entry:
    """How a workload's tensors map onto the kernels' common parameters
    (in0, in1, in2, vec, row_scalar, out0, out1, row_out, n, stride)."""
    rows: int                  # row inputs, [M, N]
    vec: bool = False          # then a broadcast [N] input
    row_scalar: bool = False   # then a per-row [M] input
    outputs: tuple[str, ...] = ("f32",)   # row outputs' dtypes
    row_out: bool = False      # then a per-row f32 output


ENTRIES = {
    "layernorm_bwd": Entry(rows=2, vec=True),
    "weighted_var_bwd": Entry(rows=3),
    "pearson_bwd": Entry(rows=2, row_scalar=True, outputs=("f32", "f32")),
    "softmax_logits_bwd": Entry(rows=2),
    "lars_momentum": Entry(rows=3, outputs=("f32", "f32")),
    "rowwise_quant": Entry(rows=1, outputs=("i8",), row_out=True),
}


def find_nvcc() -> str | None:
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if root and (Path(root) / "bin" / "nvcc").is_file():
            return str(Path(root) / "bin" / "nvcc")
    return shutil.which("nvcc")


def build(out_dir: str | os.PathLike, arch: str = "sm_90") -> Path:
    """Compiles the baselines to DIR/paper_rowwise.cubin with nvcc."""
    nvcc = find_nvcc()
    if nvcc is None:
        raise FileNotFoundError("nvcc not found (CUDA_HOME, CUDA_PATH, "
                                "/usr/local/cuda, PATH): cannot build the "
                                "CUDA baselines")
    if not SOURCE.is_file():
        raise FileNotFoundError(f"{SOURCE} not found: the CUDA baselines "
                                "are built from a checkout of the repository")
    out = Path(out_dir) / CUBIN
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([nvcc, "-cubin", f"-arch={arch}", "-O3", "--use_fast_math",
                    str(SOURCE), "-o", str(out)], check=True)
    return out


class PaperBaselines:
    """The loaded cubin: `functions(variant)` gives the bench's callables."""

    def __init__(self, cubin: Path):
        import torch

        from ..launcher import _check, _driver, require_hopper
        driver = _driver()
        major, minor = torch.cuda.get_device_capability()
        require_hopper(major, minor, torch.cuda.get_device_name())
        torch.empty(1, device="cuda")  # makes the primary context current
        _check(driver.cuInit(0), "cuInit")
        device = _check(driver.cuDeviceGet(torch.cuda.current_device()),
                        "cuDeviceGet")
        self.max_shared = _check(driver.cuDeviceGetAttribute(
            driver.CUdevice_attribute.
            CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
            "cuDeviceGetAttribute")
        self.module = _check(driver.cuModuleLoadData(cubin.read_bytes()),
                             f"loading {cubin}")
        self._functions = {}

    def _function(self, name: str):
        """The entry and the dynamic shared memory it may use."""
        from ..launcher import _check, _driver
        driver = _driver()
        if name not in self._functions:
            function = _check(driver.cuModuleGetFunction(self.module,
                                                         name.encode()),
                              f"finding {name}")
            attribute = driver.CUfunction_attribute
            static = _check(driver.cuFuncGetAttribute(
                attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
                f"querying {name}")
            dynamic = self.max_shared - static
            _check(driver.cuFuncSetAttribute(
                function,
                attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                dynamic),
                f"raising {name}'s shared memory")
            self._functions[name] = (function, dynamic)
        return self._functions[name]

    def call(self, workload: str, variant: str, *tensors):
        """Runs `paper_<workload>_<variant>` on the bench's arguments and
        returns the outputs in the reference's order."""
        import torch

        from ..launcher import _check, _driver
        from ..ops import empty_output as empty
        entry = ENTRIES[workload]
        inputs = list(tensors)
        x = inputs[0]
        if x.dtype != torch.float32 or x.dim() != 2 or not x.is_cuda:
            raise NotApplicable("the paper's CUDA baselines take 2-D fp32 "
                                "CUDA rows")
        m, n = x.shape
        if n % 4:
            raise NotApplicable(f"N = {n} is not a multiple of 4")
        rows = [t.contiguous() for t in inputs[:entry.rows]]
        rest = inputs[entry.rows:]
        vec = rest.pop(0).float().contiguous() if entry.vec else None
        scalar = rest.pop(0).float().contiguous() if entry.row_scalar else None
        name = f"paper_{workload}_{variant}"
        function, max_dynamic = self._function(name)
        shared = 4 * n * entry.rows if variant == "smem" else 0
        if shared > max_dynamic:
            raise NotApplicable(f"{entry.rows} rows of {n} floats do not fit "
                                f"in {max_dynamic} bytes of shared memory")
        dtypes = {"f32": torch.float32, "i8": torch.int8}
        outs = [empty((m, n), dtypes[d], x.device) for d in entry.outputs]
        row_out = (empty((m,), torch.float32, x.device) if entry.row_out
                   else None)
        result = tuple(outs) + ((row_out,) if entry.row_out else ())
        result = result if len(result) > 1 else result[0]
        if m == 0:
            return result
        threads = 128
        while threads < 1024 and threads * 16 < n:
            threads *= 2

        def ptr(t):
            return t.data_ptr() if t is not None else 0
        args = ([ptr(rows[k]) if k < len(rows) else 0 for k in range(3)] +
                [ptr(vec), ptr(scalar), ptr(outs[0]),
                 ptr(outs[1]) if len(outs) > 1 else 0, ptr(row_out), n,
                 rows[0].stride(0)])
        types = [ctypes.c_void_p] * 8 + [ctypes.c_int64] * 2
        stream = torch.cuda.current_stream().cuda_stream
        driver = _driver()
        _check(driver.cuLaunchKernel(function, m, 1, 1,
                                     threads, 1, 1, shared, stream,
                                     (tuple(args), tuple(types)), 0),
               f"launching {name}")
        return result

    def functions(self, variant: str) -> dict:
        return {w: (lambda *a, w=w: self.call(w, variant, *a))
                for w in ENTRIES}


def load(search: list[str | os.PathLike] = ()) -> PaperBaselines:
    """Loads the cubin from the first of `search`, $CREDIT_BASELINES or
    $CREDIT_ARTIFACTS/../baselines that has one, else builds it with nvcc
    into the credit cache."""
    dirs = list(search)
    if os.environ.get("CREDIT_BASELINES"):
        dirs.append(os.environ["CREDIT_BASELINES"])
    for library in os.environ.get("CREDIT_ARTIFACTS", "").split(":"):
        if library:
            dirs.append(Path(library).parent / "baselines")
    for directory in dirs:
        if (Path(directory) / CUBIN).is_file():
            return PaperBaselines(Path(directory) / CUBIN)
    cache = Path(os.environ.get("CREDIT_CACHE_DIR",
                                Path.home() / ".cache" / "credit"))
    return PaperBaselines(build(cache / "baselines"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Builds the paper's CUDA "
                                     "baselines with nvcc.")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args(argv)
    try:
        print(build(args.out, args.arch))
    except (FileNotFoundError, subprocess.CalledProcessError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
