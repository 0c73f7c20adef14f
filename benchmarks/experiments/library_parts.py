"""Splits the cost model's candidate library into parts that fit a device
call, and joins the parts' measurements (2026-12-04).

    python library_parts.py split LIBRARY PARTS OUTDIR   # CPU
    python library_parts.py join OUT RAW...               # CPU

`split` groups the library's ops (candidates.json keys) into PARTS groups
of about the same number of candidates and writes OUTDIR/partK.tar.xz
(small enough to carry beside the repository: about 7 MiB for 2500),
each a `costmodel/` folder with its ops' kernels and a candidates.json of
its ops only, so that `python -m credit.costmodel measure` on it times
those ops' points. `join` writes the points of every raw file (disjoint
parts of one library, one process each) into one raw file, with the
first one's device facts and a `merged_from` note.
"""
import json, pathlib, subprocess, sys


def split(library: str, parts: str, outdir: str) -> None:
    library = pathlib.Path(library).resolve()
    candidates = json.loads((library / "candidates.json").read_text())
    groups = [{} for _ in range(int(parts))]
    for op, tilings in sorted(candidates.items(), key=lambda kv: -len(kv[1])):
        smallest = min(groups, key=lambda g: sum(map(len, g.values())))
        smallest[op] = tilings
    requests = {}
    for folder in library.iterdir():
        request = folder / "request.json"
        if request.is_file():
            r = json.loads(request.read_text())["request"]
            requests.setdefault(f"{r['workload']}/{r['dtype']}/{r['n']}",
                                []).append(folder.name)
    out = pathlib.Path(outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    for k, group in enumerate(groups):
        stage = out / f"part{k}"
        (stage / "costmodel").mkdir(parents=True, exist_ok=True)
        (stage / "costmodel" / "candidates.json").write_text(
            json.dumps(group, indent=1) + "\n")
        # Files sorted by name, so that the kernels of one op sit side by
        # side and xz finds what their PTX has in common.
        files = sorted((f"costmodel/{folder}/{file.name}"
                        for op in group for folder in requests.get(op, [])
                        for file in (library / folder).iterdir()),
                       key=lambda path: path.rsplit("/", 1)[1])
        (stage / "folders").write_text("".join(f + "\n" for f in files))
        tar = subprocess.run(
            ["tar", "-cf", "-", "-C", str(library.parent),
             "--files-from", str(stage / "folders"),
             "-C", str(stage), "costmodel/candidates.json"],
            check=True, capture_output=True).stdout
        xz = subprocess.run(["xz", "-T2", "-9"], input=tar, check=True,
                            capture_output=True).stdout
        (out / f"part{k}.tar.xz").write_bytes(xz)
        print(f"part{k}: {len(group)} ops, "
              f"{sum(map(len, group.values()))} candidates, "
              f"{len(xz) / 2**20:.1f} MiB", flush=True)


def join(out: str, *raws: str) -> None:
    loaded = [json.loads(pathlib.Path(r).read_text()) for r in raws]
    merged = {k: v for k, v in loaded[0].items() if k != "points"}
    merged["merged_from"] = [
        f"measure runs of {len(raws)} parts of one candidate library "
        "(split by op, benchmarks/experiments/library_parts.py), one "
        f"process each, {merged.get('date')}"]
    merged["points"] = [p for raw in loaded for p in raw["points"]]
    pathlib.Path(out).write_text(
        json.dumps(merged, separators=(",", ":")) + "\n")
    print(f"{len(merged['points'])} points", flush=True)


if __name__ == "__main__":
    {"split": split, "join": join}[sys.argv[1]](*sys.argv[2:])
