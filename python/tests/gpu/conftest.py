"""GPU tests: skipped cleanly without torch, CUDA or an sm_90 GPU."""

import os

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed")

if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)
if torch.cuda.get_device_capability() < (9, 0):
    pytest.skip("the GPU is older than sm_90", allow_module_level=True)


@pytest.fixture(autouse=True, scope="session")
def _poison_outputs():
    import credit.ops
    credit.ops.poison_outputs = True
    yield
