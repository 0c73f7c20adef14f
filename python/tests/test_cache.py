"""The compile cache under concurrent writers and on-disk damage (no GPU).

Each test that compiles needs credit-opt (skipped without it); the ones
that stand in a fake credit-opt need only a POSIX shell.
"""

import concurrent.futures
import json
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from credit.compiler import (CompileError, Compiler, ENTRY_REQUEST, Library,
                             Request, load_entry)
from credit.manifest import ManifestError

PACKAGE = str(pathlib.Path(__file__).resolve().parents[1])

REQUESTS = [Request("softmax", "f32", 256, cluster=1),
            Request("rmsnorm", "bf16", 512, cluster=2, eps=1e-6),
            Request("layernorm", "f16", 1024, cluster=4, eps=1e-5),
            Request("cross_entropy", "bf16", 2048, cluster=1)]


def _compiler(cache) -> Compiler:
    compiler = Compiler(cache_dir=cache)
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    return compiler


def _compile_in_process(cache: str, index: int) -> str:
    return str(Compiler(cache_dir=cache).compile(REQUESTS[index]).kernels[0]
               .ptx)


def _fake_credit_opt(path: pathlib.Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_concurrent_processes_keep_every_entry(tmp_path):
    _compiler(tmp_path)
    # Four processes, four kernels, one cache; twice, so that the second
    # round finds every entry in place.
    for _ in range(2):
        with concurrent.futures.ProcessPoolExecutor(4) as pool:
            paths = list(pool.map(_compile_in_process,
                                  [str(tmp_path)] * 4, range(4)))
        assert all(pathlib.Path(p).is_file() for p in paths)
        library = Library(tmp_path)
        assert sorted(map(str, library.requests())) == \
            sorted(map(str, REQUESTS))
        for request in REQUESTS:
            assert library.get(request).kernels
    # Nothing half-built is left behind.
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_concurrent_builds_of_overlapping_requests(tmp_path):
    _compiler(tmp_path)
    env = dict(os.environ, PYTHONPATH=PACKAGE)
    commands = [[sys.executable, "-m", "credit.build", "--out",
                 str(tmp_path), "--format", "isa", "--jobs", "2",
                 "--workload", workload, "--dtype", "bf16", "--n", "4096"]
                for workload in ("softmax", "rmsnorm", "softmax")]
    procs = [subprocess.Popen(c, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
             for c in commands]
    outputs = [p.communicate(timeout=600)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    library = Library(tmp_path)
    assert {r.workload for r in library.requests()} == {"softmax", "rmsnorm"}
    for request in library.requests():
        assert library.get(request).kernels


def _damage_cases():
    def truncate(path: pathlib.Path):
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])

    def ptx(entry):
        return next(entry.glob("*.ptx"))

    def manifest(entry):
        return next(p for p in entry.glob("*.json")
                    if p.name not in ("kernels.json", ENTRY_REQUEST))

    return {
        "truncated request": lambda e: truncate(e / ENTRY_REQUEST),
        "truncated index": lambda e: truncate(e / "kernels.json"),
        "truncated manifest": lambda e: truncate(manifest(e)),
        "truncated PTX": lambda e: truncate(ptx(e)),
        "empty PTX": lambda e: ptx(e).write_text(""),
        "missing PTX": lambda e: ptx(e).unlink(),
        "index names a missing manifest": lambda e: (e / "kernels.json")
        .write_text(json.dumps({"kernels": ["gone.json"]})),
        "index escapes the entry": lambda e: (e / "kernels.json")
        .write_text(json.dumps({"kernels": ["../x.json"]})),
    }


@pytest.mark.parametrize("damage", sorted(_damage_cases()))
def test_damaged_entry_is_rebuilt(tmp_path, damage):
    compiler = _compiler(tmp_path)
    request = REQUESTS[0]
    first = compiler.compile(request)
    entry = first.kernels[0].ptx.parent
    good = first.kernels[0].ptx.read_text()
    _damage_cases()[damage](entry)
    # Reading the entry as it is reports the damage ...
    with pytest.raises((ManifestError, FileNotFoundError)):
        load_entry(entry, request)
    # ... and compiling again replaces it with a whole one.
    again = Compiler(cache_dir=tmp_path).compile(request)
    assert again.kernels[0].ptx.read_text() == good
    assert request in Library(tmp_path)


def test_damaged_prebuilt_library_is_an_error(tmp_path):
    compiler = _compiler(tmp_path)
    request = REQUESTS[0]
    ptx = compiler.compile(request).kernels[0].ptx
    text = ptx.read_text()
    ptx.write_text(text[: len(text) - 200])
    with pytest.raises(ManifestError, match="is truncated"):
        Library(tmp_path).get(request)


def test_missing_cubin_is_damage(tmp_path):
    compiler = _compiler(tmp_path)
    request = REQUESTS[0]
    kernel = compiler.compile(request).kernels[0]
    data = json.loads((kernel.ptx.parent / f"{kernel.name}.json").read_text())
    data["cubin"] = f"{kernel.name}.cubin"
    (kernel.ptx.parent / f"{kernel.name}.json").write_text(json.dumps(data))
    with pytest.raises(ManifestError, match="cubin file .* is missing"):
        Library(tmp_path).get(request)


@pytest.mark.parametrize("body, message", [
    ("kill -SEGV $$", "was killed by SIGSEGV"),
    ("echo 'something broke' >&2; exit 3",
     "failed \\(exit status 3\\)[^\\n]*:\\nsomething broke"),
    ("exit 1", "\\(it printed nothing\\)"),
    # Says it succeeded, writes nothing.
    ("exit 0", "artifacts for .* are incomplete"),
])
def test_credit_opt_failures_are_reported(tmp_path, body, message):
    fake = _fake_credit_opt(tmp_path / "credit-opt", body)
    compiler = Compiler(credit_opt=fake, cache_dir=tmp_path / "cache")
    with pytest.raises(CompileError, match=message):
        compiler.compile(REQUESTS[0])
    # A failure leaves no entry behind.
    assert Library(tmp_path / "cache").requests() == []
