"""The per-call path in C++ (`_torchpath.cpp`), compiled against the
installed PyTorch on first use.

The module is built once per source, PyTorch and Python, into the cache
(`$CREDIT_CACHE_DIR/native`, like the kernels), with the system's C++
compiler and the CUDA headers (CUDA_HOME, /usr/local/cuda, or the nvidia
wheels'); the shared object is written under a private name and renamed
into place, so concurrent builders never see half a file. `CREDIT_NATIVE`
decides when:

- `auto` (default): the first call that could use it starts the build in a
  background thread and the Python path runs until it is loaded (a build
  takes about a minute of one core);
- `sync`: the first such call waits for the build (tests, benchmarks);
- `0`: never; the Python path alone.

`python -m credit.build --native` builds it ahead of time. A build that
fails is reported once (a warning naming its log) and the Python path
stays. `MODULE` is the loaded module, or None.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import warnings

_HERE = pathlib.Path(__file__).resolve().parent
SOURCES = (_HERE / "_torchpath.cpp", _HERE / "_grid_rule.h",
           _HERE / "_dependent_launch.h")

#: The loaded extension, or None (not built, building, failed or off).
MODULE = None
#: Why there is no module, once a build failed or cannot be tried.
failure: str | None = None
_started = False
_lock = threading.Lock()


def mode() -> str:
    value = os.environ.get("CREDIT_NATIVE", "auto").strip().lower()
    if value in ("0", "off", "no", "false"):
        return "off"
    if value == "sync":
        return "sync"
    return "auto"


def cache_dir() -> pathlib.Path:
    root = os.environ.get("CREDIT_CACHE_DIR")
    if root:
        return pathlib.Path(root) / "native"
    base = os.environ.get("XDG_CACHE_HOME",
                          str(pathlib.Path.home() / ".cache"))
    return pathlib.Path(base) / "credit" / "native"


def cuda_include() -> pathlib.Path | None:
    """A directory with cuda.h and cuda_runtime_api.h (c10's CUDA headers
    include it), or None."""
    roots = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH",
                                         "CUDA_ROOT")]
    roots.append("/usr/local/cuda")
    candidates = [pathlib.Path(r) / "include" for r in roots if r]
    for site in {sysconfig.get_paths()["purelib"],
                 sysconfig.get_paths()["platlib"]}:
        candidates += sorted(pathlib.Path(site).glob("nvidia/*/include"))
    for include in candidates:
        if (include / "cuda.h").is_file() and \
                (include / "cuda_runtime_api.h").is_file():
            return include
    return None


def _tag(torch) -> str:
    digest = hashlib.sha256()
    for source in SOURCES:
        digest.update(source.read_bytes())
    digest.update(torch.__version__.encode())
    digest.update(str(getattr(torch.version, "git_version", "")).encode())
    digest.update(sysconfig.get_config_var("EXT_SUFFIX").encode())
    return digest.hexdigest()[:16]


def _command(torch, name: str, output: pathlib.Path,
             include: pathlib.Path) -> list[str]:
    from torch.utils import cpp_extension
    torch_lib = pathlib.Path(torch.__file__).parent / "lib"
    compiler = os.environ.get("CXX") or shutil.which("c++") or \
        shutil.which("g++") or "c++"
    abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
    command = [compiler, "-shared", "-fPIC", "-O2", "-std=c++17",
               "-fvisibility=hidden", f"-DTORCH_EXTENSION_NAME={name}",
               "-DTORCH_API_INCLUDE_EXTENSION_H",
               f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
               f"-I{sysconfig.get_paths()['include']}", f"-I{include}",
               f"-I{_HERE}"]
    command += [f"-I{p}" for p in cpp_extension.include_paths()]
    command += [str(SOURCES[0]), "-o", str(output), f"-L{torch_lib}",
                f"-Wl,-rpath,{torch_lib}", "-lc10", "-lc10_cuda", "-ltorch",
                "-ltorch_cpu", "-ltorch_python", "-ldl"]
    return command


def _load(path: pathlib.Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(verbose: bool = False):
    """Builds (unless built) and loads the module; returns it. Raises
    RuntimeError with the compiler's output when the build fails."""
    global MODULE
    import torch
    include = cuda_include()
    if include is None:
        raise RuntimeError("no CUDA headers (cuda.h, cuda_runtime_api.h): "
                           "set CUDA_HOME")
    tag = _tag(torch)
    name = f"credit_torchpath_{tag}"
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / (name + sysconfig.get_config_var("EXT_SUFFIX"))
    if not target.is_file():
        handle, private = tempfile.mkstemp(dir=directory, prefix=name,
                                           suffix=".tmp.so")
        os.close(handle)
        command = _command(torch, name, pathlib.Path(private), include)
        if verbose:
            print("building the C++ call path:", " ".join(command),
                  file=sys.stderr, flush=True)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            os.unlink(private)
            log = directory / f"{name}.log"
            log.write_text(" ".join(command) + "\n\n" + result.stdout +
                           result.stderr)
            raise RuntimeError(f"compiling {SOURCES[0].name} failed "
                               f"(status {result.returncode}); log: {log}")
        os.replace(private, target)
    module = _load(target, name)
    MODULE = module
    return module


def _build_quietly() -> None:
    global failure
    try:
        build()
    except Exception as error:  # any failure leaves the Python path
        failure = str(error)
        warnings.warn(f"credit: the C++ call path is not available, the "
                      f"Python path runs: {failure}", RuntimeWarning,
                      stacklevel=2)


def module():
    """The loaded module, or None; the first call starts the build as
    CREDIT_NATIVE says."""
    global _started
    if MODULE is not None or _started:
        return MODULE
    with _lock:
        if _started:
            return MODULE
        _started = True
        chosen = mode()
        if chosen == "off":
            return None
        if chosen == "sync":
            _build_quietly()
        else:
            threading.Thread(target=_build_quietly, name="credit-native",
                             daemon=True).start()
    return MODULE
