"""The request sets that tests and benchmarks need, so that one build on a
machine with credit-opt covers one device run.

`gpu_cases()` is the GPU correctness matrix: every workload x f32, bf16,
f16 x cluster sizes 1, 2, 4, 8, 16 at N = 8192, with M = 1 and an odd M,
row strides larger than N, -inf and NaN rows; N that is not a power of two
(6000) or not even (4099); and long rows up to N = 1048576.
"""

from __future__ import annotations

import dataclasses

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

    def request(self) -> Request:
        return Request(self.workload, self.dtype, self.n, self.cluster,
                       WORKLOADS[self.workload].eps)

    @property
    def id(self) -> str:
        parts = [self.workload, self.dtype, f"n{self.n}", f"c{self.cluster}",
                 f"m{self.m}"]
        if self.pad:
            parts.append(f"pad{self.pad}")
        if self.values:
            parts.append(self.values)
        return "-".join(parts)


def gpu_cases() -> list[Case]:
    cases = []
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
        for dtype in DTYPES:
            for cluster in (0, 2, 16):
                cases.append(Case(name, dtype, 6000, cluster, 3))
        for cluster in (0, 4):
            cases.append(Case(name, "f32", 4099, cluster, 3))
            cases.append(Case(name, "bf16", 4099, cluster, 3))
        cases.append(Case(name, "bf16", 131072, 0, 4))
        cases.append(Case(name, "bf16", 1048576, 0, 2))
        cases.append(Case(name, "f32", 1048576, 0, 2))
    return cases


def gpu_requests() -> list[Request]:
    return list(dict.fromkeys(case.request() for case in gpu_cases()))


def sanitizer_requests() -> list[Request]:
    return [Request(name, "bf16", 8192, 8, WORKLOADS[name].eps)
            for name in WORKLOADS]


SUITES = {
    "gpu": gpu_requests,
    "sanitizer": sanitizer_requests,
}
