"""The C launcher (credit/_fastlaunch.c), built here with the system's C
compiler: its grid rule is the manifest's, and it fails cleanly without a
GPU driver. No GPU needed."""

import dataclasses
import itertools
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig

import pytest

from credit.manifest import GRID_POLICIES, parse_manifest
from tests.test_manifest import PTX, manifest

SOURCE = pathlib.Path(__file__).resolve().parents[1] / "credit" / "_fastlaunch.c"


def _cuda_include():
    for root in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if root and (pathlib.Path(root) / "include" / "cuda.h").is_file():
            return pathlib.Path(root) / "include"
    return None


@pytest.fixture(scope="module")
def fastlaunch(tmp_path_factory):
    compiler = shutil.which("cc") or shutil.which("gcc")
    include = _cuda_include()
    if not compiler or not include:
        pytest.skip("no C compiler or no cuda.h")
    out = tmp_path_factory.mktemp("fastlaunch")
    target = out / "_fastlaunch.abi3.so"
    subprocess.run([compiler, "-O2", "-Wall", "-Wextra", "-Werror", "-shared",
                    "-fPIC", f"-I{sysconfig.get_paths()['include']}",
                    f"-I{include}", str(SOURCE), "-o", str(target), "-ldl"],
                   check=True)
    sys.path.insert(0, str(out))
    try:
        import _fastlaunch
    finally:
        sys.path.remove(str(out))
    return _fastlaunch


@pytest.fixture
def kernel(tmp_path):
    (tmp_path / "softmax_bf16_n8192_c2.ptx").write_text(PTX)
    return parse_manifest(manifest(), tmp_path)


@pytest.mark.parametrize("policy", GRID_POLICIES)
def test_grid_rule_is_the_manifests(fastlaunch, kernel, policy):
    for rows_per_cta, switch in itertools.product((1, 2, 4, 16),
                                                  (0, 1, 3, 6)):
        tiling = dict(kernel.tiling, rows=rows_per_cta)
        k = dataclasses.replace(kernel, grid_policy=policy, tiling=tiling,
                                row_group_launch_share=switch)
        for m in (0, 1, 2, 3, 7, 42, 64, 131, 132, 133, 1000, 65537):
            for active, blocks in ((1, 1), (7, 64), (132, 64), (528, 3)):
                rows = k.rows_per_cluster(m, active, blocks)
                clusters = k.grid(m, rows, blocks) // k.cluster
                assert fastlaunch.grid(GRID_POLICIES.index(policy), m,
                                       rows_per_cta, active, blocks,
                                       switch) == (rows, clusters), \
                    (policy, m, rows_per_cta, active, switch)


def test_bad_calls_are_errors(fastlaunch):
    with pytest.raises(ValueError, match="unknown grid policy"):
        fastlaunch.grid(7, 10, 1, 1, 1, 0)
    with pytest.raises(ValueError, match="column sums need row blocks"):
        fastlaunch.grid(2, 10, 1, 1, 0, 0)
    with pytest.raises(TypeError, match="takes 6 arguments"):
        fastlaunch.grid(1, 10, 1, 1, 1)
    with pytest.raises(TypeError, match="takes 13 arguments"):
        fastlaunch.launch(0, 128)
    with pytest.raises(TypeError, match="args must be a tuple"):
        fastlaunch.launch(0, 128, 1, 0, 0, 1, 1, 0, 0, 0, 4, [1, 2], False)
    with pytest.raises(ValueError, match="too many kernel arguments"):
        fastlaunch.launch(0, 128, 1, 0, 0, 1, 1, 0, 0, 0, 4,
                          tuple(range(63)), False)
    # No rows: nothing to launch, not even the driver is needed.
    assert fastlaunch.launch(0, 128, 1, 0, 0, 1, 1, 0, 0, 0, 0, (),
                             True) is None


def test_without_a_driver(fastlaunch):
    if any(pathlib.Path(d, "libcuda.so.1").exists()
           for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64")):
        pytest.skip("a CUDA driver is installed")
    with pytest.raises(RuntimeError, match="cannot load the CUDA driver"):
        fastlaunch.launch(0, 128, 1, 0, 0, 1, 1, 0, 0, 0, 4, (1, 2), True)
