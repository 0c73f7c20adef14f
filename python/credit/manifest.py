"""The kernel manifest: the contract between the compiler and the runtime.

credit-opt's `credit-to-ptx{artifacts-dir=DIR}` writes, per kernel,
NAME.ptx (and NAME.cubin) and NAME.json, and lists the JSON files in
DIR/kernels.json. This module reads and checks them; it needs neither MLIR
nor a GPU.
"""

from __future__ import annotations

import dataclasses
import json
import math
import pathlib
import re

PARAM_KINDS = ("ptr", "i64")
GRID_POLICIES = ("row_group_per_cluster", "one_wave", "row_blocks")
PARAM_ROLES = ("row_input", "row_stride", "broadcast_input", "scalar_input",
               "row_output", "scalar_output", "column_sum_output",
               "split_partials", "split_counters", "m", "rows_per_cluster")
#: Parameters the launcher supplies itself, in this order at the end.
LAUNCHER_ROLES = ("split_partials", "split_counters", "m", "rows_per_cluster")
DTYPES = ("f32", "bf16", "f16", "i8", "i32", "i64")

#: What artifact file names are made of: a kernel symbol and an extension.
_ARTIFACT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.(json|ptx|cubin)")


class ManifestError(ValueError):
    """A manifest or artifacts folder that breaks the contract."""


@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    kind: str
    role: str
    dtype: str | None = None
    shape: str | None = None


@dataclasses.dataclass(frozen=True)
class KernelManifest:
    """One kernel's launch contract."""

    name: str
    entry: str
    workload: str
    n: int
    block: tuple[int, int, int]
    cluster: int
    dynamic_shared_memory: int
    params: tuple[Param, ...]
    input_dtypes: tuple[str, ...]
    broadcast_dtypes: tuple[str, ...]
    scalar_dtypes: tuple[str, ...]
    output_dtypes: tuple[str, ...]
    scalar_output_dtypes: tuple[str, ...]
    column_sum_output_dtypes: tuple[str, ...]
    pointer_alignment: int
    stride_multiple: int
    tiling: dict
    chip: str
    ptx: pathlib.Path
    cubin: pathlib.Path | None
    ptxas: dict | None
    #: How rows map to clusters: one of GRID_POLICIES.
    grid_policy: str = "row_group_per_cluster"
    #: A one-wave kernel takes a cluster per row group from this many row
    #: groups per resident group (the cost model's profile; 0: never).
    row_group_launch_share: int = 0
    #: Row counts the kernel is chosen for: (min, max) pairs, max None for
    #: no bound.
    rows: tuple[tuple[int, int | None], ...] = ((1, None),)
    #: The plan the kernel was built from (bytes, rounds, occupancy).
    plan: dict | None = None
    #: The kernel waits for the grid before it on the stream before its
    #: first global access, so it may be launched with programmatic stream
    #: serialization (absent, False: from compilers before it).
    dependent_launch: bool = False

    @property
    def threads(self) -> int:
        return self.block[0]

    @property
    def rows_per_cta(self) -> int:
        return int(self.tiling.get("rows", 1))

    @property
    def splits(self) -> int:
        """Clusters that share a row (they wait for each other, so a launch
        may not have more of them than the GPU holds at once)."""
        return int(self.tiling.get("splits", 1))

    @property
    def ctas_per_group(self) -> int:
        """CTAs of the clusters that work on the same rows."""
        return self.cluster * self.splits

    @property
    def split_partial_floats(self) -> int:
        """f32 partial values a row of a split-row kernel leaves in global
        memory."""
        return int((self.plan or {}).get("split_partial_floats_per_row", 0))

    @property
    def caller_params(self) -> int:
        """Parameters the caller passes: all but the launcher's."""
        return sum(p.role not in LAUNCHER_ROLES for p in self.params)

    def max_groups(self, active_clusters: int) -> int:
        """Row groups that fit on the GPU at once."""
        return max(0, active_clusters) // self.splits

    def covers(self, m: int) -> bool:
        """Whether the compiler chose this kernel for `m` rows."""
        return any(low <= m and (high is None or m <= high)
                   for low, high in self.rows)

    def rows_per_cluster(self, m: int, active_clusters: int,
                         blocks: int | None, waves: int | None = None) -> int:
        """Rows each cluster handles for `m` rows (the grid rule): the rows
        of one CTA for a grid of a cluster per row group; an equal share
        (whole row groups) for one wave of `active_clusters`, or the rows
        of one CTA from `row_group_launch_share` row groups per resident
        group; a row block for column sums. `waves` (an experiment) forces
        that many waves instead (0: a cluster per row group; always one
        wave for split rows, whose clusters wait for each other)."""
        if self.grid_policy == "row_blocks":
            if blocks is None:
                raise ManifestError(f"{self.name}: column sums need the "
                                    "number of row blocks")
            return max(1, math.ceil(m / blocks))
        group = self.rows_per_cta
        groups = max(1, self.max_groups(active_clusters))
        if self.splits > 1:
            waves = 1
        elif waves is None:
            switch = self.row_group_launch_share
            waves = 0 if switch and math.ceil(
                math.ceil(m / group) / groups) >= switch else 1
        if self.grid_policy == "row_group_per_cluster" or waves <= 0:
            return group
        share = math.ceil(m / (groups * waves))
        return max(group, math.ceil(share / group) * group)

    def grid(self, m: int, rows_per_cluster: int, blocks: int | None) -> int:
        """CTAs to launch along x for `m` rows (the manifest's grid rule)."""
        if self.grid_policy == "row_blocks":
            if blocks is None:
                raise ManifestError(f"{self.name}: column sums need the "
                                    "number of row blocks")
            return blocks * self.ctas_per_group
        return math.ceil(m / rows_per_cluster) * self.ctas_per_group


@dataclasses.dataclass(frozen=True)
class KernelSet:
    """The kernels compiled for one request: the compiler's choices for
    ranges of M, which together cover every M >= 1 once."""

    kernels: tuple[KernelManifest, ...]

    def for_rows(self, m: int) -> KernelManifest:
        for kernel in self.kernels:
            if kernel.covers(max(1, m)):
                return kernel
        raise ManifestError(f"no kernel of {self.kernels[0].name} covers "
                            f"{m} rows")


def check_kernel_set(kernels: list[KernelManifest], where: str) -> KernelSet:
    """A KernelSet if the kernels' row ranges cover every M >= 1 exactly
    once (and they are variants of one workload), else ManifestError."""
    if not kernels:
        raise ManifestError(f"{where}: no kernels")
    first = kernels[0]
    for kernel in kernels[1:]:
        if (kernel.workload, kernel.n, kernel.input_dtypes) != \
                (first.workload, first.n, first.input_dtypes):
            raise ManifestError(f"{where}: kernels {first.name} and "
                                f"{kernel.name} are not variants of one op")
    ranges = sorted((low, high if high is not None else math.inf, k.name)
                    for k in kernels for low, high in k.rows)
    expected = 1
    for low, high, name in ranges:
        if low != expected:
            raise ManifestError(f"{where}: the kernels' row ranges do not "
                                f"cover {expected} rows exactly once "
                                f"({name} starts at {low})")
        expected = high + 1
    if expected != math.inf:
        raise ManifestError(f"{where}: no kernel covers more than "
                            f"{expected - 1} rows")
    return KernelSet(tuple(kernels))


def _require(data: dict, key: str, kind, where: str):
    if key not in data:
        raise ManifestError(f"{where}: missing '{key}'")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ManifestError(f"{where}: '{key}' must be {kind.__name__}, got "
                            f"{type(value).__name__}")
    return value


def _dtypes(data: dict, key: str, where: str) -> tuple[str, ...]:
    values = _require(data, key, list, where)
    for value in values:
        if value not in DTYPES:
            raise ManifestError(f"{where}: unknown dtype {value!r} in '{key}'")
    return tuple(values)


def _artifact(directory: pathlib.Path, name, where: str) -> pathlib.Path:
    """DIRECTORY/NAME, for a NAME the compiler could have made: a plain
    file name, so that no manifest can point outside its directory."""
    if not isinstance(name, str) or not _ARTIFACT_NAME.fullmatch(name):
        raise ManifestError(f"{where}: {name!r} is not an artifact file name")
    return directory / name


def _check_ptx(path: pathlib.Path, entry: str, where: str) -> None:
    """A PTX file that is there and whole: it defines `entry` and ends
    with the closing brace of a function (a truncated file does not)."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise ManifestError(f"{where}: PTX file {path} is missing or "
                            f"unreadable: {error}") from error
    if f".entry {entry}(" not in text and f".entry {entry} (" not in text:
        raise ManifestError(f"{where}: PTX file {path} does not define "
                            f"entry {entry}")
    if not text.rstrip().endswith("}"):
        raise ManifestError(f"{where}: PTX file {path} is truncated")


def _check_cubin(path: pathlib.Path, where: str) -> None:
    try:
        with open(path, "rb") as handle:
            magic = handle.read(4)
    except OSError as error:
        raise ManifestError(f"{where}: cubin file {path} is missing or "
                            f"unreadable: {error}") from error
    if magic != b"\x7fELF":
        raise ManifestError(f"{where}: cubin file {path} is not an ELF file")


def parse_manifest(data: dict, directory: pathlib.Path,
                   where: str = "manifest") -> KernelManifest:
    """Checks `data` (a parsed NAME.json) and returns its KernelManifest."""
    if not isinstance(data, dict):
        raise ManifestError(f"{where}: expected a JSON object")
    name = _require(data, "name", str, where)
    entry = _require(data, "entry", str, where)
    block = _require(data, "block", list, where)
    if len(block) != 3 or not all(isinstance(b, int) and b > 0 for b in block):
        raise ManifestError(f"{where}: 'block' must be three positive ints")
    if block[0] > 1024 or block[0] % 32:
        raise ManifestError(f"{where}: block of {block[0]} threads")
    cluster = _require(data, "cluster", list, where)
    if len(cluster) != 3 or cluster[0] not in (1, 2, 4, 8, 16) or \
            cluster[1:] != [1, 1]:
        raise ManifestError(f"{where}: 'cluster' must be [C, 1, 1] with C in "
                            f"1, 2, 4, 8, 16, got {cluster}")
    params = []
    for index, raw in enumerate(_require(data, "params", list, where)):
        pwhere = f"{where}: params[{index}]"
        if not isinstance(raw, dict):
            raise ManifestError(f"{pwhere}: expected an object")
        param = Param(_require(raw, "name", str, pwhere),
                      _require(raw, "kind", str, pwhere),
                      _require(raw, "role", str, pwhere), raw.get("dtype"),
                      raw.get("shape"))
        if param.kind not in PARAM_KINDS:
            raise ManifestError(f"{pwhere}: unknown kind {param.kind!r}")
        if param.role not in PARAM_ROLES:
            raise ManifestError(f"{pwhere}: unknown role {param.role!r}")
        if param.kind == "ptr" and param.dtype not in DTYPES:
            raise ManifestError(f"{pwhere}: pointer without a known dtype")
        params.append(param)
    if [p.role for p in params[-2:]] != ["m", "rows_per_cluster"]:
        raise ManifestError(f"{where}: params must end with m and "
                            "rows_per_cluster")
    split_roles = [p.role for p in params if p.role in LAUNCHER_ROLES[:2]]
    if split_roles and [p.role for p in params[-4:-2]] != \
            list(LAUNCHER_ROLES[:2]):
        raise ManifestError(f"{where}: split_partials and split_counters "
                            "must come just before m, in that order")
    dynamic = _require(data, "dynamic_shared_memory", int, where)
    if not 0 <= dynamic <= 227 * 1024:
        raise ManifestError(f"{where}: {dynamic} bytes of dynamic shared "
                            "memory")
    ptx = _artifact(directory, _require(data, "ptx", str, where), where)
    _check_ptx(ptx, entry, where)
    cubin = data.get("cubin")
    cubin_path = _artifact(directory, cubin, where) if cubin else None
    if cubin_path is not None:
        _check_cubin(cubin_path, where)
    grid = _require(data, "grid", dict, where)
    policy = grid.get("policy")
    if policy not in GRID_POLICIES:
        raise ManifestError(f"{where}: grid policy must be one of "
                            f"{', '.join(GRID_POLICIES)}, got {policy!r}")
    # Absent from manifests of compilers before it: always one wave.
    switch = grid.get("row_group_launch_share", 0)
    if type(switch) is not int or switch < 0:
        raise ManifestError(f"{where}: grid row_group_launch_share must be "
                            f"a non-negative integer, got {switch!r}")
    dependent = data.get("dependent_launch", False)
    if type(dependent) is not bool:
        raise ManifestError(f"{where}: 'dependent_launch' must be true or "
                            f"false, got {dependent!r}")
    rows = []
    for entry_rows in data.get("rows", [[1, None]]):
        if (not isinstance(entry_rows, list) or len(entry_rows) != 2 or
                not isinstance(entry_rows[0], int) or entry_rows[0] < 1 or
                not (entry_rows[1] is None or
                     isinstance(entry_rows[1], int) and
                     entry_rows[1] >= entry_rows[0])):
            raise ManifestError(f"{where}: 'rows' must list [min, max] row "
                                f"ranges (max null: no bound), got "
                                f"{entry_rows!r}")
        rows.append((entry_rows[0], entry_rows[1]))
    manifest = KernelManifest(
        name=name, entry=entry,
        workload=_require(data, "workload", str, where),
        n=_require(data, "n", int, where),
        block=tuple(block), cluster=cluster[0],
        dynamic_shared_memory=dynamic, params=tuple(params),
        input_dtypes=_dtypes(data, "input_dtypes", where),
        broadcast_dtypes=_dtypes(data, "broadcast_dtypes", where),
        scalar_dtypes=_dtypes(data, "scalar_dtypes", where),
        output_dtypes=_dtypes(data, "output_dtypes", where),
        scalar_output_dtypes=_dtypes(data, "scalar_output_dtypes", where),
        column_sum_output_dtypes=_dtypes(data, "column_sum_output_dtypes",
                                         where),
        pointer_alignment=_require(data, "pointer_alignment", int, where),
        stride_multiple=_require(data, "stride_multiple", int, where),
        tiling=_require(data, "tiling", dict, where),
        chip=_require(data, "chip", str, where),
        ptx=ptx, cubin=cubin_path, ptxas=data.get("ptxas"),
        grid_policy=policy, row_group_launch_share=switch,
        rows=tuple(rows), plan=data.get("plan"),
        dependent_launch=dependent)
    counts = {
        "row_input": len(manifest.input_dtypes),
        "broadcast_input": len(manifest.broadcast_dtypes),
        "scalar_input": len(manifest.scalar_dtypes),
        "row_output": len(manifest.output_dtypes),
        "scalar_output": len(manifest.scalar_output_dtypes),
        "column_sum_output": len(manifest.column_sum_output_dtypes),
    }
    for role, count in counts.items():
        if sum(p.role == role for p in params) != count:
            raise ManifestError(f"{where}: {count} {role} dtypes but a "
                                "different number of such params")
    if manifest.n < 1:
        raise ManifestError(f"{where}: n must be positive")
    splits = manifest.tiling.get("splits", 1)
    if not isinstance(splits, int) or splits < 1:
        raise ManifestError(f"{where}: tiling 'splits' must be a positive "
                            f"int, got {splits!r}")
    if (splits > 1) != bool(split_roles) or \
            (splits > 1 and manifest.split_partial_floats < 1):
        raise ManifestError(f"{where}: a kernel with rows split over "
                            "clusters (splits > 1) takes split_partials and "
                            "split_counters and states "
                            "split_partial_floats_per_row, and only it")
    return manifest


def load_manifest(path: pathlib.Path) -> KernelManifest:
    path = pathlib.Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ManifestError(f"{path}: cannot read manifest: {error}") from error
    return parse_manifest(data, path.parent, str(path))


def load_artifacts(directory: pathlib.Path) -> list[KernelManifest]:
    """Every kernel listed in DIRECTORY/kernels.json."""
    directory = pathlib.Path(directory)
    index = directory / "kernels.json"
    if not index.is_file():
        raise ManifestError(f"{directory}: no kernels.json; compile with "
                            "credit-opt --pass-pipeline='builtin.module("
                            "credit-to-ptx{artifacts-dir=...})'")
    try:
        files = json.loads(index.read_text())["kernels"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise ManifestError(f"{index}: malformed index: {error}") from error
    if not isinstance(files, list):
        raise ManifestError(f"{index}: 'kernels' must be a list")
    return [load_manifest(_artifact(directory, name, str(index)))
            for name in files]
