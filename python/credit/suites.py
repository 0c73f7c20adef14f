"""The request sets that tests and benchmarks need, so that one build on a
machine with credit-opt covers one device run.

`gpu_cases()` is the GPU correctness matrix: every workload x f32, bf16,
f16 x cluster sizes 1, 2, 4, 8, 16 at N = 8192, with M = 1 and an odd M,
row strides larger than N, -inf and NaN rows; N that is not a power of two
(6000) or not even (4099); long rows up to N = 1048576; and rows split over
several clusters (every workload and dtype, M = 1, 3, 8 and 37, N up to
2^21 + 1, each staging); mixed staging for the workloads with several
row inputs (every dtype and cluster size, a split row, -inf/NaN rows).
The cluster kernels exchange partial values
asynchronously (the default); the barrier exchange runs for every workload
and dtype at clusters of 2, 4 and 16, with several rows per cluster.
"""

from __future__ import annotations

import dataclasses
import math

from .compiler import Request
from .workloads import WORKLOADS

CLUSTERS = (1, 2, 4, 8, 16)
DTYPES = ("f32", "bf16", "f16")


@dataclasses.dataclass(frozen=True)
class Case:
    workload: str
    dtype: str
    n: int
    cluster: int  # 0: the compiler's choice
    m: int
    #: Extra elements between rows (row stride = n + pad).
    pad: int = 0
    #: "" or "special": rows with -inf and NaN.
    values: str = ""
    #: A forced `#credit.tiling<...>` (cluster is then 0).
    tiling: str | None = None

    def request(self) -> Request:
        return Request(self.workload, self.dtype, self.n, self.cluster,
                       WORKLOADS[self.workload].eps, tiling=self.tiling)

    @property
    def id(self) -> str:
        parts = [self.workload, self.dtype, f"n{self.n}", f"c{self.cluster}",
                 f"m{self.m}"]
        if self.tiling:
            parts[3] = tiling_id(self.tiling)
        if self.pad:
            parts.append(f"pad{self.pad}")
        if self.values:
            parts.append(self.values)
        return "-".join(parts)


def split_tiling(dtype: str, n: int, cluster: int, splits: int,
                 staging: str = "registers", threads: int = 256,
                 exchange: str = "async") -> str:
    """A tiling that splits rows of `n` `dtype` elements over `splits`
    clusters of `cluster` CTAs (and their CTAs exchange by `exchange`):
    the widest vector that divides N, and enough elements per thread
    (registers, mixed) or sweeps (shared, reread, async) to cover the
    row."""
    vector = 16 // (4 if dtype == "f32" else 2)
    while n % vector:
        vector //= 2
    per_cta = math.ceil(n / (cluster * splits))
    if staging in ("registers", "mixed"):
        elems = math.ceil(math.ceil(per_cta / threads) / vector) * vector
    else:
        elems = 4 * vector if vector < 4 else vector
    text = (f"#credit.tiling<cluster = {cluster}, threads = {threads}, "
            f"vector = {vector}, elems = {elems}")
    if staging != "registers":
        text += f", staging = {staging}"
    if exchange != "async":
        text += f", exchange = {exchange}"
    return text + f", splits = {splits}>"


def tiling_id(tiling: str) -> str:
    """A short name for a tiling in test ids: c4t256e32s8-shared, c1t128e32r4
    (4 rows per CTA)."""
    fields = dict(part.split(" = ") for part in
                  tiling[len("#credit.tiling<"):-1].split(", "))
    text = f"c{fields['cluster']}t{fields['threads']}e{fields['elems']}"
    if "rows" in fields:
        text += f"r{fields['rows']}"
    if "splits" in fields:
        text += f"s{fields['splits']}"
    if "staging" in fields:
        text += f"-{fields['staging']}"
    if "exchange" in fields:
        text += f"-{fields['exchange']}"
    return text


def split_row_length(name: str) -> int:
    """N of the registers-staged split cases: column sums keep each of
    their 64 row blocks' group of clusters resident, so their rows are
    short enough for two CTAs per SM (split kernels are held to the
    register budget that residency needs)."""
    return 16000 if WORKLOADS[name].column_sums else 100000


def split_cases() -> list[Case]:
    """Rows split over clusters, for every workload and dtype: registers
    staging with one and several rows per group of clusters, shared
    staging, and reread staging of odd rows up to 2^21 + 1 elements.
    Column sums keep each of their 64 row blocks' clusters resident at
    once, so their splits use one-CTA clusters of at most 256 threads and
    no shared staging (which would leave one CTA per SM), and shorter rows
    in registers (split_row_length)."""
    cases = []
    for name in WORKLOADS:
        sums = bool(WORKLOADS[name].column_sums)
        cluster = 1 if sums else 2
        for dtype in DTYPES:
            n = split_row_length(name)
            cases.append(Case(name, dtype, n, 0, 1, tiling=split_tiling(
                dtype, n, cluster, 4)))
            cases.append(Case(name, dtype, 300000, 0, 8, tiling=split_tiling(
                dtype, 300000, cluster, 8 if sums else 16,
                "reread" if sums else "shared", 256 if sums else 512)))
            cases.append(Case(name, dtype, 2 ** 21 + 1, 0, 3,
                              tiling=split_tiling(dtype, 2 ** 21 + 1,
                                                  1 if sums else 4,
                                                  4 if sums else 8, "reread",
                                                  256 if sums else 1024)))
        # More rows than resident groups: each group loops over rows.
        cases.append(Case(name, "bf16", 65536, 0, 37, tiling=split_tiling(
            "bf16", 65536, cluster, 4 if sums else 16,
            "reread" if sums else "registers", 256 if sums else 128)))
    return cases


def mixed_cases(name: str) -> list[Case]:
    """Mixed staging (the last row input in registers, the others copied
    into shared memory), for workloads with several row inputs: every
    dtype and cluster size on rows that leave the last threads partly
    idle, 37 rows over few clusters; without column sums a row split over
    eight clusters of two CTAs and four rows per CTA; and -inf/NaN
    rows."""
    if len(WORKLOADS[name].inputs) < 2:
        return []
    cases = []
    for dtype in DTYPES:
        for cluster in CLUSTERS:
            n = 8192 * cluster - 24
            cases.append(Case(name, dtype, n, 0, 37, tiling=split_tiling(
                dtype, n, cluster, 1, "mixed")))
        if not WORKLOADS[name].column_sums:
            cases.append(Case(name, dtype, 300000, 0, 8, tiling=split_tiling(
                dtype, 300000, 2, 8, "mixed", 512)))
    cases.append(Case(name, "bf16", 65536, 0, 6, values="special",
                      tiling=split_tiling("bf16", 65536, 4, 1, "mixed")))
    # Four rows per CTA, a warp each (not with column sums: one row per CTA).
    if not WORKLOADS[name].column_sums:
        for dtype, vector in (("f32", 4), ("bf16", 8)):
            cases.append(Case(name, dtype, 1024, 0, 37, tiling=(
                f"#credit.tiling<cluster = 1, threads = 128, vector = "
                f"{vector}, elems = 32, rows = 4, staging = mixed>")))
    return cases


def gpu_cases() -> list[Case]:
    cases = split_cases()
    for name in WORKLOADS:
        for dtype in DTYPES:
            for cluster in CLUSTERS:
                cases.append(Case(name, dtype, 8192, cluster, 1))
                cases.append(Case(name, dtype, 8192, cluster, 37))
        for cluster in CLUSTERS:
            cases.append(Case(name, "bf16", 8192, cluster, 5, pad=64))
            # The paper's largest N: shared-memory and reread staging.
            cases.append(Case(name, "f32", 65536, cluster, 3))
        cases.append(Case(name, "f32", 8192, 4, 4, values="special"))
        cases.append(Case(name, "bf16", 8192, 1, 4, values="special"))
        # Row 4 is -inf but for its last third (a masked row): partial
        # maxima of -inf meet finite ones in every exchange, in the online
        # softmax's sweeps, CTAs, clusters and split rows.
        cases.append(Case(name, "bf16", 65536, 16, 6, values="special"))
        cases.append(Case(name, "f32", 300000, 0, 6, values="special",
                          tiling=split_tiling(
                              "f32", 300000, 1 if WORKLOADS[name].column_sums
                              else 2, 4, "reread", 256)))
        for dtype in DTYPES:
            for cluster in (0, 2, 16):
                cases.append(Case(name, dtype, 6000, cluster, 3))
            # The barrier exchange; 37 rows over few clusters reuse both
            # buffers several times. And the asynchronous one on CTAs of one
            # warp (a CTA barrier of its own before each exchange).
            for cluster, threads in ((2, 256), (4, 256), (16, 64)):
                cases.append(Case(name, dtype, 8192, 0, 37,
                                  tiling=split_tiling(
                                      dtype, 8192, cluster, 1, threads=threads,
                                      exchange="barrier")))
            cases.append(Case(name, dtype, 8192, 0, 37, tiling=split_tiling(
                dtype, 8192, 16, 1, threads=32)))
        for cluster in (0, 4):
            cases.append(Case(name, "f32", 4099, cluster, 3))
            cases.append(Case(name, "bf16", 4099, cluster, 3))
        cases.append(Case(name, "bf16", 131072, 0, 4))
        # Shared staging swept several times by a cluster's small CTAs
        # (the cost model's 16-bit long-row form), an odd N among them.
        for dtype in ("bf16", "f16"):
            cases += [Case(name, dtype, n, 0, 5, tiling=split_tiling(
                dtype, n, cluster, 1, "shared", threads))
                for n, cluster, threads in ((262144, 16, 256),
                                            (100003, 8, 512))]
        # Async staging (the slice copied into shared memory with cp.async
        # when a row begins): 16-byte vectors on a cluster, 4-byte ones of
        # an odd f32 row, 37 rows over few clusters (each CTA's stage is
        # reused by its next row) and, without column sums, a split row.
        for dtype in DTYPES:
            cases.append(Case(name, dtype, 65536, 0, 37, tiling=split_tiling(
                dtype, 65536, 4, 1, "async", 256)))
            if not WORKLOADS[name].column_sums:
                cases.append(Case(name, dtype, 300000, 0, 3,
                                  tiling=split_tiling(dtype, 300000, 2, 16,
                                                      "async", 512)))
        cases.append(Case(name, "f32", 100003, 0, 5, tiling=split_tiling(
            "f32", 100003, 8, 1, "async", 256)))
        cases += mixed_cases(name)
        cases.append(Case(name, "bf16", 1048576, 0, 2))
        cases.append(Case(name, "f32", 1048576, 0, 2))
        # Several rows per CTA, a warp each (its warps take different
        # branches where a row value decides), 37 rows: the last CTA's
        # rows are partly past the end. (Not with column sums: one row per
        # CTA.)
        if WORKLOADS[name].column_sums:
            continue
        for dtype, vector in (("f32", 4), ("bf16", 8)):
            cases.append(Case(name, dtype, 1024, 0, 37, tiling=(
                f"#credit.tiling<cluster = 1, threads = 128, vector = {vector}, "
                f"elems = 32, rows = 4>")))
        cases.append(Case(name, "bf16", 4096, 0, 37, tiling=(
            "#credit.tiling<cluster = 1, threads = 128, vector = 8, "
            "elems = 16, rows = 4, staging = shared>")))
    return cases


def gpu_requests() -> list[Request]:
    return list(dict.fromkeys(case.request() for case in
                              gpu_cases() + sanitizer_cases()))


@dataclasses.dataclass(frozen=True)
class ShardCase:
    """Rows split across devices: each shard's partial kernel, then each
    shard's combine kernel over all shards' partials."""

    workload: str
    dtype: str
    #: The shards' lengths, in vocabulary order.
    shards: tuple[int, ...]
    m: int

    def requests(self) -> list[Request]:
        eps = WORKLOADS[self.workload].eps
        return [Request(self.workload, self.dtype, n, 0, eps, split=part,
                        shards=len(self.shards) if part == "combine" else 1)
                for n in self.shards for part in ("partial", "combine")]

    @property
    def id(self) -> str:
        return (f"{self.workload}-{self.dtype}-"
                f"{'+'.join(map(str, self.shards))}-m{self.m}")


#: The workloads credit.distributed splits across devices.
SHARDED_WORKLOADS = ("softmax", "log_softmax", "cross_entropy",
                     "softmax_logits_bwd")


def shard_cases() -> list[ShardCase]:
    """Every sharded workload and dtype: even shards of LLM vocabularies
    (128256 over 4, 151936 over 2), uneven ones (three of 16667, 16667,
    16666; 4099, 4100 and a one-column shard), one shard (a group of one),
    M = 1, 6 (masked rows) and 37."""
    layouts = {"f32": [(4099, 4100, 1), (8192,)],
               "bf16": [(32064,) * 4, (75968, 75968), (8192,)],
               "f16": [(16667, 16667, 16666)]}
    cases = []
    for name in SHARDED_WORKLOADS:
        for dtype, shapes in layouts.items():
            for shards in shapes:
                for m in (1, 6, 37):
                    cases.append(ShardCase(name, dtype, shards, m))
    return cases


def distributed_bench_requests() -> list[Request]:
    """python -m credit.distbench's kernels: bf16 cross_entropy and softmax
    shards of V = 128256 and 262144 over groups of 1, 2, 4 and 8."""
    layouts = [_even_shards(vocab, size) for vocab in (128256, 262144)
               for size in (1, 2, 4, 8)]
    # row_scale: the backward pass of cross_entropy.
    return list(dict.fromkeys(
        [r for name in ("cross_entropy", "softmax") for shards in layouts
         for r in ShardCase(name, "bf16", shards, 1).requests()] +
        [Request("row_scale", "bf16", n) for shards in layouts
         for n in shards]))


def _even_shards(vocab: int, size: int) -> tuple[int, ...]:
    """ceil(V / P) columns per rank, the rest on the last one."""
    shard = -(-vocab // size)
    return tuple(min(shard, vocab - r * shard) for r in range(size))


#: The shards of tests/gpu/test_distributed.py's two-GPU run (f32).
TWO_GPU_SHARDS = (4099, 4100)


def shard_requests() -> list[Request]:
    """shard_cases()' kernels, and the two-GPU run's: every sharded
    workload in f32 over TWO_GPU_SHARDS, row_scale for its backward, and
    the f16 partial of the rank that sends another dtype."""
    two_gpus = [r for name in SHARDED_WORKLOADS
                for r in ShardCase(name, "f32", TWO_GPU_SHARDS, 1).requests()]
    two_gpus += [Request("row_scale", "f32", n) for n in TWO_GPU_SHARDS]
    two_gpus.append(Request("softmax", "f16", TWO_GPU_SHARDS[1],
                            split="partial"))
    return list(dict.fromkeys(
        [r for case in shard_cases() for r in case.requests()] + two_gpus +
        [Request("row_scale", d, 8192) for d in DTYPES]))


@dataclasses.dataclass(frozen=True)
class Point:
    """A benchmark point."""

    workload: str
    dtype: str
    m: int
    n: int


PAPER_WORKLOADS = ("layernorm_bwd", "weighted_var_bwd", "pearson_bwd",
                   "softmax_logits_bwd", "lars_momentum", "rowwise_quant")
BENCH_CLUSTERS = (0, 1, 2, 4, 8, 16)


def paper_points() -> list[Point]:
    """The paper's grid: its six workloads in f32, M = 4096 (2048 for
    layernorm_bwd), N = 4K .. 64K."""
    return [Point(w, "f32", 2048 if w == "layernorm_bwd" else 4096, n)
            for w in PAPER_WORKLOADS
            for n in (4096, 8192, 16384, 32768, 65536)]


def our_points() -> list[Point]:
    """DESIGN.md's grid: long rows, short rows, bf16 and f32, and N that is
    not a power of two."""
    points = []
    for w in ("softmax", "rmsnorm", "layernorm", "cross_entropy",
              "l2_normalize", "softmax_logits_bwd"):
        for m, n in ((512, 131072), (64, 262144), (8, 1048576)):
            points.append(Point(w, "bf16", m, n))
    for w in ("softmax", "rmsnorm", "layernorm", "cross_entropy"):
        points.append(Point(w, "bf16", 32768, 4096))
    for w in ("softmax", "rmsnorm"):
        points.append(Point(w, "f32", 512, 131072))
        points.append(Point(w, "bf16", 4096, 6000))
    return points


def decode_points() -> list[Point]:
    """DESIGN.md's decode grid: a language model's output layer at decode
    time, few rows over large vocabularies."""
    return [Point(w, "bf16", m, n)
            for w in ("softmax", "log_softmax", "cross_entropy", "rmsnorm")
            for n in (32000, 128256, 151936, 262144, 1048576)
            for m in (1, 4, 8, 32)]


def _bench_requests(points, clusters=BENCH_CLUSTERS) -> list[Request]:
    return list(dict.fromkeys(
        Request(p.workload, p.dtype, p.n, c, WORKLOADS[p.workload].eps)
        for p in points for c in clusters))


#: The workloads Quack has in CREDIT's form (credit.bench's `quack` peer).
QUACK_WORKLOADS = ("softmax", "rmsnorm", "layernorm", "cross_entropy")


def quack_bench_requests() -> list[Request]:
    """CREDIT's default (cluster 0) at the points of our grid and the
    decode grid where Quack has the workload (scripts/device_quack.sh)."""
    return _bench_requests(
        [p for p in our_points() + decode_points()
         if p.workload in QUACK_WORKLOADS], clusters=(0,))


#: Shared staging over eight sweeps, two CTAs a row.
SHARED_STAGING = ("#credit.tiling<cluster = 2, threads = 256, vector = 8, "
                  "elems = 16, staging = shared>")


#: Registers staging whose last CTA leaves all eight of a thread's chunks
#: past the end of a row of 57520 (slices of 8192): its loads are
#: unconditional, masked by integers (KernelPlan::integerMasks).
INTEGER_MASKS = ("#credit.tiling<cluster = 8, threads = 128, vector = 8, "
                 "elems = 64>")
INTEGER_MASKS_N = 57520


def sanitizer_cases() -> list[Case]:
    """One kernel per workload at cluster 8 (the asynchronous exchange) and
    one with the barrier exchange at cluster 4, two with shared staging
    (eight sweeps: four iterations of two; five: two, then one after the
    loop), one with mixed staging (workloads with several row inputs), one
    with rows split over four clusters (of two CTAs; of one with column
    sums) and one whose masked chunks load unconditionally (integer masks),
    for compute-sanitizer."""
    cases = []
    for name in WORKLOADS:
        cluster = 1 if WORKLOADS[name].column_sums else 2
        cases.append(Case(name, "bf16", 8192, 8, 5))
        cases.append(Case(name, "bf16", INTEGER_MASKS_N, 0, 3,
                          tiling=INTEGER_MASKS))
        cases.append(Case(name, "bf16", 8192, 0, 5, tiling=split_tiling(
            "bf16", 8192, 4, 1, exchange="barrier")))
        cases.append(Case(name, "bf16", 65536, 0, 3, tiling=SHARED_STAGING))
        cases.append(Case(name, "bf16", 40960, 0, 3, tiling=SHARED_STAGING))
        cases += mixed_cases(name)[-1:]
        n = split_row_length(name)
        cases.append(Case(name, "bf16", n, 0, 3,
                          tiling=split_tiling("bf16", n, cluster, 4)))
    return cases


def sanitizer_requests() -> list[Request]:
    return [case.request() for case in sanitizer_cases()]


def api_requests() -> list[Request]:
    """What tests/gpu/test_api.py needs: the compiler's choice, N = 8192."""
    pairs = [("softmax", "f32"), ("softmax_logits_bwd", "f32"),
             ("rmsnorm", "f32"), ("rmsnorm", "bf16"), ("rmsnorm_bwd", "f32"),
             ("rmsnorm_bwd", "bf16"), ("layernorm", "f32"),
             ("layernorm_bwd", "f32"), ("rowwise_quant", "f32"),
             ("cross_entropy", "f32")]
    return [Request(w, d, 8192, 0, WORKLOADS[w].eps) for w, d in pairs] + \
        [Request("row_scale", d, 8192) for d in DTYPES]


SUITES = {
    "api": api_requests,
    "bench-ours": lambda: _bench_requests(our_points()),
    "bench-paper": lambda: _bench_requests(paper_points()),
    "bench-decode": lambda: _bench_requests(decode_points()),
    "bench-quack": quack_bench_requests,
    "gpu": lambda: gpu_requests() + api_requests() + shard_requests(),
    "shards": shard_requests,
    "bench-distributed": distributed_bench_requests,
    "sanitizer": sanitizer_requests,
    "split": lambda: list(dict.fromkeys(
        [c.request() for c in split_cases()] + sanitizer_requests())),
}
