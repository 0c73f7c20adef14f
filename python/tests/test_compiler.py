"""Requests, cache keys, libraries and compiling through credit-opt."""

import json
import pathlib
import shutil

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


PROFILES = pathlib.Path(__file__).resolve().parents[2] / "test" / \
    "Transforms" / "Inputs"


def test_compile_with_a_profile(tmp_path, monkeypatch):
    # A cluster kernel's manifest carries its profile's launch rule: the
    # built-in H200 profile's from 6 row groups per resident cluster, a test
    # profile's from 2.
    tiling = ("#credit.tiling<cluster = 2, threads = 256, vector = 8, "
              "elems = 8>")
    request = Request("softmax", "bf16", 4096, tiling=tiling)
    builtin = Compiler(cache_dir=tmp_path)
    if not builtin.available:
        pytest.skip("credit-opt is not built")
    (plain,) = builtin.compile(request).kernels
    assert plain.grid_policy == "one_wave"
    assert plain.row_group_launch_share == 6
    monkeypatch.setenv("CREDIT_PROFILE", str(PROFILES /
                                             "row-group-profile.json"))
    ruled = Compiler(cache_dir=tmp_path)
    assert ruled.version() != builtin.version()
    (switched,) = ruled.compile(request).kernels
    assert switched.row_group_launch_share == 2
    assert switched.ptx != plain.ptx
    # The profile's contents, not its path, make the version.
    copy = tmp_path / "copy.json"
    copy.write_bytes((PROFILES / "row-group-profile.json").read_bytes())
    assert Compiler(cache_dir=tmp_path, profile=copy).version() == \
        ruled.version()
    # A profile that is missing, broken or for another chip is an error
    # that names it.
    with pytest.raises(CompileError, match="cannot read the profile"):
        Compiler(cache_dir=tmp_path,
                 profile=tmp_path / "nowhere.json").compile(request)
    for name, message in (("truncated-profile.json", "not valid JSON"),
                          ("bad-row-group-profile.json",
                           "missing 'min_ctas_per_sm'"),
                          ("sm100-profile.json",
                           "describes sm_100, but the target chip is "
                           "sm_90")):
        with pytest.raises(CompileError, match=message):
            Compiler(cache_dir=tmp_path,
                     profile=PROFILES / name).compile(request)


def test_compile_error_carries_the_diagnostic(tmp_path):
    compiler = Compiler(cache_dir=tmp_path, chip="sm_80")
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    with pytest.raises(CompileError, match="unsupported chip 'sm_80'"):
        compiler.compile(Request("softmax", "f32", 128))


def test_split_request_validation():
    with pytest.raises(ValueError, match="split must be None, 'partial' or "
                                         "'combine'"):
        Request("softmax", "f32", 128, split="both")
    with pytest.raises(ValueError, match="shards must be from 1 to 64"):
        Request("softmax", "f32", 128, split="combine", shards=65)
    with pytest.raises(ValueError, match="shards is for split='combine'"):
        Request("softmax", "f32", 128, split="partial", shards=2)
    keys = {Request("softmax", "f32", 128, split=s, shards=p).key("v", "sm_90")
            for s, p in ((None, 1), ("partial", 1), ("combine", 1),
                         ("combine", 2))}
    assert len(keys) == 4


def test_compile_split_parts(tmp_path):
    """The parts of a row split across devices, from the workload's own
    template: the partial writes the stage's values per row and nothing
    else; the combine takes them from every shard after the workload's own
    scalars and writes the workload's outputs."""
    compiler = Compiler(cache_dir=tmp_path)
    if not compiler.available:
        pytest.skip("credit-opt is not built")
    partial = compiler.compile(Request("cross_entropy", "bf16", 5000,
                                       split="partial"))
    combine = compiler.compile(Request("cross_entropy", "bf16", 5000,
                                       split="combine", shards=3))
    for kernel in partial.kernels:
        assert kernel.workload == "cross_entropy_partial"
        assert kernel.output_dtypes == ()
        assert kernel.scalar_output_dtypes == ("f32",) * 3
        assert kernel.scalar_dtypes == ("i64",)
        assert kernel.plan["reread_rounds"] == 0
    for kernel in combine.kernels:
        assert kernel.workload == "cross_entropy_combine"
        assert kernel.scalar_dtypes == ("i64",) + ("f32",) * 9
        assert kernel.output_dtypes == ("bf16",)
        assert kernel.scalar_output_dtypes == ("f32",)
        # No reduction stage: nothing to exchange.
        assert kernel.plan["exchange_rounds"] == 0
        assert kernel.plan["grid_rounds"] == 0
    # The softmax family's two stages become one before the split.
    (two,) = {k.scalar_output_dtypes for k in compiler.compile(
        Request("softmax", "f16", 4099, split="partial")).kernels}
    assert two == ("f32", "f32")
    # So do layernorm's mean and variance.
    (three,) = {k.scalar_output_dtypes for k in compiler.compile(
        Request("layernorm", "f32", 1024, 0, 1e-5, split="partial")).kernels}
    assert three == ("f32", "f32", "f32")
    # A two-stage workload cannot be split at one stage.
    with pytest.raises(CompileError, match="exactly one reduction stage"):
        compiler.compile(Request("layernorm_bwd", "f32", 1024, 0, 1e-5,
                                 split="partial"))


def test_render_with_register_counts():
    tiling = ("#credit.tiling<cluster = 16, threads = 128, vector = 8, "
              "elems = 64>")
    text = Request("softmax", "bf16", 131072).render({tiling: 96})
    assert f"attributes {{credit.registers = [[{tiling}, 96]]}}" in text
    forced = Request("softmax", "bf16", 131072, tiling=tiling).render(
        {tiling: 96})
    assert (f"attributes {{tiling = {tiling}, credit.registers = "
            f"[[{tiling}, 96]]}}") in forced
    # No counts, no attribute: the text (and the cache key) as before.
    assert "credit.registers" not in Request("softmax", "bf16",
                                             131072).render({})


def test_choice_repriced_at_ptxas_counts(tmp_path):
    """With `reprice` and cubins, kernels built without a register cap are
    priced at the count ptxas took: the request is compiled again with the
    counts of the kernels the first compile kept."""
    compiler = Compiler(cache_dir=tmp_path / "bin", output_format="bin",
                        reprice=True)
    if not compiler.available or not (
            shutil.which("ptxas") or
            pathlib.Path("/usr/local/cuda/bin/ptxas").is_file()):
        pytest.skip("credit-opt or ptxas is not there")
    request = Request("softmax", "bf16", 131072)

    def uncapped(kernels):
        return [json.loads(k.ptx.with_suffix(".json").read_text())
                for k in kernels.kernels
                if k.tiling.get("staging") == "registers" and
                k.tiling.get("splits") == 1]

    priced = uncapped(compiler.compile(request))
    assert priced and all(d["ptxas"] for d in priced)
    # Every one of these is priced at ptxas's count where the first compile
    # kept it (a kernel first kept by the last compile may still carry the
    # estimate); without cubins, the estimate, above ptxas's count here.
    assert any(d["plan"]["estimated_registers"] == d["ptxas"]["registers"]
               for d in priced)
    estimated = uncapped(Compiler(cache_dir=tmp_path / "isa",
                                  reprice=True).compile(request))
    assert estimated and not any("ptxas" in d for d in estimated)
    # Off (the default): one compile, the estimate, a version of its own.
    once = Compiler(cache_dir=tmp_path / "once", output_format="bin",
                    reprice=False)
    assert once.version() != compiler.version()
    differ = {d["ptxas"]["registers"] for d in uncapped(once.compile(request))
              if d["plan"]["estimated_registers"] != d["ptxas"]["registers"]}
    assert differ
    # What a refit of the profile prices those kernels at: the library's
    # counts, per op and tiling.
    from credit import costmodel
    found = costmodel.registers(tmp_path / "once")
    assert set(found) == {"softmax/bf16/131072"}
    assert set(found["softmax/bf16/131072"].values()) == differ
    counts = {d["name"]: d["ptxas"]["registers"] for d in priced}
    assert any(d["plan"]["estimated_registers"] > counts[d["name"]]
               for d in estimated if d["name"] in counts)
