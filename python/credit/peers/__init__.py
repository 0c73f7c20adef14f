"""Hand-written peers for the benchmark harness (credit.bench): Triton
kernels for every workload (triton_rowwise, kernels in triton_kernels) and
the paper's CUDA baselines without DSMEM (cuda_paper)."""


class NotApplicable(ValueError):
    """A peer does not handle this input (dtype, row length, shared
    memory); the benchmark reports it as n/a rather than as an error."""
