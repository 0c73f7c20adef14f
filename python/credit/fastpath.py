"""The per-call path of the PyTorch functions: a cached launch plan.

The first call for a request (workload, storage dtype, N, eps, device and
the forced cluster size or tiling in effect) resolves everything a launch
needs into a `Plan`: the loaded kernels with their row ranges, CUfunction
handles, blocks, clusters, shared memory and grid rules. Every later call
checks its tensors cheaply (types, devices, shapes, dtypes, contiguity,
alignment), allocates the outputs and launches with one C call
(`credit._fastlaunch`, built with the package; without it the launch goes
through cuda-python as before). A call whose tensors fail a cheap check
returns None, and the caller takes the general path, which copies what
needs copying or raises an ArgumentError that names the argument.
"""

from __future__ import annotations

import os
import threading

import torch

from . import native as _native
from .compiler import Request
from .launcher import address, bind_primary_context
from .manifest import GRID_POLICIES

try:
    from . import _fastlaunch
except ImportError:  # the package was installed without its C extension
    _fastlaunch = None

_DTYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16",
           torch.int8: "i8", torch.int32: "i32", torch.int64: "i64"}
_TORCH = {name: dtype for dtype, name in _DTYPES.items()}
#: The raw handle of a device's current stream (absent from CPU builds).
_current_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)


class _Kernel:
    """One loaded kernel, as the C launcher takes it."""

    __slots__ = ("loaded", "function", "block", "cluster", "shared", "policy",
                 "group", "active", "switch_share", "low", "high", "split",
                 "params", "dependent")

    def __init__(self, loaded, low: int, high: int | None, blocks: int):
        manifest = loaded.manifest
        self.loaded = loaded
        self.function = address(loaded.function)
        self.block = manifest.threads
        # The C launcher's grid rule counts row groups: the clusters of a
        # split row are one group of cluster * splits CTAs, and no more
        # groups than are resident at once.
        self.cluster = manifest.ctas_per_group
        self.shared = manifest.dynamic_shared_memory
        self.policy = GRID_POLICIES.index(manifest.grid_policy)
        self.group = manifest.rows_per_cta
        self.active = loaded.max_groups
        self.switch_share = manifest.row_group_launch_share
        self.split = manifest.splits > 1
        self.dependent = loaded.dependent
        # What the C launcher is given: every parameter but m and
        # rows_per_cluster (a short list would make the driver read past
        # it).
        self.params = len(manifest.params) - 2
        loaded.check_blocks(blocks)
        self.low = low
        self.high = high if high is not None else 1 << 62


class Plan:
    """Everything a launch of one request on one device needs."""

    __slots__ = ("name", "kernels", "blocks", "alignment", "multiple",
                 "outputs", "scalar_outputs", "column_sums", "scalar_dtypes",
                 "device", "python", "scratch", "retired", "native", "single")

    def __init__(self, loaded_set, request: Request, device: int):
        manifest = loaded_set.manifest
        self.name = request.workload
        self.kernels = sorted(
            (_Kernel(loaded, low, high, request.blocks)
             for loaded in loaded_set.loaded
             for low, high in loaded.manifest.rows),
            key=lambda k: k.low)
        self.blocks = request.blocks
        self.alignment = manifest.pointer_alignment
        self.multiple = manifest.stride_multiple
        # The kernel's own signature: a split part's differs from its
        # workload's.
        self.outputs = tuple(_TORCH[d] for d in manifest.output_dtypes)
        self.scalar_outputs = len(manifest.scalar_output_dtypes)
        self.column_sums = len(manifest.column_sum_output_dtypes)
        self.scalar_dtypes = tuple(_TORCH[d] for d in manifest.scalar_dtypes)
        self.device = device
        # $CREDIT_WAVES (an experiment knob) and a missing extension launch
        # through the Python launcher (and keep the C++ path off).
        self.python = _fastlaunch is None or "CREDIT_WAVES" in os.environ
        # Per-row outputs a caller discards (a norm's statistics) go to a
        # buffer kept here. Outgrown buffers stay alive: a captured CUDA
        # graph may still write into them.
        self.scratch: dict[int, torch.Tensor] = {}
        self.retired: list[torch.Tensor] = []
        #: The plan in the C++ call path (native.py): None until that is
        #: loaded, False where the Python launcher is wanted.
        self.native = False if self.python else None
        #: One row output and nothing else (run_one, for one row input).
        self.single = (len(self.outputs) == 1 and not self.scalar_outputs
                       and not self.column_sums)

    def native_plan(self):
        """The C++ plan, made once the module is loaded; None before, and
        where the Python launcher is wanted."""
        if self.native is None:
            module = _native.module()
            if module is None:
                return None
            self.native = module.Plan(
                self.name,
                [(k.function, k.block, k.cluster, k.shared, k.policy,
                  k.group, k.active, k.low, k.high, k.split, k.params,
                  k.loaded.manifest.split_partial_floats, k.switch_share,
                  k.dependent)
                 for k in self.kernels],
                self.blocks, self.alignment, list(self.outputs),
                self.scalar_outputs, self.column_sums,
                list(self.scalar_dtypes), self.device)
        return self.native or None

    def scratch_for(self, index: int, m: int, like) -> torch.Tensor:
        tensor = self.scratch.get(index)
        if tensor is None or tensor.numel() < m:
            if tensor is not None:
                self.retired.append(tensor)
            size = max(m, 2 * tensor.numel() if tensor is not None else 0)
            tensor = like.new_empty((size,), dtype=torch.float32)
            self.scratch[index] = tensor
        return tensor

    def kernel(self, m: int) -> _Kernel:
        for kernel in self.kernels:
            if kernel.low <= m <= kernel.high:
                return kernel
        return self.kernels[0]  # m == 0: any kernel (it launches nothing)


#: Plans by call key: (workload, torch dtype, N, eps, row blocks, forced
#: cluster size, forced tiling, device index).
plans: dict[tuple, Plan] = {}
_lock = threading.Lock()


def plan_for(key: tuple, request: Request, device: int, load) -> Plan:
    """The cached plan for `key`; the first time, `load(request, device)`
    gives the LoadedKernelSet of `request`."""
    plan = plans.get(key)
    if plan is None:
        with _lock:
            plan = plans.get(key)
            if plan is None:
                plan = Plan(load(request, device), request, device)
                plans[key] = plan
    return plan


_Tensor = torch.Tensor


def run(plan: Plan, inputs, broadcasts, scalars, poison: bool,
        rows_out=None, discard=(), per_row_out=None):
    """Launches `plan` on contiguous, aligned tensors, or returns None when
    a tensor is not one the plan takes as it is. Outputs in the op's order:
    row outputs shaped like the first input, per-row outputs shaped like
    its leading dimensions, column sums [blocks, N]. `rows_out` gives the
    row outputs instead (tensors shaped like the first input, contiguous
    and aligned; an input itself is fine: each element is written by the
    thread that read it, after it read it). Per-row outputs whose indices
    are in `discard` are written to the plan's scratch and come back as
    None; `per_row_out` gives all per-row outputs instead (f32 tensors of M
    elements each, contiguous: rows of one buffer a collective sends)."""
    native = plan.native
    if native is None:
        native = plan.native_plan()
    if native and rows_out is None and per_row_out is None:
        # The C++ path checks and launches; a plain tensor first.
        for tensor in inputs:
            if tensor.__class__ is not _Tensor:
                return None
        if plan.single and len(inputs) == 1 and not broadcasts and \
                not scalars:
            output = _native.MODULE.run_one(native, inputs[0], poison)
            return None if output is None else [output]
        return _native.MODULE.run(native, inputs, broadcasts, scalars,
                                  _mask(discard), poison)
    # Checks and arguments in one pass: every tensor is a plain tensor on
    # the plan's device, contiguous, aligned, of the shape and dtype the
    # kernel takes.
    x = inputs[0]
    device = plan.device
    shape = x.shape
    dtype = x.dtype
    alignment = plan.alignment
    n = shape[-1]
    args = []
    append = args.append
    for tensor in inputs:
        if (tensor.__class__ is not _Tensor or tensor.dtype is not dtype or
                tensor.shape != shape or tensor.get_device() != device or
                not tensor.is_contiguous()):
            return None
        pointer = tensor.data_ptr()
        if pointer % alignment:
            return None
        append(pointer)
        append(n)
    for tensor in broadcasts:
        if (tensor.dtype is not dtype or tensor.shape != (n,) or
                tensor.get_device() != device or not tensor.is_contiguous()):
            return None
        pointer = tensor.data_ptr()
        if pointer % alignment:
            return None
        append(pointer)
    m = x.numel() // n
    for tensor, expected in zip(scalars, plan.scalar_dtypes):
        if (tensor.dtype is not expected or tensor.numel() != m or
                tensor.get_device() != device or not tensor.is_contiguous()):
            return None
        append(tensor.data_ptr())

    if per_row_out is not None:
        if len(per_row_out) != plan.scalar_outputs:
            return None
        for tensor in per_row_out:
            if (tensor.dtype is not torch.float32 or tensor.numel() != m or
                    tensor.get_device() != device or
                    not tensor.is_contiguous()):
                return None
    if poison:
        return _run_poisoned(plan, x, args, m, rows_out, per_row_out)
    if rows_out is None:
        rows = [torch.empty_like(x, dtype=out) for out in plan.outputs]
    else:
        rows = list(rows_out)
        for tensor, out in zip(rows, plan.outputs):
            if (tensor.dtype is not out or tensor.shape != shape or
                    tensor.get_device() != device or
                    not tensor.is_contiguous() or
                    tensor.data_ptr() % alignment):
                return None
    for tensor in rows:
        append(tensor.data_ptr())
        append(n)
    outputs = rows
    if per_row_out is not None:
        for tensor in per_row_out:
            append(tensor.data_ptr())
            outputs.append(tensor)
    elif plan.scalar_outputs:
        per_row = shape[:-1]
        for index in range(plan.scalar_outputs):
            if index in discard:
                append(plan.scratch_for(index, m, x).data_ptr())
                outputs.append(None)
                continue
            tensor = x.new_empty(per_row, dtype=torch.float32)
            append(tensor.data_ptr())
            outputs.append(tensor)
    for _ in range(plan.column_sums):
        tensor = x.new_empty((plan.blocks, n), dtype=torch.float32)
        append(tensor.data_ptr())
        outputs.append(tensor)
    _launch(plan, args, m)
    return outputs


_MASKS = {(): 0, (0,): 1, (0, 1): 3}


def _mask(discard) -> int:
    """`discard`'s indices as the C++ path's bit mask."""
    mask = _MASKS.get(discard)
    if mask is None:
        mask = 0
        for index in discard:
            mask |= 1 << index
    return mask


def _launch(plan: Plan, args: list, m: int) -> None:
    kernels = plan.kernels
    kernel = kernels[0]
    if len(kernels) > 1:
        kernel = plan.kernel(m)
    stream = _current_stream(plan.device)
    if plan.python:
        kernel.loaded.launch(args, m, stream, plan.blocks)
    else:
        if kernel.split:
            args += kernel.loaded.split_args(m, stream)
        if len(args) != kernel.params:
            raise RuntimeError(f"{kernel.loaded.manifest.name}: {len(args)} "
                               f"arguments for {kernel.params} parameters")
        launch = (kernel.function, kernel.block, kernel.cluster,
                  kernel.shared, kernel.policy, kernel.group, kernel.active,
                  kernel.switch_share, plan.blocks, stream, m, tuple(args),
                  kernel.dependent)
        try:
            _fastlaunch.launch(*launch)
        except RuntimeError:
            # No context on this thread (the C launcher checks): bind the
            # kernel's and launch again.
            if not bind_primary_context(kernel.loaded.device_ordinal):
                raise
            _fastlaunch.launch(*launch)


def _run_poisoned(plan: Plan, x, args: list, m: int, rows_out,
                  per_row_out=None):
    """run() with outputs filled with NaN (int8: -128) first, for tests."""
    shape, n = x.shape, x.shape[-1]
    rows = list(rows_out) if rows_out is not None else \
        [_empty(shape, out, x.device, True) for out in plan.outputs]
    if per_row_out is not None:
        per_row = list(per_row_out)
        for tensor in per_row:
            tensor.fill_(float("nan"))
    else:
        per_row = [_empty(shape[:-1], torch.float32, x.device, True)
                   for _ in range(plan.scalar_outputs)]
    sums = [_empty((plan.blocks, n), torch.float32, x.device, True)
            for _ in range(plan.column_sums)]
    for tensor in rows:
        args += (tensor.data_ptr(), n)
    args += [t.data_ptr() for t in per_row + sums]
    _launch(plan, args, m)
    return rows + per_row + sums


def _empty(shape, dtype, device, poison: bool):
    if not poison:
        return torch.empty(shape, dtype=dtype, device=device)
    fill = float("nan") if dtype.is_floating_point else -128
    return torch.full(shape, fill, dtype=dtype, device=device)
