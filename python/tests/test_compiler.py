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
    # Directories that are not whole entries are not entries.
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "request.json").write_text("{trunc")
    (tmp_path / "other").mkdir()
    assert Library(tmp_path).requests() == []


def test_missing_credit_opt(tmp_path, monkeypatch):
    compiler = Compiler(credit_opt=None, cache_dir=tmp_path)
    compiler.credit_opt = None
    with pytest.raises(CompileError, match="credit-opt not found"):
        compiler.compile(Request("softmax", "f32", 128))
    # A CREDIT_OPT that is set but not executable is an error, not a
    # reason to use some other credit-opt.
    (tmp_path / "not-a-program").write_text("hello")
    for chosen in (tmp_path / "not-a-program", tmp_path / "nowhere"):
        monkeypatch.setenv("CREDIT_OPT", str(chosen))
        compiler = Compiler(cache_dir=tmp_path)
        assert not compiler.available
        with pytest.raises(CompileError, match="is not an executable file"):
            compiler.compile(Request("softmax", "f32", 128))


def test_compile_and_reuse(tmp_path):
    compiler = Compiler(cache_dir=tmp_path)
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    request = Request("softmax", "bf16", 2048, cluster=2)
    kernels = compiler.compile(request)
    # Every variant the model keeps has the forced cluster size, and
    # together they serve every row count.
    assert all(k.cluster == 2 and k.n == 2048 for k in kernels.kernels)
    for m in (1, 7, 100, 5000, 10 ** 7):
        assert kernels.for_rows(m).covers(m)
    kernel = kernels.for_rows(1)
    assert kernel.ptx.read_text().count(".reqnctapercluster 2, 1, 1") == 1
    # A second compiler over the same cache finds the kernels in the
    # library.
    again = Compiler(cache_dir=tmp_path)
    assert request in again.library
    assert again.compile(request).for_rows(1).ptx == kernel.ptx


def test_compile_a_given_tiling(tmp_path):
    compiler = Compiler(cache_dir=tmp_path)
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    tiling = ("#credit.tiling<cluster = 1, threads = 256, vector = 8, "
              "elems = 16, rows = 2>")
    kernels = compiler.compile(Request("softmax", "bf16", 2048, tiling=tiling))
    (kernel,) = kernels.kernels
    assert kernel.tiling["rows"] == 2 and kernel.grid_policy == \
        "row_group_per_cluster"
    # A cluster per two-row group: the rows of one CTA.
    assert kernel.rows_per_cluster(1000, 500, None) == 2
    assert kernel.grid(1000, 2, None) == 500


@pytest.mark.parametrize("tiling", [
    # The compiler rejects it.
    "#credit.tiling<cluster = 3, threads = 32, vector = 1, elems = 1>",
    "cluster = 1",                  # not an attribute
    "#credit.tiling<cluster = 1>} func.func @evil() {",
])
def test_bad_tilings(tmp_path, tiling):
    compiler = Compiler(cache_dir=tmp_path)
    if tiling.startswith("#credit.tiling<cluster = 3"):
        if not compiler.available:
            pytest.skip("credit-opt is not built")
        with pytest.raises(CompileError, match="cluster size must be"):
            compiler.compile(Request("softmax", "bf16", 2048, tiling=tiling))
    else:
        with pytest.raises(ValueError, match="tiling must be"):
            Request("softmax", "bf16", 2048, tiling=tiling)


def test_compile_error_carries_the_diagnostic(tmp_path):
    compiler = Compiler(cache_dir=tmp_path, chip="sm_80")
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    with pytest.raises(CompileError, match="unsupported chip 'sm_80'"):
        compiler.compile(Request("softmax", "f32", 128))
