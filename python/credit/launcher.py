"""Launches CREDIT kernels with the CUDA driver (cuda.bindings).

Loads a kernel's cubin (or its PTX, which the driver compiles) once per
device, opts in to non-portable cluster sizes and large dynamic shared
memory, checks that at least one cluster fits on the GPU, and launches with
cuLaunchKernelEx and the cluster-dimension attribute on a given stream.
"""

from __future__ import annotations

import ctypes
import os

from .manifest import KernelManifest, KernelSet


class DeviceError(RuntimeError):
    """No usable GPU: none at all, one older than sm_90, or a driver error."""


def _driver():
    try:
        from cuda.bindings import driver
    except ImportError as error:  # pragma: no cover - depends on the machine
        raise DeviceError("cuda-python (cuda.bindings) is not installed; "
                          "pip install cuda-python") from error
    return driver


def _check(result, what: str):
    driver = _driver()
    error, *values = result if isinstance(result, tuple) else (result,)
    if error != driver.CUresult.CUDA_SUCCESS:
        _, name = driver.cuGetErrorName(error)
        raise DeviceError(f"{what} failed: {name.decode() if name else error}")
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


def require_hopper(major: int, minor: int, name: str = "GPU") -> None:
    """Raises DeviceError unless compute capability (major, minor) >= 9.0."""
    if (major, minor) < (9, 0):
        raise DeviceError(f"{name} is sm_{major}{minor}; CREDIT kernels use "
                          "thread-block clusters and need sm_90 (Hopper) or "
                          "later")


def address(handle) -> int:
    """The raw value of a cuda-python driver handle (CUfunction,
    CUcontext, ...), whichever of the bindings' versions made it."""
    return int(handle) if hasattr(handle, "__int__") else int(handle.getPtr())


def bind_primary_context(device_ordinal: int) -> bool:
    """Makes the device's primary context (PyTorch's, where the kernels are
    loaded) current on this thread if no context is, and says whether it
    did. A thread that has made no CUDA runtime call has none, and the
    driver launches nothing there: autograd's worker thread, say, when
    CREDIT's backward is the first work it runs."""
    driver = _driver()
    if address(_check(driver.cuCtxGetCurrent(), "cuCtxGetCurrent")):
        return False
    device = _check(driver.cuDeviceGet(device_ordinal), "cuDeviceGet")
    # Retained for the rest of the process, as PyTorch retains it.
    context = _check(driver.cuDevicePrimaryCtxRetain(device),
                     "cuDevicePrimaryCtxRetain")
    _check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent")
    return True


def dependent_launch(manifest: KernelManifest) -> bool:
    """Whether `manifest`'s kernel is launched with programmatic stream
    serialization: it waits for the kernel before it on the stream
    (manifest.dependent_launch), unless $CREDIT_DEPENDENT_LAUNCH=0 turns
    that off (read when a kernel is loaded)."""
    return (manifest.dependent_launch and
            os.environ.get("CREDIT_DEPENDENT_LAUNCH", "1") != "0")


class LoadedKernel:
    """A kernel loaded into the current CUDA context."""

    def __init__(self, manifest: KernelManifest, device_ordinal: int):
        driver = _driver()
        self.manifest = manifest
        _check(driver.cuInit(0), "cuInit")
        device = _check(driver.cuDeviceGet(device_ordinal), "cuDeviceGet")
        major = _check(driver.cuDeviceGetAttribute(
            driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
            device), "cuDeviceGetAttribute")
        minor = _check(driver.cuDeviceGetAttribute(
            driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
            device), "cuDeviceGetAttribute")
        require_hopper(major, minor, f"device {device_ordinal}")
        # The cubin is for exactly the manifest's chip; PTX works on later
        # chips too.
        if manifest.cubin is not None and manifest.chip == f"sm_{major}{minor}":
            image = manifest.cubin.read_bytes()
        else:
            image = manifest.ptx.read_bytes() + b"\0"
        self.module = _check(driver.cuModuleLoadData(image),
                             f"loading {manifest.name}")
        self.function = _check(
            driver.cuModuleGetFunction(self.module, manifest.entry.encode()),
            f"finding {manifest.entry}")
        attribute = driver.CUfunction_attribute
        # The default limit on dynamic shared memory is 48 KB less the
        # kernel's static shared memory; opt in to exactly what it needs.
        if manifest.dynamic_shared_memory > 0:
            _check(driver.cuFuncSetAttribute(
                self.function,
                attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                manifest.dynamic_shared_memory), "raising shared memory")
        if manifest.cluster > 8:
            _check(driver.cuFuncSetAttribute(
                self.function,
                attribute.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                1), "allowing a non-portable cluster size")
        self.max_active_clusters = self._occupancy()
        if self.max_active_clusters < 1:
            raise DeviceError(
                f"{manifest.name}: no cluster of {manifest.cluster} CTAs with "
                f"{manifest.threads} threads and "
                f"{manifest.dynamic_shared_memory} bytes of shared memory "
                "fits on this GPU")
        #: Row groups resident at once: the clusters of a split row wait for
        #: each other, so a launch never has more.
        self.max_groups = manifest.max_groups(self.max_active_clusters)
        if self.max_groups < 1:
            raise DeviceError(
                f"{manifest.name}: its rows are split over {manifest.splits} "
                f"clusters that must all be resident, but this GPU holds "
                f"only {self.max_active_clusters} of them")
        self.device_ordinal = device_ordinal
        #: Launched with programmatic stream serialization.
        self.dependent = dependent_launch(manifest)
        # Split rows: partial values and arrival counters per stream (the
        # kernel leaves the counters zero); outgrown buffers stay alive, as
        # a captured CUDA graph may still use them.
        self._split_buffers: dict[int, tuple] = {}
        self._retired: list = []

    def _config(self, grid_x: int, stream: int, dependent: bool = False):
        driver = _driver()
        config = driver.CUlaunchConfig()
        config.gridDimX, config.gridDimY, config.gridDimZ = grid_x, 1, 1
        config.blockDimX, config.blockDimY, config.blockDimZ = (
            self.manifest.block)
        config.sharedMemBytes = self.manifest.dynamic_shared_memory
        config.hStream = stream
        attr = driver.CUlaunchAttribute()
        attr.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x = self.manifest.cluster
        attr.value.clusterDim.y = 1
        attr.value.clusterDim.z = 1
        attrs = [attr]
        if dependent:
            attr = driver.CUlaunchAttribute()
            attr.id = (driver.CUlaunchAttributeID.
                       CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
            attr.value.programmaticStreamSerializationAllowed = 1
            attrs.append(attr)
        config.attrs = attrs
        config.numAttrs = len(attrs)
        return config

    def _occupancy(self) -> int:
        driver = _driver()
        config = self._config(self.manifest.cluster, 0)
        return _check(driver.cuOccupancyMaxActiveClusters(self.function,
                                                          config),
                      "cuOccupancyMaxActiveClusters")

    def check_blocks(self, blocks: int | None) -> None:
        """Column sums of split rows: every row block's clusters must be
        resident at once."""
        if (self.manifest.splits > 1 and
                self.manifest.grid_policy == "row_blocks" and
                blocks is not None and blocks > self.max_groups):
            raise DeviceError(
                f"{self.manifest.name}: {blocks} row blocks of rows split "
                f"over {self.manifest.splits} clusters need "
                f"{blocks * self.manifest.splits} resident clusters; this "
                f"GPU holds {self.max_active_clusters}")

    def split_args(self, m: int, stream: int) -> list[int]:
        """The split_partials and split_counters pointers for `m` rows on
        `stream` (none without split rows)."""
        if self.manifest.splits == 1:
            return []
        buffers = self._split_buffers.get(stream)
        if buffers is None or buffers[0] < m:
            import torch
            rows = max(m, 2 * buffers[0] if buffers else 64)
            device = torch.device("cuda", self.device_ordinal)
            # Zeroed on `stream` itself, so that the kernel finds zeros
            # without a host synchronization (and within a CUDA graph
            # capture, where the zeroing becomes part of the graph).
            with torch.cuda.stream(torch.cuda.ExternalStream(stream,
                                                             device=device)):
                partials = torch.empty(
                    rows * self.manifest.split_partial_floats,
                    dtype=torch.float32, device=device)
                counters = torch.zeros(rows, dtype=torch.int32, device=device)
            if buffers is not None:
                self._retired.append(buffers)
            buffers = (rows, partials, counters)
            self._split_buffers[stream] = buffers
        return [buffers[1].data_ptr(), buffers[2].data_ptr()]

    def rows_per_cluster(self, m: int, blocks: int | None) -> int:
        """Rows each cluster handles: the manifest's grid rule with this
        GPU's resident clusters. $CREDIT_WAVES spreads a one-wave grid over
        that many waves instead (an experiment knob; 0: a cluster per row
        group; 1: one wave at every M)."""
        knob = os.environ.get("CREDIT_WAVES")
        waves = int(knob) if knob is not None else None
        return self.manifest.rows_per_cluster(m, self.max_active_clusters,
                                              blocks, waves)

    def launch(self, args: list[int], m: int, stream: int,
               blocks: int | None = None) -> None:
        """Launches over `m` rows. `args` are the manifest's parameters in
        order, without the ones the launcher supplies (split-row buffers, m
        and rows_per_cluster): device pointers and ints."""
        driver = _driver()
        params = self.manifest.params
        expected = self.manifest.caller_params
        if len(args) != expected:
            raise ValueError(f"{self.manifest.name}: {len(args)} arguments "
                             f"for {expected} parameters")
        self.check_blocks(blocks)
        # Without rows only column sums need a launch: their kernel writes
        # the zero sums of its row blocks.
        if m == 0 and self.manifest.grid_policy != "row_blocks":
            return
        rows = self.rows_per_cluster(m, blocks)
        values = list(args) + self.split_args(m, stream) + [m, rows]
        types = [ctypes.c_void_p if p.kind == "ptr" else ctypes.c_int64
                 for p in params]
        grid = self.manifest.grid(m, rows, blocks)
        config = self._config(grid, stream, self.dependent)
        arguments = (tuple(values), tuple(types))
        result = driver.cuLaunchKernelEx(config, self.function, arguments, 0)
        if (result[0] == driver.CUresult.CUDA_ERROR_INVALID_CONTEXT and
                bind_primary_context(self.device_ordinal)):
            result = driver.cuLaunchKernelEx(config, self.function,
                                             arguments, 0)
        _check(result, f"launching {self.manifest.name}")


class LoadedKernelSet:
    """The kernels of one request, loaded; each launch takes the one the
    compiler chose for its row count."""

    def __init__(self, kernels: KernelSet, device_ordinal: int):
        self.kernels = kernels
        self.loaded = [LoadedKernel(k, device_ordinal)
                       for k in kernels.kernels]

    @property
    def manifest(self) -> KernelManifest:
        """The first kernel's manifest: what every variant shares (the
        parameters, types, alignment)."""
        return self.loaded[0].manifest

    def for_rows(self, m: int) -> LoadedKernel:
        chosen = self.kernels.for_rows(m)
        return self.loaded[self.kernels.kernels.index(chosen)]

    def launch(self, args: list[int], m: int, stream: int,
               blocks: int | None = None) -> None:
        self.for_rows(m).launch(args, m, stream, blocks)
