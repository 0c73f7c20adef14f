"""The C++ call path's loader (credit/native.py): when it builds, where,
and that it never stands in the way of the Python path. No GPU and no
PyTorch needed; building it is checked on the GPU machine
(tests/gpu/test_userpath.py)."""

import importlib
import os
import pathlib
import shutil
import subprocess
import sysconfig

import pytest

from credit import native


@pytest.fixture
def fresh(monkeypatch):
    """native.py as on import: nothing loaded, nothing started."""
    monkeypatch.setattr(native, "MODULE", None)
    monkeypatch.setattr(native, "failure", None)
    monkeypatch.setattr(native, "_started", False)
    return native


@pytest.mark.parametrize("value,expected", [
    (None, "auto"), ("auto", "auto"), ("sync", "sync"), ("SYNC", "sync"),
    ("0", "off"), ("off", "off"), ("false", "off"), ("1", "auto")])
def test_mode(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("CREDIT_NATIVE", raising=False)
    else:
        monkeypatch.setenv("CREDIT_NATIVE", value)
    assert native.mode() == expected


def test_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("CREDIT_CACHE_DIR", str(tmp_path))
    assert native.cache_dir() == tmp_path / "native"
    monkeypatch.delenv("CREDIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert native.cache_dir() == tmp_path / "xdg" / "credit" / "native"


def test_cuda_include(monkeypatch, tmp_path):
    include = tmp_path / "cuda" / "include"
    include.mkdir(parents=True)
    (include / "cuda.h").write_text("")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    # cuda.h alone is not enough: c10's headers include the runtime's.
    found = native.cuda_include()
    assert found != include
    (include / "cuda_runtime_api.h").write_text("")
    assert native.cuda_include() == include


def test_off_never_builds(fresh, monkeypatch):
    monkeypatch.setenv("CREDIT_NATIVE", "0")
    monkeypatch.setattr(native, "build", lambda: pytest.fail("built"))
    assert fresh.module() is None
    assert fresh.module() is None


def test_sync_failure_leaves_the_python_path(fresh, monkeypatch):
    monkeypatch.setenv("CREDIT_NATIVE", "sync")
    calls = []

    def failing_build():
        calls.append(1)
        raise RuntimeError("compiling _torchpath.cpp failed (status 1)")

    monkeypatch.setattr(native, "build", failing_build)
    with pytest.warns(RuntimeWarning, match="Python path runs"):
        assert fresh.module() is None
    assert fresh.failure.startswith("compiling")
    assert fresh.module() is None and len(calls) == 1  # tried once


def test_auto_builds_in_the_background(fresh, monkeypatch):
    monkeypatch.setenv("CREDIT_NATIVE", "auto")
    built = object()

    def build():
        native.MODULE = built
        return built

    monkeypatch.setattr(native, "build", build)
    first = fresh.module()  # starts the thread, may or may not be done
    assert first in (None, built)
    for thread in __import__("threading").enumerate():
        if thread.name == "credit-native":
            thread.join(5)
    assert fresh.module() is built


def test_without_torch_is_a_clear_error(monkeypatch):
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("PyTorch is installed")
    with pytest.raises(ImportError, match="torch"):
        native.build()


def test_sources_ship_with_the_package():
    for source in native.SOURCES:
        assert source.is_file(), source
    text = native.SOURCES[0].read_text()
    assert '#include "_grid_rule.h"' in text
    fast = pathlib.Path(native.__file__).with_name("_fastlaunch.c").read_text()
    assert '#include "_grid_rule.h"' in fast


def _torch_include():
    """PyTorch's headers: $CREDIT_TORCH_INCLUDE, or the ones
    scripts/setup.sh fetches into build/."""
    root = pathlib.Path(__file__).resolve().parents[2]
    for candidate in (os.environ.get("CREDIT_TORCH_INCLUDE"),
                      root / "build" / "torch-include-2.11.0"):
        if candidate and (pathlib.Path(candidate) / "torch" / "csrc" /
                          "autograd" / "custom_function.h").is_file():
            return pathlib.Path(candidate)
    return None


def test_compiles_against_pytorch_headers(tmp_path):
    """The C++ call path compiles, warning-free, against the GPU machine's
    PyTorch (2.11) headers, as native.build() compiles it there."""
    include = _torch_include()
    cuda = native.cuda_include()
    compiler = shutil.which("c++") or shutil.which("g++")
    if include is None or cuda is None or compiler is None:
        pytest.skip("no PyTorch headers (scripts/setup.sh fetches them), "
                    "CUDA headers or C++ compiler")
    command = [compiler, "-fsyntax-only", "-std=c++17", "-Wall", "-Wextra",
               "-Werror", "-Wno-unused-parameter",
               "-DTORCH_EXTENSION_NAME=credit_torchpath_test",
               "-DTORCH_API_INCLUDE_EXTENSION_H",
               f"-I{sysconfig.get_paths()['include']}", f"-I{cuda}",
               f"-I{native.SOURCES[0].parent}",
               f"-isystem{include}",
               f"-isystem{include / 'torch' / 'csrc' / 'api' / 'include'}",
               str(native.SOURCES[0])]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]
