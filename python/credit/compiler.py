"""Kernels on demand: credit-opt with an on-disk cache, or a prebuilt library.

A *request* names a kernel: workload, storage dtype, N, cluster size (0 lets
the compiler choose), eps and the row blocks of column sums. Compiling a
request runs credit-opt's credit-to-ptx pipeline into a directory of its own
(PTX, cubin, manifest, and the request itself). A library directory holds
such entries; the compile cache is one, and so is a folder built ahead of
time on a machine that has credit-opt (python -m credit.build) and carried
to a GPU machine that has not.

The cache survives concurrent writers and damage: an entry is built in a
private directory, flushed to disk and renamed into place whole; the entries
are the index (no shared file to rewrite); every entry is checked when it is
read (request, manifests, complete PTX, cubins present), and a damaged one is
discarded and compiled again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import uuid

from . import manifest as manifest_lib
from .workloads import KERNELS

class CompileError(RuntimeError):
    """credit-opt is missing or rejected a request; carries its diagnostic."""


#: The most shards a combine kernel takes (credit-split-stages' limit).
MAX_SHARDS = 64

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
    #: For rows sharded across devices: "partial" (the shard's reduction,
    #: the stage values per row) or "combine" (the epilogue on `shards`
    #: shards' partials); None compiles the whole op.
    split: str | None = None
    #: Shards whose partials the combine part takes.
    shards: int = 1

    def __post_init__(self):
        if self.workload not in KERNELS:
            raise ValueError(f"unknown workload {self.workload!r}; known: "
                             f"{', '.join(sorted(KERNELS))}")
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
        if self.split not in (None, "partial", "combine"):
            raise ValueError(f"split must be None, 'partial' or 'combine', "
                             f"got {self.split!r}")
        if not 1 <= self.shards <= MAX_SHARDS:
            raise ValueError(f"shards must be from 1 to {MAX_SHARDS}, got "
                             f"{self.shards}")
        if self.shards != 1 and self.split != "combine":
            raise ValueError("shards is for split='combine'")

    def render(self, registers: dict[str, int] | None = None) -> str:
        """The request's MLIR: the workload, with the tiling if one is
        given, and with `registers` (tiling text -> ptxas's count) as the
        op's credit.registers, which the cost model prices those kernels
        at."""
        text = KERNELS[self.workload].render(self.n, self.dtype, self.eps,
                                               self.blocks)
        attributes = []
        if self.tiling is not None:
            attributes.append(f"tiling = {self.tiling}")
        return with_attributes(text, attributes, registers)

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
    """credit-opt from $CREDIT_OPT, the package (the wheel carries one),
    PATH, or this checkout's build/bin.

    A CREDIT_OPT that is set must name an executable: falling back to
    another credit-opt would compile with a compiler the user did not ask
    for."""
    chosen = os.environ.get("CREDIT_OPT")
    if chosen:
        if not (os.path.isfile(chosen) and os.access(chosen, os.X_OK)):
            raise CompileError(f"CREDIT_OPT={chosen} is not an executable "
                               "file")
        return chosen
    candidates = [str(pathlib.Path(__file__).resolve().parent / "bin" /
                      "credit-opt"),
                  shutil.which("credit-opt"),
                  str(pathlib.Path(__file__).resolve().parents[2] / "build" /
                      "bin" / "credit-opt")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and \
                os.access(candidate, os.X_OK):
            return candidate
    return None


#: Each entry of a library holds this file beside its artifacts.
ENTRY_REQUEST = "request.json"


def _fsync_tree(directory: pathlib.Path) -> None:
    """Flushes every file and directory under `directory`, and the
    directory itself, to disk (an entry must be whole before it is renamed
    into place)."""
    for path in [*directory.rglob("*"), directory]:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _read_request(entry: pathlib.Path) -> Request:
    """The request an entry was compiled for (FileNotFoundError when it has
    none, ManifestError when it is unreadable)."""
    try:
        return Request(**json.loads(
            (entry / ENTRY_REQUEST).read_text())["request"])
    except FileNotFoundError:
        raise
    except (OSError, json.JSONDecodeError, KeyError, TypeError,
            ValueError) as error:
        raise manifest_lib.ManifestError(
            f"{entry}: unreadable {ENTRY_REQUEST}: {error}") from error


def _discard(entry: pathlib.Path) -> None:
    """Moves a damaged entry out of the way (atomically, so that concurrent
    readers see it whole or not at all) and deletes it."""
    grave = entry.with_name(f".damaged-{entry.name}-{uuid.uuid4().hex[:8]}")
    try:
        entry.rename(grave)
    except FileNotFoundError:
        return  # another process got there first
    shutil.rmtree(grave, ignore_errors=True)


class Library:
    """A directory of compiled requests: one subdirectory per request with
    its artifacts and `request.json`. The entries are the index, so
    processes that compile into the same library concurrently cannot lose
    each other's work; every entry is checked when it is read."""

    def __init__(self, directory: os.PathLike):
        self.directory = pathlib.Path(directory)
        self._entries: dict[Request, pathlib.Path] = {}
        self.refresh()

    def refresh(self) -> None:
        """Rescans the directory. Where one request has several entries
        (compiled by different compiler versions), the newest serves."""
        found: dict[Request, tuple[float, pathlib.Path]] = {}
        for marker in self.directory.glob(f"*/{ENTRY_REQUEST}"):
            entry = marker.parent
            if entry.name.startswith("."):
                continue
            try:
                request = _read_request(entry)
                stamp = marker.stat().st_mtime
            except (OSError, manifest_lib.ManifestError):
                continue  # damaged: not an entry; rebuilt on demand
            if request not in found or stamp > found[request][0]:
                found[request] = (stamp, entry)
        self._entries = {request: entry for request, (_, entry) in
                         found.items()}

    def add(self, request: Request, entry: pathlib.Path) -> None:
        """Records an entry just put in place (the newest for its request),
        without rescanning the directory: a build of thousands of kernels
        would otherwise read every entry after each compile."""
        self._entries[request] = entry

    def __contains__(self, request: Request) -> bool:
        return request in self._entries

    def requests(self) -> list[Request]:
        return list(self._entries)

    def entry(self, request: Request) -> pathlib.Path:
        """The directory of `request`'s artifacts (unchecked)."""
        return self._entries[request]

    def get(self, request: Request) -> manifest_lib.KernelSet:
        """The kernels compiled for `request` (the cost model's choices for
        ranges of M)."""
        if request not in self._entries:
            raise manifest_lib.ManifestError(
                f"{self.directory}: no kernel for {request}; build it with "
                "python -m credit.build on a machine with credit-opt")
        return load_entry(self._entries[request], request)


def load_entry(entry: pathlib.Path,
               request: Request | None = None) -> manifest_lib.KernelSet:
    """The kernels of one library entry, checked whole: its request (equal
    to `request` when given), index, manifests, PTX and cubins."""
    recorded = _read_request(entry)
    if request is not None and recorded != request:
        raise manifest_lib.ManifestError(
            f"{entry}: holds {recorded}, not {request}")
    return manifest_lib.check_kernel_set(
        manifest_lib.load_artifacts(entry), str(entry))


class Compiler:
    """Compiles requests with credit-opt into a cache library."""

    def __init__(self, credit_opt: str | None = None,
                 cache_dir: os.PathLike | None = None, chip: str = "sm_90",
                 output_format: str = "isa",
                 profile: os.PathLike | None = None,
                 reprice: bool | None = None):
        #: Why there is no credit-opt, when there is none.
        self.unavailable = ("credit-opt not found: put it on PATH, set "
                            "CREDIT_OPT, or load a prebuilt library")
        try:
            self.credit_opt = credit_opt or find_credit_opt()
        except CompileError as error:
            self.credit_opt = None
            self.unavailable = str(error)
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
        #: A chip profile (targets/*.json's format, e.g. one that
        #: scripts/device_calibrate.sh measured) the cost model reads
        #: instead of the chip's built-in one: `profile`, else
        #: $CREDIT_PROFILE. Its contents are part of the compiler version,
        #: so kernels chosen under another profile are not reused.
        chosen = profile if profile is not None else \
            os.environ.get("CREDIT_PROFILE") or None
        self.profile = pathlib.Path(chosen) if chosen else None
        #: Whether a request whose kernels ptxas assembles is compiled again
        #: with their register counts (_run): `reprice`, else
        #: $CREDIT_REPRICE=1. Off by default: on the GPU it moves single
        #: points both ways and not the geomean, at twice the compile time
        #: (benchmarks/COSTMODEL.md, thirtieth session). Part of the
        #: compiler version, as the profile is.
        self.reprice = (os.environ.get("CREDIT_REPRICE") == "1"
                        if reprice is None else reprice)
        self._profile_text: bytes | None = None
        self._version: str | None = None
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        return self.credit_opt is not None

    def version(self) -> str:
        """Identifies the compiler: its binary's contents' hash, and the
        profile's when one is given."""
        if self._version is None:
            if not self.available:
                raise CompileError(self.unavailable)
            digest = hashlib.sha256()
            with open(self.credit_opt, "rb") as binary:
                for block in iter(lambda: binary.read(1 << 20), b""):
                    digest.update(block)
            if self.profile is not None:
                try:
                    self._profile_text = self.profile.read_bytes()
                except OSError as error:
                    raise CompileError(f"cannot read the profile "
                                       f"{self.profile}: "
                                       f"{error.strerror}") from error
                digest.update(b"\0profile\0" + self._profile_text)
            if self.reprice:
                digest.update(b"\0reprice\0")
            self._version = digest.hexdigest()[:16]
        return self._version

    def compile(self, request: Request) -> manifest_lib.KernelSet:
        """The kernels for `request`: from the cache when its entry is
        whole, else compiled (a damaged entry is discarded first)."""
        target = self.library.directory / request.key(self.version(),
                                                     self.chip)
        try:
            return load_entry(target, request)
        except FileNotFoundError:
            pass
        except manifest_lib.ManifestError:
            _discard(target)
        self._run(request, target)
        try:
            kernels = load_entry(target, request)
        except (FileNotFoundError, manifest_lib.ManifestError) as error:
            raise CompileError(f"credit-opt's artifacts for {request} are "
                               f"incomplete: {error}") from error
        with self._lock:
            self.library.add(request, target)
        return kernels

    def _run(self, request: Request, target: pathlib.Path) -> None:
        """Compiles `request` into a private directory beside `target` and
        renames it into place once it is whole and on disk.

        The cost model prices a kernel built without a register cap at its
        estimate of the registers ptxas will take (a median 11 high,
        benchmarks/COSTMODEL.md). With `reprice`, where the model chooses
        and ptxas runs, the kernels it kept are assembled anyway: if ptxas
        took another count for any of them, the request is compiled again
        with those counts (credit.registers), up to REPRICE_PASSES times,
        so that the choice and the M ranges are priced at what the kernels
        run with."""
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent,
                                         prefix=".build-") as scratch:
            scratch = pathlib.Path(scratch)
            registers: dict[str, int] = {}
            out = self._run_pass(request, scratch, 0, registers)
            passes = 0
            # (A row split across devices is compiled as two other ops,
            # which the counts do not name.)
            while (self.reprice and self.output_format == "bin" and
                   request.tiling is None and request.split is None and
                   passes < REPRICE_PASSES):
                unpriced = _unpriced_registers(out)
                if not unpriced.keys() - registers.keys():
                    break
                registers.update(unpriced)
                passes += 1
                out = self._run_pass(request, scratch, passes, registers)
            (out / ENTRY_REQUEST).write_text(json.dumps(
                {"request": request.as_json(), "compiler": self.version(),
                 "chip": self.chip}, indent=1) + "\n")
            _fsync_tree(out)
            try:
                out.rename(target)
            except OSError:
                # Another process put the same entry in place first.
                if not target.is_dir():
                    raise

    def _run_pass(self, request: Request, scratch: pathlib.Path, index: int,
                  registers: dict[str, int]) -> pathlib.Path:
        """One credit-opt run of `request` (with `registers`) into
        scratch/out-INDEX, which it returns."""
        source = scratch / f"input-{index}.mlir"
        source.write_text(request.render(registers))
        out = scratch / f"out-{index}"
        split = "" if request.split is None else (
            f"split-part={request.split} split-shards={request.shards} ")
        # The profile's bytes that the version hashed, at a path as
        # plain as the artifacts directory's.
        profile = ""
        if self._profile_text is not None:
            (scratch / "profile.json").write_bytes(self._profile_text)
            profile = f"profile={scratch / 'profile.json'} "
        pipeline = (f"builtin.module(credit-to-ptx{{chip={self.chip} "
                    f"cluster-size={request.cluster} {split}{profile}"
                    f"format={self.output_format} "
                    f"artifacts-dir={out}}})")
        command = [self.credit_opt, str(source), "-o", os.devnull,
                   f"--pass-pipeline={pipeline}"]
        try:
            proc = subprocess.run(command, capture_output=True, text=True,
                                  timeout=600)
        except subprocess.TimeoutExpired as error:
            raise CompileError(f"credit-opt did not finish {request} in "
                               f"{error.timeout:.0f} s") from error
        except OSError as error:
            raise CompileError(f"cannot run {self.credit_opt}: "
                               f"{error}") from error
        if proc.returncode != 0:
            raise CompileError(
                f"credit-opt {_describe_status(proc.returncode)} on "
                f"{request}:\n"
                f"{proc.stderr.strip() or '(it printed nothing)'}")
        if not (out / "kernels.json").is_file():
            raise CompileError(f"credit-opt's artifacts for {request} "
                               f"are incomplete: it succeeded but wrote "
                               f"no {out / 'kernels.json'}")
        return out


def with_attributes(text: str, attributes: list[str],
                    registers: dict[str, int] | None = None) -> str:
    """A workload's MLIR `text` with `attributes` (each `name = value`)
    and `registers` (tiling text -> ptxas's count, as credit.registers) on
    its rowwise op."""
    attributes = list(attributes)
    if registers:
        pairs = ", ".join(f"[{tiling}, {count}]"
                          for tiling, count in sorted(registers.items()))
        attributes.append(f"credit.registers = [{pairs}]")
    if not attributes:
        return text
    return text.replace("\n    reduce",
                        f"\n      attributes {{{', '.join(attributes)}}}"
                        "\n    reduce", 1)


#: Compiles of a request after the first, each with the register counts
#: of the kernels the previous one kept (_run).
REPRICE_PASSES = 2


def _tiling_text(fields: dict) -> str:
    """A manifest's tiling as a #credit.tiling attribute (every parameter
    written out, defaults too: the same attribute)."""
    return (f"#credit.tiling<cluster = {fields['cluster']}, threads = "
            f"{fields['threads']}, vector = {fields['vector']}, elems = "
            f"{fields['elems']}, rows = {fields['rows']}, staging = "
            f"{fields['staging']}, splits = {fields['splits']}, exchange = "
            f"{fields['exchange']}>")


def _unpriced_registers(out: pathlib.Path) -> dict[str, int]:
    """ptxas's register counts of the kernels in `out` that are built
    without a register cap (registers staging, no split rows) and were
    priced at another count, by tiling text."""
    counts = {}
    for path in out.glob("*.json"):
        if path.name in ("kernels.json", ENTRY_REQUEST):
            continue
        data = json.loads(path.read_text())
        fields, ptxas = data.get("tiling", {}), data.get("ptxas")
        if (not ptxas or fields.get("staging") != "registers" or
                fields.get("splits") != 1):
            continue
        if ptxas["registers"] != data["plan"]["estimated_registers"]:
            counts[_tiling_text(fields)] = ptxas["registers"]
    return counts


def _describe_status(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"failed (exit status {returncode})"
