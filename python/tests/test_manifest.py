"""Manifest parsing and artifact loading (no GPU, no MLIR)."""

import json

import pytest

from credit.manifest import (ManifestError, check_kernel_set, load_artifacts,
                             parse_manifest)


def manifest(**changes):
    data = {
        "name": "softmax_bf16_n8192_c2", "entry": "softmax_bf16_n8192_c2",
        "workload": "softmax", "n": 8192, "block": [256, 1, 1],
        "cluster": [2, 1, 1], "dynamic_shared_memory": 0,
        "params": [
            {"name": "in0", "kind": "ptr", "role": "row_input",
             "dtype": "bf16", "shape": "m,n"},
            {"name": "in0_stride", "kind": "i64", "role": "row_stride"},
            {"name": "out0", "kind": "ptr", "role": "row_output",
             "dtype": "bf16", "shape": "m,n"},
            {"name": "out0_stride", "kind": "i64", "role": "row_stride"},
            {"name": "m", "kind": "i64", "role": "m"},
            {"name": "rows_per_cluster", "kind": "i64",
             "role": "rows_per_cluster"}],
        "input_dtypes": ["bf16"], "broadcast_dtypes": [],
        "scalar_dtypes": [], "output_dtypes": ["bf16"],
        "scalar_output_dtypes": [], "column_sum_output_dtypes": [],
        "pointer_alignment": 16, "stride_multiple": 8,
        "tiling": {"cluster": 2}, "chip": "sm_90",
        "grid": {"policy": "one_wave"}, "rows": [[1, None]],
        "ptx": "softmax_bf16_n8192_c2.ptx"}
    data.update(changes)
    return data


PTX = (".version 8.0\n.target sm_90\n.address_size 64\n"
       ".visible .entry softmax_bf16_n8192_c2(\n.param .u64 p\n)\n{\nret;\n}\n")


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "softmax_bf16_n8192_c2.ptx").write_text(PTX)
    return tmp_path


def test_parses_a_valid_manifest(folder):
    kernel = parse_manifest(manifest(), folder)
    assert kernel.cluster == 2 and kernel.threads == 256
    assert [p.name for p in kernel.params][-2:] == ["m", "rows_per_cluster"]
    assert kernel.grid(m=10, rows_per_cluster=3, blocks=None) == 8
    assert kernel.cubin is None


@pytest.mark.parametrize("change, message", [
    ({"cluster": [3, 1, 1]}, "'cluster' must be"),
    ({"block": [100, 1, 1]}, "block of 100 threads"),
    ({"block": [256, 1]}, "'block' must be three positive ints"),
    ({"n": "8192"}, "'n' must be int"),
    ({"dynamic_shared_memory": 300000}, "bytes of dynamic shared memory"),
    ({"input_dtypes": ["f64"]}, "unknown dtype 'f64'"),
    ({"output_dtypes": []}, "0 row_output dtypes"),
    ({"ptx": "missing.ptx"}, "PTX file .* is missing"),
    ({"cubin": "missing.cubin"}, "cubin file .* is missing"),
    ({"ptx": "../softmax_bf16_n8192_c2.ptx"}, "is not an artifact file name"),
    ({"ptx": "/etc/passwd"}, "is not an artifact file name"),
    ({"cubin": "a/b.cubin"}, "is not an artifact file name"),
    ({"entry": "other"}, "does not define entry other"),
    ({"grid": {"policy": "any"}}, "grid policy must be one of"),
    ({"rows": [[0, None]]}, "'rows' must list"),
    ({"rows": [[5, 3]]}, "'rows' must list"),
])
def test_rejects_broken_manifests(folder, change, message):
    with pytest.raises(ManifestError, match=message):
        parse_manifest(manifest(**change), folder)


def test_rejects_missing_keys_and_bad_params(folder):
    data = manifest()
    del data["entry"]
    with pytest.raises(ManifestError, match="missing 'entry'"):
        parse_manifest(data, folder)
    data = manifest()
    data["params"][0]["kind"] = "f32"
    with pytest.raises(ManifestError, match="unknown kind 'f32'"):
        parse_manifest(data, folder)
    data = manifest()
    data["params"] = data["params"][:-1]
    with pytest.raises(ManifestError, match="must end with m and"):
        parse_manifest(data, folder)


def test_grid_rules(folder):
    # One wave: an equal share of the rows for every resident cluster,
    # whole row groups of the CTA's rows.
    wave = parse_manifest(manifest(), folder)
    assert wave.rows_per_cluster(1000, active_clusters=100, blocks=None) == 10
    assert wave.grid(1000, 10, None) == 100 * 2
    assert wave.rows_per_cluster(1000, 100, None, waves=0) == 1
    grouped = parse_manifest(manifest(
        grid={"policy": "row_group_per_cluster"},
        tiling={"cluster": 1, "rows": 4}), folder)
    assert grouped.rows_per_cluster(1000, 100, None) == 4
    assert grouped.grid(1000, 4, None) == 250 * 2


def test_one_wave_switches_to_a_cluster_per_row_group(folder):
    # From 6 row groups per resident cluster (the profile's rule) a
    # one-wave kernel takes a cluster per row group.
    kernel = parse_manifest(manifest(
        grid={"policy": "one_wave", "row_group_launch_share": 6}), folder)
    assert kernel.row_group_launch_share == 6
    assert kernel.rows_per_cluster(500, active_clusters=100,
                                   blocks=None) == 5
    assert kernel.grid(500, 5, None) == 100 * 2
    assert kernel.rows_per_cluster(501, 100, None) == 1
    assert kernel.grid(501, 1, None) == 501 * 2
    # Counted in row groups: 2 rows per CTA, 12 rows per cluster is 6.
    pairs = parse_manifest(manifest(
        grid={"policy": "one_wave", "row_group_launch_share": 6},
        tiling={"cluster": 2, "rows": 2}), folder)
    assert pairs.rows_per_cluster(1000, 100, None) == 10
    assert pairs.rows_per_cluster(1001, 100, None) == 2
    # $CREDIT_WAVES (an experiment) forces its waves at every M.
    assert kernel.rows_per_cluster(1000, 100, None, waves=1) == 10
    assert kernel.rows_per_cluster(10, 100, None, waves=0) == 1
    # Manifests of compilers before the rule: always one wave.
    old = parse_manifest(manifest(), folder)
    assert old.row_group_launch_share == 0
    assert old.rows_per_cluster(100000, 100, None) == 1000
    # Split rows' clusters wait for each other: always one wave.
    split = parse_manifest(split_manifest(
        grid={"policy": "one_wave", "row_group_launch_share": 2}), folder)
    assert split.rows_per_cluster(1000, 66, None) == 63
    for bad in (-1, 1.5, "6", True):
        with pytest.raises(ManifestError,
                           match="row_group_launch_share must be a "
                                 "non-negative integer"):
            parse_manifest(manifest(grid={"policy": "one_wave",
                                          "row_group_launch_share": bad}),
                           folder)


def test_dependent_launch(folder, monkeypatch):
    # Kernels that wait for the grid before them say so; manifests of
    # compilers before it do not, and their kernels launch as before.
    from credit.launcher import dependent_launch
    kernel = parse_manifest(manifest(dependent_launch=True), folder)
    assert kernel.dependent_launch and dependent_launch(kernel)
    old = parse_manifest(manifest(), folder)
    assert not old.dependent_launch and not dependent_launch(old)
    monkeypatch.setenv("CREDIT_DEPENDENT_LAUNCH", "0")
    assert not dependent_launch(kernel)
    for bad in (1, "true", None):
        with pytest.raises(ManifestError,
                           match="'dependent_launch' must be true or false"):
            parse_manifest(manifest(dependent_launch=bad), folder)


def test_binds_the_primary_context_where_none_is(monkeypatch):
    # A thread with no context (autograd's worker running CREDIT's backward
    # first) gets the device's primary context; one with a context keeps it.
    from credit import launcher

    class Driver:
        class CUresult:
            CUDA_SUCCESS = 0

        def __init__(self, current):
            self.current, self.calls = current, []

        def cuCtxGetCurrent(self):
            return 0, self.current

        def cuDeviceGet(self, ordinal):
            return 0, 100 + ordinal

        def cuDevicePrimaryCtxRetain(self, device):
            self.calls.append(("retain", device))
            return 0, 7000 + device

        def cuCtxSetCurrent(self, context):
            self.calls.append(("set", context))
            self.current = context
            return (0,)

    driver = Driver(current=0)
    monkeypatch.setattr(launcher, "_driver", lambda: driver)
    assert launcher.bind_primary_context(1)
    assert driver.calls == [("retain", 101), ("set", 7101)]
    assert not launcher.bind_primary_context(1)
    assert len(driver.calls) == 2


def split_manifest(splits=4, **changes):
    data = manifest(tiling={"cluster": 2, "splits": splits},
                    plan={"split_partial_floats_per_row": 2 * splits},
                    **changes)
    data["params"][4:4] = [
        {"name": "split_partials", "kind": "ptr", "role": "split_partials",
         "dtype": "f32", "shape": "m,split_partial_floats_per_row"},
        {"name": "split_counters", "kind": "ptr", "role": "split_counters",
         "dtype": "i32", "shape": "m"}]
    return data


def test_split_rows_grid_rule(folder):
    # Rows split over 4 clusters of 2: a group of 8 CTAs per row, never
    # more groups than resident clusters / 4, however few rows per group.
    kernel = parse_manifest(split_manifest(), folder)
    assert kernel.splits == 4 and kernel.ctas_per_group == 8
    assert kernel.caller_params == 4 and kernel.split_partial_floats == 8
    assert kernel.max_groups(66) == 16
    assert kernel.rows_per_cluster(8, active_clusters=66, blocks=None) == 1
    assert kernel.grid(8, 1, None) == 8 * 8
    assert kernel.rows_per_cluster(37, 66, None) == 3
    assert kernel.grid(37, 3, None) == 13 * 8
    # Split rows ignore extra waves: the groups wait for each other.
    assert kernel.rows_per_cluster(1000, 66, None, waves=4) == 63
    assert kernel.rows_per_cluster(1000, 66, None, waves=0) == 63


def test_split_rows_manifest_checks(folder):
    with pytest.raises(ManifestError, match="takes split_partials"):
        parse_manifest(manifest(tiling={"cluster": 2, "splits": 4}), folder)
    data = split_manifest()
    data["tiling"] = {"cluster": 2}
    with pytest.raises(ManifestError, match="takes split_partials"):
        parse_manifest(data, folder)
    data = split_manifest()
    data["params"][4], data["params"][5] = data["params"][5], data["params"][4]
    with pytest.raises(ManifestError, match="just before m, in that order"):
        parse_manifest(data, folder)
    with pytest.raises(ManifestError, match="'splits' must be a positive"):
        parse_manifest(split_manifest(splits=0), folder)


def test_kernel_sets_cover_every_row_count_once(folder):
    small = parse_manifest(manifest(rows=[[1, 63], [4096, None]]), folder)
    large = parse_manifest(manifest(name="other", rows=[[64, 4095]]),
                           folder)
    kernels = check_kernel_set([small, large], "lib")
    assert kernels.for_rows(1) is small and kernels.for_rows(100) is large
    assert kernels.for_rows(10 ** 9) is small
    with pytest.raises(ManifestError, match="do not cover 64 rows"):
        check_kernel_set([small], "lib")
    with pytest.raises(ManifestError, match="exactly once"):
        check_kernel_set([small, large, large], "lib")
    bounded = parse_manifest(manifest(rows=[[1, 10]]), folder)
    with pytest.raises(ManifestError, match="no kernel covers more than 10"):
        check_kernel_set([bounded], "lib")


def test_column_sum_grid_needs_blocks(folder):
    data = manifest(column_sum_output_dtypes=["f32"],
                    grid={"policy": "row_blocks"})
    data["params"].insert(4, {"name": "colsum_out0", "kind": "ptr",
                              "role": "column_sum_output", "dtype": "f32",
                              "shape": "p,n"})
    kernel = parse_manifest(data, folder)
    assert kernel.grid(m=100, rows_per_cluster=2, blocks=64) == 128
    with pytest.raises(ManifestError, match="number of row blocks"):
        kernel.grid(m=100, rows_per_cluster=2, blocks=None)


def test_load_artifacts(folder):
    (folder / "k.json").write_text(json.dumps(manifest()))
    (folder / "kernels.json").write_text(json.dumps({"kernels": ["k.json"]}))
    (kernel,) = load_artifacts(folder)
    assert kernel.entry == "softmax_bf16_n8192_c2"


def test_load_artifacts_errors(tmp_path):
    with pytest.raises(ManifestError, match="no kernels.json"):
        load_artifacts(tmp_path)
    (tmp_path / "kernels.json").write_text("{not json")
    with pytest.raises(ManifestError, match="malformed index"):
        load_artifacts(tmp_path)
    (tmp_path / "kernels.json").write_text(json.dumps({"kernels": ["x.json"]}))
    with pytest.raises(ManifestError, match="cannot read manifest"):
        load_artifacts(tmp_path)


def test_damaged_artifacts(folder):
    """Truncated or empty PTX, a cubin that is not ELF, an index naming a
    path outside the directory: each is an error, never a kernel."""
    ptx = folder / "softmax_bf16_n8192_c2.ptx"
    ptx.write_text(PTX[: len(PTX) // 2 + 40])
    with pytest.raises(ManifestError, match="is truncated"):
        parse_manifest(manifest(), folder)
    ptx.write_text("")
    with pytest.raises(ManifestError, match="does not define entry"):
        parse_manifest(manifest(), folder)
    ptx.write_text(PTX)
    (folder / "k.cubin").write_bytes(b"")
    with pytest.raises(ManifestError, match="not an ELF file"):
        parse_manifest(manifest(cubin="k.cubin"), folder)
    (folder / "k.cubin").write_bytes(b"\x7fELF" + bytes(60))
    assert parse_manifest(manifest(cubin="k.cubin"), folder).cubin.is_file()
    (folder / "kernels.json").write_text(
        json.dumps({"kernels": ["../k.json"]}))
    with pytest.raises(ManifestError, match="not an artifact file name"):
        load_artifacts(folder)
    (folder / "kernels.json").write_text(json.dumps({"kernels": "k.json"}))
    with pytest.raises(ManifestError, match="'kernels' must be a list"):
        load_artifacts(folder)
