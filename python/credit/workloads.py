"""The workloads of DESIGN.md as credit.rowwise templates.

Each workload is a `credit.rowwise` op in `workloads/<name>.mlir`, written
once with `${N}` (row length), `${NF}` (N as a float), `${T}` (storage type of
the rows and broadcast inputs), `${EPS}` (where the workload has an epsilon)
and `${P}` (row blocks of column-sum outputs) for string.Template. The files
in the repository's examples/ are these templates rendered at N = 8192.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import string

STORAGE_DTYPES = ("f32", "bf16", "f16")


@dataclasses.dataclass(frozen=True)
class Workload:
    """A workload: its operands by role, in the op's order."""

    name: str
    #: [M, N] row inputs, in storage dtype.
    inputs: tuple[str, ...]
    #: [N] broadcast inputs, in storage dtype.
    broadcasts: tuple[str, ...] = ()
    #: [M] per-row scalar inputs: (name, dtype).
    scalars: tuple[tuple[str, str], ...] = ()
    #: [M, N] row outputs: (name, dtype); None means the storage dtype.
    outputs: tuple[tuple[str, str | None], ...] = ()
    #: [M] per-row scalar outputs, f32.
    scalar_outputs: tuple[str, ...] = ()
    #: [P, N] column-sum outputs, f32.
    column_sums: tuple[str, ...] = ()
    #: The default epsilon, for workloads whose template has one.
    eps: float | None = None
    #: The storage dtype of the rendered example.
    example_dtype: str = "f32"

    def template(self) -> str:
        return (importlib.resources.files("credit") / "workloads" /
                f"{self.name}.mlir").read_text()

    def render(self, n: int, dtype: str, eps: float | None = None,
               blocks: int = 64) -> str:
        """The workload's MLIR for rows of `n` elements stored as `dtype`."""
        if dtype not in STORAGE_DTYPES:
            raise ValueError(f"{self.name}: unsupported dtype {dtype!r}; "
                             f"expected one of {', '.join(STORAGE_DTYPES)}")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"{self.name}: row length must be a positive "
                             f"integer, got {n!r}")
        if eps is None:
            eps = self.eps
        elif self.eps is None:
            raise ValueError(f"{self.name} takes no eps")
        fields = {"N": str(n), "NF": _float(float(n)), "T": dtype,
                  "P": str(blocks)}
        if eps is not None:
            fields["EPS"] = _float(float(eps))
        return string.Template(self.template()).substitute(fields)

    def output_dtype(self, index: int, storage: str) -> str:
        return self.outputs[index][1] or storage


def _float(value: float) -> str:
    """An MLIR float literal that round-trips `value` through f32."""
    text = repr(value)
    if "e" not in text and "." not in text and "inf" not in text:
        text += ".0"
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


WORKLOADS: dict[str, Workload] = {w.name: w for w in [
    # The paper's six.
    Workload("layernorm_bwd", ("x", "dy"), ("gamma",), outputs=(("dx", None),),
             eps=1e-5),
    Workload("weighted_var_bwd", ("x", "w", "dy"), outputs=(("dx", None),)),
    Workload("pearson_bwd", ("x", "y"), scalars=(("g", "f32"),),
             outputs=(("dx", None), ("dy", None))),
    Workload("softmax_logits_bwd", ("logits", "dy"), outputs=(("dx", None),)),
    Workload("lars_momentum", ("w", "grad", "m"),
             outputs=(("w_new", None), ("u", None))),
    Workload("rowwise_quant", ("x",), outputs=(("q", "i8"),),
             scalar_outputs=("scale",)),
    # The forward/backward set of LLM training.
    Workload("softmax", ("x",), outputs=(("y", None),), example_dtype="bf16"),
    Workload("log_softmax", ("x",), outputs=(("y", None),),
             example_dtype="bf16"),
    Workload("layernorm", ("x",), ("gamma", "beta"), outputs=(("y", None),),
             scalar_outputs=("mean", "rstd"), eps=1e-5, example_dtype="bf16"),
    Workload("rmsnorm", ("x",), ("w",), outputs=(("y", None),),
             scalar_outputs=("rstd",), eps=1e-6, example_dtype="bf16"),
    Workload("rmsnorm_bwd", ("x", "dy"), ("w",), scalars=(("rstd", "f32"),),
             outputs=(("dx", None),), column_sums=("dw_partial",),
             example_dtype="bf16"),
    Workload("cross_entropy", ("logits",), scalars=(("target", "i64"),),
             outputs=(("dlogits", None),), scalar_outputs=("loss",),
             example_dtype="bf16"),
    Workload("l2_normalize", ("x",), outputs=(("y", None),), eps=1e-12,
             example_dtype="bf16"),
]}


#: Kernels the runtime compiles that are not DESIGN.md workloads (no
#: examples, benchmarks or cost-model points of their own).
HELPERS: dict[str, Workload] = {w.name: w for w in [
    Workload("row_scale", ("x",), scalars=(("scale", "f32"),),
             outputs=(("y", None),)),
]}

#: Every template a request may name.
KERNELS: dict[str, Workload] = {**WORKLOADS, **HELPERS}


def render_example(name: str) -> str:
    """The text of examples/<name>.mlir."""
    workload = WORKLOADS[name]
    return workload.render(8192, workload.example_dtype)


def main(argv: list[str] | None = None) -> int:
    import argparse
    import pathlib
    parser = argparse.ArgumentParser(
        description="Render the workload templates as the examples.")
    parser.add_argument("--write-examples", type=pathlib.Path,
                        help="directory to (re)write the examples into")
    parser.add_argument("--check-examples", type=pathlib.Path,
                        help="directory whose examples must match")
    args = parser.parse_args(argv)
    stale = []
    for name in WORKLOADS:
        text = render_example(name)
        if args.write_examples:
            (args.write_examples / f"{name}.mlir").write_text(text)
        if args.check_examples:
            path = args.check_examples / f"{name}.mlir"
            if not path.exists() or path.read_text() != text:
                stale.append(name)
    for name in stale:
        print(f"examples/{name}.mlir differs from its template; rerun "
              "python -m credit.workloads --write-examples examples")
    if args.check_examples and not stale:
        print(f"{len(WORKLOADS)} examples match their templates")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
