"""PyTorch functions backed by CREDIT kernels.

Every workload of DESIGN.md is a torch.library custom op (`credit::<name>`)
with a fake implementation, so it works under torch.compile. softmax,
rms_norm, layer_norm and cross_entropy have autograd through the backward
workloads. Kernels come from a prebuilt library ($CREDIT_ARTIFACTS, a
colon-separated list of directories) or from credit-opt on demand.
"""

from __future__ import annotations

import os
import threading

import torch

from . import fastpath, native, validation
from .compiler import CompileError, Compiler, Library, Request
from .launcher import DeviceError, LoadedKernelSet, require_hopper
from .manifest import ManifestError
from .validation import ArgumentError, TensorSpec
from .workloads import KERNELS

_DTYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16",
           torch.int8: "i8", torch.int32: "i32", torch.int64: "i64"}
_TORCH_DTYPES = {name: dtype for dtype, name in _DTYPES.items()}


def _spec(name: str, tensor: torch.Tensor) -> TensorSpec:
    if not isinstance(tensor, torch.Tensor):
        raise ArgumentError(f"{name} must be a torch.Tensor, got "
                            f"{type(tensor).__name__}")
    return TensorSpec(name, tuple(tensor.shape),
                      _DTYPES.get(tensor.dtype, str(tensor.dtype)),
                      tensor.device.type, tuple(tensor.stride()),
                      tensor.device.index)


class Runtime:
    """Finds, loads and caches kernels."""

    def __init__(self):
        self.libraries = [Library(path) for path in
                          os.environ.get("CREDIT_ARTIFACTS", "").split(":")
                          if path]
        self.compiler = Compiler()
        self._loaded: dict[tuple[Request, int], LoadedKernelSet] = {}
        self._lock = threading.Lock()

    def add_library(self, directory) -> None:
        self.libraries.insert(0, Library(directory))

    def kernel(self, request: Request,
               device: torch.device) -> LoadedKernelSet:
        index = device.index if device.index is not None else \
            torch.cuda.current_device()
        key = (request, index)
        with self._lock:
            if key not in self._loaded:
                major, minor = torch.cuda.get_device_capability(index)
                require_hopper(major, minor, torch.cuda.get_device_name(index))
                kernels = None
                for library in self.libraries:
                    if request in library:
                        kernels = library.get(request)
                        break
                if kernels is None:
                    if not self.compiler.available:
                        raise ManifestError(
                            f"no kernel for {request} in the libraries "
                            f"({', '.join(str(l.directory) for l in self.libraries) or 'none'}) "
                            f"and none can be compiled: "
                            f"{self.compiler.unavailable}")
                    kernels = self.compiler.compile(request)
                # Loading needs the device's primary context current.
                with torch.cuda.device(index):
                    torch.cuda.synchronize(index)
                    self._loaded[key] = LoadedKernelSet(kernels, index)
            return self._loaded[key]


_runtime: Runtime | None = None


def runtime() -> Runtime:
    global _runtime
    if _runtime is None:
        _runtime = Runtime()
    return _runtime


def load_library(directory) -> None:
    """Uses the kernels of a prebuilt library directory first."""
    runtime().add_library(directory)


#: Fill outputs with NaN (int8: -128) before each launch, so that tests see
#: every element a kernel fails to write.
poison_outputs = False

class _Forced(threading.local):
    """The cluster size and tiling forced in this thread, one attribute so
    that each call reads it once."""

    state: tuple[int, str | None] = (0, None)


_forced = _Forced()


class cluster_size:
    """Forces the cluster size (1, 2, 4, 8, 16) of the kernels launched in
    a `with` block; 0 restores the compiler's choice."""

    def __init__(self, size: int):
        if size not in (0, 1, 2, 4, 8, 16):
            raise ArgumentError(f"cluster size must be 0, 1, 2, 4, 8 or 16, "
                                f"got {size}")
        self.size = size

    def __enter__(self):
        self.previous = _forced.state
        _forced.state = (self.size, self.previous[1])
        return self

    def __exit__(self, *exc):
        _forced.state = self.previous


class force_tiling:
    """Launches the kernels of a `with` block with one tiling, a
    `#credit.tiling<...>` attribute as text, instead of the cost model's
    choice (for experiments and for measuring every candidate); None
    restores the model's choice."""

    def __init__(self, tiling: str | None):
        self.tiling = tiling

    def __enter__(self):
        self.previous = _forced.state
        _forced.state = (self.previous[0], self.tiling)
        return self

    def __exit__(self, *exc):
        _forced.state = self.previous


def empty_output(shape, dtype, device) -> torch.Tensor:
    """An uninitialized output tensor; NaN (int8: -128) when
    `poison_outputs` is set. The benchmark's peers (credit.peers) use it
    too, so the GPU tests poison their outputs alike."""
    if not poison_outputs:
        return torch.empty(shape, dtype=dtype, device=device)
    fill = float("nan") if dtype.is_floating_point else -128
    return torch.full(shape, fill, dtype=dtype, device=device)


def _aligned(tensor: torch.Tensor, alignment: int, multiple: int) -> bool:
    return (tensor.data_ptr() % alignment == 0 and
            (tensor.dim() < 2 or tensor.stride(0) % multiple == 0) and
            tensor.stride(-1) == 1)


def _as_rows(tensor: torch.Tensor, n: int) -> torch.Tensor:
    """A [M, N] view with unit inner stride, copying only when needed."""
    if tensor.stride(-1) != 1:
        tensor = tensor.contiguous()
    try:
        return tensor.view(-1, n)
    except RuntimeError:
        return tensor.reshape(-1, n).contiguous()


def _call_key(name: str, first: torch.Tensor, eps, blocks: int) -> tuple:
    """The key of a call's plan (fastpath.plans)."""
    return (name, first.dtype, first.shape[-1], eps, blocks, _forced.state,
            first.get_device())


def _plan(name: str, first: torch.Tensor, eps, blocks: int) -> fastpath.Plan:
    key = _call_key(name, first, eps, blocks)
    plan = fastpath.plans.get(key)
    if plan is not None:
        return plan
    _, _, n, _, _, (cluster, tiling), device = key
    try:
        request = Request(name, _DTYPES[first.dtype], n,
                          0 if tiling else cluster, eps, blocks, tiling)
    except ValueError as error:
        raise ArgumentError(str(error)) from error
    return fastpath.plan_for(
        key, request, device,
        lambda r, d: runtime().kernel(r, torch.device("cuda", d)))


def _fast(name: str, inputs: list[torch.Tensor],
          broadcasts: list[torch.Tensor], scalars: list[torch.Tensor],
          eps: float | None = None, blocks: int = 64, discard=()):
    """The outputs of workload `name` through the plan of an earlier call,
    or None: no plan yet, or tensors the plan does not take as they are
    (the checked path then copies or explains). Per-row outputs in
    `discard` are not kept (None)."""
    first = inputs[0]
    if first.__class__ is not torch.Tensor or not first.is_cuda or \
            not first.dim():
        return None
    plan = fastpath.plans.get((name, first.dtype, first.shape[-1], eps,
                               blocks, _forced.state, first.get_device()))
    if plan is None:
        return None
    return fastpath.run(plan, inputs, broadcasts, scalars, poison_outputs,
                        discard=discard)


def _eager_fast(name: str, inputs, broadcasts=(), scalars=(), eps=None,
                discard=()):
    """_fast for a public function's call outside torch.compile with
    nothing for autograd to record, else None (the custom op then runs)."""
    if _is_compiling() or _records_grad(*inputs, *broadcasts):
        return None
    return _fast(name, inputs, broadcasts, scalars, eps, discard=discard)


_is_compiling = torch.compiler.is_compiling
_grad_enabled = torch.is_grad_enabled


def _records_grad(*tensors: torch.Tensor) -> bool:
    """Whether autograd records a call on `tensors`."""
    if _grad_enabled():
        for tensor in tensors:
            if tensor.requires_grad:
                return True
    return False


def _launch(name: str, inputs: list[torch.Tensor],
            broadcasts: list[torch.Tensor], scalars: list[torch.Tensor],
            eps: float | None = None,
            blocks: int | None = None) -> list[torch.Tensor]:
    """Runs workload `name` on checked arguments; returns its outputs in the
    op's order: row outputs [M, N], scalar outputs [M], column sums
    [blocks, N]."""
    blocks = blocks if blocks is not None else 64
    first = inputs[0]
    plan = _plan(name, first, eps, blocks)
    outputs = fastpath.run(plan, inputs, broadcasts, scalars, poison_outputs)
    if outputs is not None:
        return outputs

    # Tensors the plan does not take as they are: strided, misaligned or
    # not contiguous ones are viewed or copied into rows it takes.
    workload = KERNELS[name]
    n = first.shape[-1]
    m = first.numel() // n if n else 0
    storage = _DTYPES[first.dtype]
    device = first.device

    def prepare(tensor, rows):
        tensor = _as_rows(tensor, n) if rows else tensor.reshape(-1)
        if not _aligned(tensor, plan.alignment, plan.multiple):
            tensor = tensor.contiguous().clone()
        return tensor

    rows_in = [prepare(t, True) for t in inputs]
    vectors = [prepare(t, False) for t in broadcasts]
    per_row = [t.reshape(-1).contiguous() for t in scalars]
    outputs = [empty_output((m, n), _TORCH_DTYPES[workload.output_dtype(i, storage)],
                      device) for i in range(len(workload.outputs))]
    scalar_outputs = [empty_output((m,), torch.float32, device)
                      for _ in workload.scalar_outputs]
    column_sums = [empty_output((blocks, n), torch.float32, device)
                   for _ in workload.column_sums]

    args = []
    for tensor in rows_in:
        args += [tensor.data_ptr(), tensor.stride(0)]
    args += [t.data_ptr() for t in vectors + per_row]
    for tensor in outputs:
        args += [tensor.data_ptr(), tensor.stride(0)]
    args += [t.data_ptr() for t in scalar_outputs + column_sums]
    with torch.cuda.device(device):
        plan.kernel(m).loaded.launch(
            args, m, torch.cuda.current_stream(device).cuda_stream, blocks)
    return outputs + scalar_outputs + column_sums


def _run(name: str, check, inputs: list[torch.Tensor],
         broadcasts: list[torch.Tensor] = (), scalars: list[torch.Tensor] = (),
         eps: float | None = None) -> list[torch.Tensor]:
    """Workload `name`'s outputs: through the call's plan when its tensors
    fit it, else after `check()` (which raises on bad arguments) on the
    general path."""
    outputs = _fast(name, inputs, broadcasts, scalars, eps)
    if outputs is None:
        check()
        outputs = _launch(name, list(inputs), list(broadcasts),
                          list(scalars), eps)
    return outputs


def _check_rows_inputs(names: list[str], tensors: list[torch.Tensor],
                       vectors: list[tuple[str, torch.Tensor]] = (),
                       scalars: list[tuple[str, torch.Tensor,
                                           tuple[str, ...]]] = ()):
    specs = [_spec(n, t) for n, t in zip(names, tensors)]
    others = [_spec(n, t) for n, t in vectors]
    per_row = [_spec(n, t) for n, t, _ in scalars]
    validation.check_device(specs + others + per_row)
    m, n = validation.check_rows(specs[0])
    for spec in specs[1:]:
        validation.check_same_rows(specs[0], spec)
    for spec in others:
        validation.check_vector(spec, n, specs[0].dtype)
    for spec, (_, _, dtypes) in zip(per_row, scalars):
        validation.check_per_row(spec, m, dtypes)
    return m, n


def _rows_like(x: torch.Tensor, *, dtype=None) -> torch.Tensor:
    return torch.empty(x.shape, dtype=dtype or x.dtype, device=x.device)


def _per_row(x: torch.Tensor) -> torch.Tensor:
    return torch.empty(x.shape[:-1], dtype=torch.float32, device=x.device)


# --------------------------------------------------------------------------
# Custom ops: one per workload.
# --------------------------------------------------------------------------

def _softmax_impl(x: torch.Tensor) -> torch.Tensor:
    (y,) = _run("softmax", lambda: _check_rows_inputs(["x"], [x]), [x])
    return y.view(x.shape)


_softmax = torch.library.custom_op("credit::softmax", mutates_args=())(
    _softmax_impl)


@_softmax.register_fake
def _(x):
    return _rows_like(x)


@torch.library.custom_op("credit::log_softmax", mutates_args=())
def _log_softmax(x: torch.Tensor) -> torch.Tensor:
    (y,) = _run("log_softmax", lambda: _check_rows_inputs(["x"], [x]), [x])
    return y.view(x.shape)


@_log_softmax.register_fake
def _(x):
    return _rows_like(x)


@torch.library.custom_op("credit::softmax_logits_bwd", mutates_args=())
def _softmax_logits_bwd(logits: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    (dx,) = _run("softmax_logits_bwd",
                 lambda: _check_rows_inputs(["logits", "dy"], [logits, dy]),
                 [logits, dy])
    return dx.view(logits.shape)


@_softmax_logits_bwd.register_fake
def _(logits, dy):
    return _rows_like(logits)


def _layernorm_impl(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor,
               eps: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    y, mean, rstd = _run(
        "layernorm",
        lambda: _check_rows_inputs(["x"], [x], [("weight", gamma),
                                                ("bias", beta)]),
        [x], [gamma, beta], eps=eps)
    return y.view(x.shape), mean.view(x.shape[:-1]), rstd.view(x.shape[:-1])


_layernorm = torch.library.custom_op("credit::layernorm", mutates_args=())(
    _layernorm_impl)


@_layernorm.register_fake
def _(x, gamma, beta, eps):
    return _rows_like(x), _per_row(x), _per_row(x)


@torch.library.custom_op("credit::layernorm_bwd", mutates_args=())
def _layernorm_bwd(x: torch.Tensor, dy: torch.Tensor, gamma: torch.Tensor,
                   eps: float) -> torch.Tensor:
    (dx,) = _run("layernorm_bwd",
                 lambda: _check_rows_inputs(["x", "dy"], [x, dy],
                                            [("gamma", gamma)]),
                 [x, dy], [gamma], eps=eps)
    return dx.view(x.shape)


@_layernorm_bwd.register_fake
def _(x, dy, gamma, eps):
    return _rows_like(x)


def _rmsnorm_impl(x: torch.Tensor, w: torch.Tensor,
             eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    y, rstd = _run("rmsnorm",
                   lambda: _check_rows_inputs(["x"], [x], [("weight", w)]),
                   [x], [w], eps=eps)
    return y.view(x.shape), rstd.view(x.shape[:-1])


_rmsnorm = torch.library.custom_op("credit::rmsnorm", mutates_args=())(
    _rmsnorm_impl)


@_rmsnorm.register_fake
def _(x, w, eps):
    return _rows_like(x), _per_row(x)


@torch.library.custom_op("credit::rmsnorm_bwd", mutates_args=())
def _rmsnorm_bwd(x: torch.Tensor, dy: torch.Tensor, w: torch.Tensor,
                 rstd: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    dx, dw_partial = _run(
        "rmsnorm_bwd",
        lambda: _check_rows_inputs(["x", "dy"], [x, dy], [("weight", w)],
                                   [("rstd", rstd, ("f32",))]),
        [x, dy], [w], [rstd])
    return dx.view(x.shape), dw_partial


@_rmsnorm_bwd.register_fake
def _(x, dy, w, rstd):
    return (_rows_like(x),
            torch.empty((64, x.shape[-1]), dtype=torch.float32,
                        device=x.device))


def _cross_entropy_impl(logits: torch.Tensor,
                   target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    dlogits, loss = _run(
        "cross_entropy",
        lambda: _check_rows_inputs(["logits"], [logits],
                                   scalars=[("target", target, ("i64",))]),
        [logits], [], [target])
    return loss.view(logits.shape[:-1]), dlogits.view(logits.shape)


_cross_entropy = torch.library.custom_op("credit::cross_entropy", mutates_args=())(
    _cross_entropy_impl)


@_cross_entropy.register_fake
def _(logits, target):
    return _per_row(logits), _rows_like(logits)


@torch.library.custom_op("credit::l2_normalize", mutates_args=())
def _l2_normalize(x: torch.Tensor, eps: float) -> torch.Tensor:
    (y,) = _run("l2_normalize", lambda: _check_rows_inputs(["x"], [x]), [x],
                eps=eps)
    return y.view(x.shape)


@_l2_normalize.register_fake
def _(x, eps):
    return _rows_like(x)


@torch.library.custom_op("credit::weighted_var_bwd", mutates_args=())
def _weighted_var_bwd(x: torch.Tensor, w: torch.Tensor,
                      dy: torch.Tensor) -> torch.Tensor:
    (dx,) = _run("weighted_var_bwd",
                 lambda: _check_rows_inputs(["x", "w", "dy"], [x, w, dy]),
                 [x, w, dy])
    return dx.view(x.shape)


@_weighted_var_bwd.register_fake
def _(x, w, dy):
    return _rows_like(x)


@torch.library.custom_op("credit::pearson_bwd", mutates_args=())
def _pearson_bwd(x: torch.Tensor, y: torch.Tensor,
                 g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    dx, dy = _run("pearson_bwd",
                  lambda: _check_rows_inputs(["x", "y"], [x, y],
                                             scalars=[("g", g, ("f32",))]),
                  [x, y], [], [g])
    return dx.view(x.shape), dy.view(x.shape)


@_pearson_bwd.register_fake
def _(x, y, g):
    return _rows_like(x), _rows_like(x)


@torch.library.custom_op("credit::lars_momentum", mutates_args=())
def _lars_momentum(w: torch.Tensor, grad: torch.Tensor,
                   m: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    w_new, u = _run("lars_momentum",
                    lambda: _check_rows_inputs(["w", "grad", "m"],
                                               [w, grad, m]),
                    [w, grad, m])
    return w_new.view(w.shape), u.view(w.shape)


@_lars_momentum.register_fake
def _(w, grad, m):
    return _rows_like(w), _rows_like(w)


@torch.library.custom_op("credit::rowwise_quant", mutates_args=())
def _rowwise_quant(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    q, scale = _run("rowwise_quant", lambda: _check_rows_inputs(["x"], [x]),
                    [x])
    return q.view(x.shape), scale.view(x.shape[:-1])


@_rowwise_quant.register_fake
def _(x):
    return _rows_like(x, dtype=torch.int8), _per_row(x)


# --------------------------------------------------------------------------
# Autograd for the forward ops that have a backward workload.
# --------------------------------------------------------------------------

def _softmax_setup(ctx, inputs, output):
    (ctx.x,) = inputs
    ctx.save_for_backward(inputs[0])


def _softmax_backward(ctx, dy):
    (x,) = ctx.saved_tensors
    return _softmax_logits_bwd(x, dy.contiguous())


torch.library.register_autograd("credit::softmax", _softmax_backward,
                                setup_context=_softmax_setup)


def _rmsnorm_setup(ctx, inputs, output):
    x, w, _ = inputs
    _, rstd = output
    ctx.save_for_backward(x, w, rstd)


def _rmsnorm_backward(ctx, dy, _drstd):
    x, w, rstd = ctx.saved_tensors
    dx, dw_partial = _rmsnorm_bwd(x, dy.contiguous(), w, rstd)
    return dx, dw_partial.sum(0).to(w.dtype), None


torch.library.register_autograd("credit::rmsnorm", _rmsnorm_backward,
                                setup_context=_rmsnorm_setup)


def _layernorm_setup(ctx, inputs, output):
    x, gamma, beta, eps = inputs
    _, mean, rstd = output
    ctx.eps = eps
    ctx.save_for_backward(x, gamma, beta, mean, rstd)


def _layernorm_backward(ctx, dy, _dmean, _drstd):
    x, gamma, beta, mean, rstd = ctx.saved_tensors
    dy = dy.contiguous()
    dx = _layernorm_bwd(x, dy, gamma, ctx.eps)
    mask = [False, ctx.needs_input_grad[1], ctx.needs_input_grad[2]]
    dgamma, dbeta = _layernorm_parameter_grads(
        x, dy, gamma, beta, mean, rstd, mask) if any(mask) else (None, None)
    return dx, dgamma, dbeta, None


def _layernorm_parameter_grads(x, dy, gamma, beta, mean, rstd, mask):
    """(dgamma, dbeta) of layer_norm where `mask` asks for them, from the
    forward's float32 mean and rstd: on the GPU PyTorch's own kernel (one
    launch, as the C++ path does; it makes dbeta like `beta`), the column
    sums written out for CPU tensors."""
    if x.is_cuda:
        _, dgamma, dbeta = torch.ops.aten.native_layer_norm_backward(
            dy, x.contiguous(), [x.shape[-1]], mean, rstd, gamma, beta, mask)
        return dgamma, dbeta
    n = x.shape[-1]
    dyf = dy.float().reshape(-1, n)
    dgamma = dbeta = None
    if mask[1]:
        xhat = (x.float() - mean.unsqueeze(-1)) * rstd.unsqueeze(-1)
        dgamma = (dyf * xhat.reshape(-1, n)).sum(0).to(gamma.dtype)
    if mask[2]:
        dbeta = dyf.sum(0).to(gamma.dtype)
    return dgamma, dbeta


torch.library.register_autograd("credit::layernorm", _layernorm_backward,
                                setup_context=_layernorm_setup)


def _cross_entropy_setup(ctx, inputs, output):
    _, dlogits = output
    ctx.save_for_backward(dlogits)


def scale_rows(rows: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """rows * scale[..., None], computed in float32 and written in rows'
    dtype, into a new tensor (`rows` may be saved for another backward):
    the row_scale kernel (one read and one write; torch's mixed-dtype
    multiply takes 3.5x as long on an H200), torch for CPU tensors."""
    if not rows.is_cuda:
        return torch.mul(rows, scale.unsqueeze(-1).float(),
                         out=torch.empty_like(rows))
    scale = scale.expand(rows.shape[:-1]).reshape(-1).float().contiguous()
    (y,) = _run("row_scale",
                lambda: _check_rows_inputs(
                    ["rows"], [rows], scalars=[("scale", scale, ("f32",))]),
                [rows], [], [scale])
    return y.view(rows.shape)


def _cross_entropy_backward(ctx, dloss, _ddlogits):
    (dlogits,) = ctx.saved_tensors
    return scale_rows(dlogits, dloss), None


torch.library.register_autograd("credit::cross_entropy",
                                _cross_entropy_backward,
                                setup_context=_cross_entropy_setup)


# With the C++ call path (native.py) a forward with autograd records a C++
# node whose backward launches the backward workload's plan: the backward
# plan of each forward below (cross_entropy's gradient is scaled by
# row_scale), with the eps the backward takes.
_BACKWARDS = {"softmax": ("softmax_logits_bwd", False),
              "rmsnorm": ("rmsnorm_bwd", False),
              "layernorm": ("layernorm_bwd", True),
              "cross_entropy": ("row_scale", False)}
_grad_plans: dict[tuple, tuple] = {}


def _native_grad(name: str, first: torch.Tensor, eps=None):
    """The C++ (forward, backward) plans of a call of `name` with
    autograd, or None where the C++ path does not run: not loaded yet, a
    forced tiling (it names one workload's tiling), not a plain CUDA
    tensor, or no call of the request yet. The first call takes the
    checked Python path, which plans the forward (or explains what is
    wrong with the arguments); the next one plans the backward (compiling
    it if needed) and records the pair."""
    key = _call_key(name, first, eps, 64)
    plans = _grad_plans.get(key)
    if plans is not None:
        return plans
    forward_plan = fastpath.plans.get(key)
    if forward_plan is None or first.__class__ is not torch.Tensor or \
            not first.is_cuda or _forced.state[1] is not None:
        return None
    backward, with_eps = _BACKWARDS[name]
    backward_plan = _plan(backward, first, eps if with_eps else None, 64)
    pair = (forward_plan.native_plan(), backward_plan.native_plan())
    if None in pair:
        return None
    _grad_plans[key] = pair
    return pair


# The same forwards, context and backwards as autograd.Functions: the
# eager path with autograd where the C++ path does not run, without the
# custom op's dispatch.
def _function(name: str, impl, setup, backward):
    return type(name, (torch.autograd.Function,), {
        "forward": staticmethod(impl), "setup_context": staticmethod(setup),
        "backward": staticmethod(backward)})


_SoftmaxFunction = _function("_SoftmaxFunction", _softmax_impl,
                             _softmax_setup, _softmax_backward)
_RMSNormFunction = _function("_RMSNormFunction", _rmsnorm_impl,
                             _rmsnorm_setup, _rmsnorm_backward)
_LayerNormFunction = _function("_LayerNormFunction", _layernorm_impl,
                               _layernorm_setup, _layernorm_backward)
_CrossEntropyFunction = _function("_CrossEntropyFunction",
                                  _cross_entropy_impl, _cross_entropy_setup,
                                  _cross_entropy_backward)


# --------------------------------------------------------------------------
# Public functions, with PyTorch's signatures where there is one.
# --------------------------------------------------------------------------

def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """torch.softmax(x, dim=-1)."""
    if dim != -1:
        validation.check_last_dim(dim, x.dim(), "softmax")
    if not _is_compiling():
        if _grad_enabled() and x.requires_grad:
            plans = _native_grad("softmax", x)
            y = None if plans is None else native.MODULE.softmax(
                *plans, x, poison_outputs)
            return y if y is not None else _SoftmaxFunction.apply(x)
        outputs = _fast("softmax", (x,), (), ())
        if outputs is not None:
            return outputs[0]
    return _softmax(x)


def log_softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """torch.log_softmax(x, dim=-1)."""
    if dim != -1:
        validation.check_last_dim(dim, x.dim(), "log_softmax")
    if not _is_compiling() and not (_grad_enabled() and x.requires_grad):
        outputs = _fast("log_softmax", (x,), (), ())
        if outputs is not None:
            return outputs[0]
    return _log_softmax(x)


def softmax_backward(logits: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    """Gradient of softmax(logits) for upstream gradient dy:
    p * (dy - sum(p * dy))."""
    outputs = _eager_fast("softmax_logits_bwd", (logits, dy))
    if outputs is not None:
        return outputs[0]
    return _softmax_logits_bwd(logits, dy)


softmax_logits_bwd = softmax_backward


def layer_norm(x: torch.Tensor, normalized_shape, weight=None, bias=None,
               eps: float = 1e-5) -> torch.Tensor:
    """F.layer_norm over the last dimension."""
    n = x.shape[-1]
    shape = tuple(normalized_shape) if not isinstance(normalized_shape, int) \
        else (normalized_shape,)
    if shape != (n,):
        raise ArgumentError(f"layer_norm: normalized_shape must be ({n},), "
                            f"the last dimension, got {list(shape)}")
    if weight is None:
        weight = torch.ones(n, dtype=x.dtype, device=x.device)
    if bias is None:
        bias = torch.zeros(n, dtype=x.dtype, device=x.device)
    eps = float(eps)
    if not _is_compiling():
        if _records_grad(x, weight, bias):
            plans = _native_grad("layernorm", x, eps)
            y = None if plans is None else \
                native.MODULE.layer_norm(*plans, x, weight, bias,
                                          poison_outputs)
            return y if y is not None else \
                _LayerNormFunction.apply(x, weight, bias, eps)[0]
        outputs = _fast("layernorm", (x,), (weight, bias), (), eps,
                        discard=(0, 1))
        if outputs is not None:
            return outputs[0]
    y, _, _ = _layernorm(x, weight, bias, eps)
    return y


def layer_norm_with_stats(x, weight, bias, eps: float = 1e-5):
    """layer_norm that also returns the per-row mean and rstd."""
    eps = float(eps)
    outputs = _eager_fast("layernorm", (x,), (weight, bias), (), eps)
    if outputs is not None:
        return tuple(outputs)
    return _layernorm(x, weight, bias, eps)


def layernorm_bwd(x, dy, gamma, eps: float = 1e-5) -> torch.Tensor:
    """dx of F.layer_norm(x, (N,), gamma, None, eps) for upstream dy."""
    eps = float(eps)
    outputs = _eager_fast("layernorm_bwd", (x, dy), (gamma,), (), eps)
    if outputs is not None:
        return outputs[0]
    return _layernorm_bwd(x, dy, gamma, eps)


def rms_norm(x: torch.Tensor, weight: torch.Tensor,
             eps: float = 1e-6) -> torch.Tensor:
    """F.rms_norm(x, (N,), weight, eps)."""
    eps = float(eps)
    if not _is_compiling():
        if _records_grad(x, weight):
            plans = _native_grad("rmsnorm", x, eps)
            y = None if plans is None else \
                native.MODULE.rms_norm(*plans, x, weight, poison_outputs)
            return y if y is not None else \
                _RMSNormFunction.apply(x, weight, eps)[0]
        outputs = _fast("rmsnorm", (x,), (weight,), (), eps, discard=(0,))
        if outputs is not None:
            return outputs[0]
    y, _ = _rmsnorm(x, weight, eps)
    return y


def rms_norm_with_rstd(x, weight, eps: float = 1e-6):
    """rms_norm that also returns rstd = rsqrt(mean(x^2) + eps) per row."""
    eps = float(eps)
    outputs = _eager_fast("rmsnorm", (x,), (weight,), (), eps)
    if outputs is not None:
        return tuple(outputs)
    return _rmsnorm(x, weight, eps)


def rmsnorm_bwd(x, dy, weight, rstd):
    """(dx, dweight) of rms_norm, given the forward's rstd."""
    outputs = _eager_fast("rmsnorm_bwd", (x, dy), (weight,), (rstd,))
    dx, dw_partial = outputs if outputs is not None else \
        _rmsnorm_bwd(x, dy, weight, rstd)
    return dx, dw_partial.sum(0).to(weight.dtype)


def cross_entropy(logits: torch.Tensor, target: torch.Tensor,
                  ignore_index: int = -100,
                  reduction: str = "mean") -> torch.Tensor:
    """F.cross_entropy(logits, target, ignore_index=-100, reduction=...),
    with the gradient computed in the same pass as the loss."""
    check_loss_options(ignore_index, reduction)
    if isinstance(target, torch.Tensor) and target.dtype != torch.int64:
        raise ArgumentError(f"target has dtype {target.dtype}, expected "
                            "torch.int64")
    loss = None
    if not _is_compiling():
        if _records_grad(logits):
            plans = _native_grad("cross_entropy", logits)
            if plans is not None:
                loss = native.MODULE.cross_entropy(*plans, logits, target,
                                                   poison_outputs)
            if loss is None:
                loss = _CrossEntropyFunction.apply(logits, target)[0]
        else:
            outputs = _fast("cross_entropy", (logits,), (), (target,))
            if outputs is not None:
                loss = outputs[1]
    if loss is None:
        loss = _cross_entropy(logits, target)[0]
    return reduce_loss(loss, target, reduction)


def check_loss_options(ignore_index: int, reduction: str) -> None:
    """cross_entropy's options that the kernels support."""
    if ignore_index != -100:
        raise ArgumentError("cross_entropy: only ignore_index=-100 is "
                            "supported")
    if reduction not in ("mean", "sum", "none"):
        raise ArgumentError(f"cross_entropy: unknown reduction {reduction!r}")


def reduce_loss(loss: torch.Tensor, target: torch.Tensor,
                reduction: str) -> torch.Tensor:
    """Per-row losses reduced as F.cross_entropy does: the mean is over
    the rows whose target is not ignored."""
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / (target != -100).sum()


def normalize(x: torch.Tensor, p: float = 2.0, dim: int = -1,
              eps: float = 1e-12) -> torch.Tensor:
    """F.normalize(x, p=2, dim=-1, eps)."""
    if p != 2.0:
        raise ArgumentError("normalize: only p=2 is supported")
    if dim != -1:
        validation.check_last_dim(dim, x.dim(), "normalize")
    eps = float(eps)
    if not _is_compiling() and not _records_grad(x):
        outputs = _fast("l2_normalize", (x,), (), (), eps)
        if outputs is not None:
            return outputs[0]
    return _l2_normalize(x, eps)


l2_normalize = normalize


def weighted_var_bwd(x, w, dy):
    """The paper's weighted-variance backward (DESIGN.md workload 2)."""
    outputs = _eager_fast("weighted_var_bwd", (x, w, dy))
    if outputs is not None:
        return outputs[0]
    return _weighted_var_bwd(x, w, dy)


def pearson_bwd(x, y, g):
    """(dx, dy) of the per-row Pearson correlation for upstream g [M]."""
    outputs = _eager_fast("pearson_bwd", (x, y), (), (g,))
    if outputs is not None:
        return tuple(outputs)
    return _pearson_bwd(x, y, g)


def lars_momentum(w, grad, m):
    """(w_new, u) of the LARS momentum update (DESIGN.md workload 5)."""
    outputs = _eager_fast("lars_momentum", (w, grad, m))
    if outputs is not None:
        return tuple(outputs)
    return _lars_momentum(w, grad, m)


def rowwise_quant(x):
    """(q int8, scale [M] f32) of symmetric per-row int8 quantization."""
    outputs = _eager_fast("rowwise_quant", (x,))
    if outputs is not None:
        return tuple(outputs)
    return _rowwise_quant(x)


__all__ = [
    "ArgumentError", "cluster_size", "CompileError", "DeviceError",
    "force_tiling", "ManifestError",
    "cross_entropy", "l2_normalize", "lars_momentum", "layer_norm",
    "layer_norm_with_stats", "layernorm_bwd", "load_library", "log_softmax",
    "normalize", "pearson_bwd", "rms_norm", "rms_norm_with_rstd",
    "rmsnorm_bwd", "rowwise_quant", "softmax", "softmax_backward",
    "softmax_logits_bwd", "weighted_var_bwd",
]
