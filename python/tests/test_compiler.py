"""Requests, cache keys, libraries and compiling through credit-opt."""

import json

import pytest

from credit.compiler import CompileError, Compiler, Library, Request
from credit.manifest import ManifestError


def test_request_validation():
    with pytest.raises(ValueError, match="unknown workload 'nope'"):
        Request("nope", "f32", 128)
    with pytest.raises(ValueError, match="cluster must be 0"):
        Request("softmax", "f32", 128, cluster=3)


def test_cache_key_depends_on_everything():
    base = Request("rmsnorm", "bf16", 4096, 0, 1e-6)
    key = base.key("v1", "sm_90")
    assert key == Request("rmsnorm", "bf16", 4096, 0, 1e-6).key("v1", "sm_90")
    others = [Request("rmsnorm", "f16", 4096, 0, 1e-6),
              Request("rmsnorm", "bf16", 4097, 0, 1e-6),
              Request("rmsnorm", "bf16", 4096, 4, 1e-6),
              Request("rmsnorm", "bf16", 4096, 0, 1e-5)]
    assert len({r.key("v1", "sm_90") for r in others} | {key}) == 5
    assert base.key("v2", "sm_90") != key
    assert base.key("v1", "sm_100") != key


def test_library_errors(tmp_path):
    library = Library(tmp_path)
    request = Request("softmax", "f32", 128)
    assert request not in library
    with pytest.raises(ManifestError, match="no kernel for"):
        library.get(request)
    (tmp_path / "library.json").write_text(json.dumps({"requests": [{}]}))
    with pytest.raises(ManifestError, match="malformed library index"):
        Library(tmp_path)


def test_missing_credit_opt(tmp_path, monkeypatch):
    compiler = Compiler(credit_opt=None, cache_dir=tmp_path)
    compiler.credit_opt = None
    with pytest.raises(CompileError, match="credit-opt not found"):
        compiler.compile(Request("softmax", "f32", 128))


def test_compile_and_reuse(tmp_path):
    compiler = Compiler(cache_dir=tmp_path)
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    request = Request("softmax", "bf16", 2048, cluster=2)
    kernel = compiler.compile(request)
    assert kernel.cluster == 2 and kernel.n == 2048
    assert kernel.ptx.read_text().count(".reqnctapercluster 2, 1, 1") == 1
    # A second compiler over the same cache finds the kernel in the library.
    again = Compiler(cache_dir=tmp_path)
    assert request in again.library
    assert again.compile(request).ptx == kernel.ptx


def test_compile_error_carries_the_diagnostic(tmp_path):
    compiler = Compiler(cache_dir=tmp_path, chip="sm_80")
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    with pytest.raises(CompileError, match="unsupported chip 'sm_80'"):
        compiler.compile(Request("softmax", "f32", 128))
