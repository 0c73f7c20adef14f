"""CREDIT: single-pass row-wise reduction-reuse kernels for Hopper clusters.

`credit.softmax(x)`, `credit.rms_norm(x, w, eps)`, `credit.layer_norm(...)`,
`credit.cross_entropy(logits, target)` and the other workloads of DESIGN.md
run CREDIT kernels on PyTorch CUDA tensors (sm_90 or later);
`credit.linear_cross_entropy(hidden, weight, target)` fuses a vocabulary
projection with the loss, `credit.patch(model)` puts CREDIT's norms and
loss into a transformers model, and `credit.distributed` computes
cross-entropy, softmax and log_softmax over rows sharded across the GPUs
of a torch.distributed group. The compiler
side (credit.workloads, credit.compiler, credit.manifest) needs neither
torch nor a GPU.
"""

from .compiler import CompileError, Compiler, Library, Request
from .manifest import KernelManifest, KernelSet, ManifestError, load_artifacts
from .validation import ArgumentError
from .workloads import WORKLOADS

__version__ = "0.1.0"

try:
    import torch as _torch  # noqa: F401
except ImportError:  # the compiler side works without torch
    _torch = None

if _torch is not None:
    from .launcher import DeviceError
    from .ops import (cluster_size, force_tiling, cross_entropy, l2_normalize, lars_momentum, layer_norm,
                      layer_norm_with_stats, layernorm_bwd, load_library,
                      log_softmax, normalize, pearson_bwd, rms_norm,
                      rms_norm_with_rstd, rmsnorm_bwd, rowwise_quant, softmax,
                      softmax_backward, softmax_logits_bwd, weighted_var_bwd)
    from . import distributed
    from .linear_ce import linear_cross_entropy
    from .patch import Patch, patch
