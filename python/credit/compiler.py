"""Kernels on demand: credit-opt with an on-disk cache, or a prebuilt library.

A *request* names a kernel: workload, storage dtype, N, cluster size (0 lets
the compiler choose), eps and the row blocks of column sums. Compiling a
request runs credit-opt's credit-to-ptx pipeline into a directory of its own
(PTX, cubin, manifest). A library directory holds such request directories
and `library.json`, which maps requests to them; the compile cache is one,
and so is a folder built ahead of time on a machine that has credit-opt
(python -m credit.build) and carried to a GPU machine that has not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import threading

from . import manifest as manifest_lib
from .workloads import WORKLOADS

LIBRARY_INDEX = "library.json"


class CompileError(RuntimeError):
    """credit-opt is missing or rejected a request; carries its diagnostic."""


_TILING = re.compile(r"#credit\.tiling<[a-z0-9 =,]*>")


@dataclasses.dataclass(frozen=True)
class Request:
    workload: str
    dtype: str
    n: int
    #: CTAs per row: 0 lets the cost model choose.
    cluster: int = 0
    eps: float | None = None
    blocks: int = 64
    #: A `#credit.tiling<...>` to compile instead of the model's choice.
    tiling: str | None = None

    def __post_init__(self):
        if self.workload not in WORKLOADS:
            raise ValueError(f"unknown workload {self.workload!r}; known: "
                             f"{', '.join(sorted(WORKLOADS))}")
        if self.cluster not in (0, 1, 2, 4, 8, 16):
            raise ValueError(f"cluster must be 0 (choose), 1, 2, 4, 8 or 16, "
                             f"got {self.cluster}")
        if self.blocks < 1:
            raise ValueError("blocks must be positive")
        if self.tiling is not None:
            if not _TILING.fullmatch(self.tiling):
                raise ValueError(f"tiling must be a #credit.tiling<...> "
                                 f"attribute, got {self.tiling!r}")
            if self.cluster:
                raise ValueError("give a tiling or a cluster size, not both")

    def render(self) -> str:
        """The request's MLIR: the workload, with the tiling if one is
        given."""
        text = WORKLOADS[self.workload].render(self.n, self.dtype, self.eps,
                                               self.blocks)
        if self.tiling is None:
            return text
        return text.replace("\n    reduce",
                            f"\n      attributes {{tiling = {self.tiling}}}"
                            "\n    reduce", 1)

    def key(self, compiler_version: str, chip: str) -> str:
        """The cache key: the request, the rendered MLIR, the compiler."""
        payload = json.dumps({"request": dataclasses.asdict(self),
                              "mlir": self.render(),
                              "compiler": compiler_version,
                              "chip": chip}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:20]

    def as_json(self) -> dict:
        return dataclasses.asdict(self)


def find_credit_opt() -> str | None:
    """credit-opt from $CREDIT_OPT, PATH, or this checkout's build/bin."""
    candidates = [os.environ.get("CREDIT_OPT"), shutil.which("credit-opt"),
                  str(pathlib.Path(__file__).resolve().parents[2] / "build" /
                      "bin" / "credit-opt")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


class Library:
    """A directory of compiled requests."""

    def __init__(self, directory: os.PathLike):
        self.directory = pathlib.Path(directory)
        self._entries: dict[Request, str] = {}
        index = self.directory / LIBRARY_INDEX
        if index.is_file():
            try:
                for entry in json.loads(index.read_text())["requests"]:
                    request = Request(**entry["request"])
                    self._entries[request] = entry["directory"]
            except (json.JSONDecodeError, KeyError, TypeError,
                    ValueError) as error:
                raise manifest_lib.ManifestError(
                    f"{index}: malformed library index: {error}") from error

    def __contains__(self, request: Request) -> bool:
        return request in self._entries

    def requests(self) -> list[Request]:
        return list(self._entries)

    def get(self, request: Request) -> manifest_lib.KernelSet:
        """The kernels compiled for `request` (the cost model's choices for
        ranges of M)."""
        if request not in self._entries:
            raise manifest_lib.ManifestError(
                f"{self.directory}: no kernel for {request}; build it with "
                "python -m credit.build on a machine with credit-opt")
        folder = self.directory / self._entries[request]
        return manifest_lib.check_kernel_set(
            manifest_lib.load_artifacts(folder), str(folder))

    def add(self, request: Request, subdirectory: str) -> None:
        self._entries[request] = subdirectory
        entries = [{"request": r.as_json(), "directory": d}
                   for r, d in self._entries.items()]
        index = self.directory / LIBRARY_INDEX
        partial = index.with_suffix(".tmp")
        partial.write_text(json.dumps({"requests": entries}, indent=1) + "\n")
        partial.replace(index)


class Compiler:
    """Compiles requests with credit-opt into a cache library."""

    def __init__(self, credit_opt: str | None = None,
                 cache_dir: os.PathLike | None = None, chip: str = "sm_90",
                 output_format: str = "isa"):
        self.credit_opt = credit_opt or find_credit_opt()
        if cache_dir is None:
            cache_dir = os.environ.get(
                "CREDIT_CACHE_DIR",
                pathlib.Path(os.environ.get("XDG_CACHE_HOME",
                                            pathlib.Path.home() / ".cache")) /
                "credit")
        self.library = Library(cache_dir)
        self.chip = chip
        if output_format not in ("isa", "bin"):
            raise ValueError("output_format must be 'isa' or 'bin'")
        self.output_format = output_format
        self._version: str | None = None
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        return self.credit_opt is not None

    def version(self) -> str:
        """Identifies the compiler binary (its contents' hash)."""
        if self._version is None:
            if not self.available:
                raise CompileError("credit-opt not found: put it on PATH, set "
                                   "CREDIT_OPT, or load a prebuilt library")
            digest = hashlib.sha256()
            with open(self.credit_opt, "rb") as binary:
                for block in iter(lambda: binary.read(1 << 20), b""):
                    digest.update(block)
            self._version = digest.hexdigest()[:16]
        return self._version

    def compile(self, request: Request) -> manifest_lib.KernelSet:
        key = request.key(self.version(), self.chip)
        target = self.library.directory / key
        if not (target / "kernels.json").is_file():
            self._run(request, target)
        with self._lock:
            if request not in self.library:
                self.library.add(request, key)
        return self.library.get(request)

    def _run(self, request: Request, target: pathlib.Path) -> None:
        text = request.render()
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            scratch = pathlib.Path(scratch)
            source = scratch / "input.mlir"
            source.write_text(text)
            out = scratch / "out"
            pipeline = (f"builtin.module(credit-to-ptx{{chip={self.chip} "
                        f"cluster-size={request.cluster} "
                        f"format={self.output_format} "
                        f"artifacts-dir={out}}})")
            proc = subprocess.run(
                [self.credit_opt, str(source), "-o", os.devnull,
                 f"--pass-pipeline={pipeline}"],
                capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                raise CompileError(f"credit-opt failed on {request}:\n"
                                   f"{proc.stderr.strip()}")
            try:
                out.rename(target)
            except OSError:
                if not (target / "kernels.json").is_file():
                    raise
