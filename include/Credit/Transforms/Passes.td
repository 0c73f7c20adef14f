//===- Passes.td - credit transformation passes ------------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_PASSES_TD
#define CREDIT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// Options every pass that builds plans takes, so that they all see the
// same chip and profile.
defvar targetOptions = [
  Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
         "Target chip (sm_90, sm_90a, sm_100, ...)">,
  Option<"profile", "profile", "std::string", /*default=*/"\"\"",
         "Calibrated chip profile (JSON, see targets/); empty: the chip's "
         "built-in profile">
];

def CreditRaiseLinalg : Pass<"credit-raise-linalg"> {
  let summary = "Raises reduction-reuse computations in linalg to "
                "credit.rowwise";
  let description = [{
    Rewrites what front ends (torch-mlir, StableHLO, IREE) emit for row-wise
    reduction-reuse computations into `credit.rowwise` ops on tensors:

    - `linalg.softmax` along the last dimension of an f32, bf16 or f16
      tensor (computed in f32, rounded once);
    - chains of linalg ops, generic or named, around a reduction of the
      last loop with an f32 accumulator (`arith.addf`, `maximumf`,
      `minimumf`, `maxnumf`, `minnumf`): the elementwise ops over rows,
      per-row values (`[M]` or `[M, 1]`) and broadcast vectors (`[N]`)
      connected to it, further reductions (ordered into stages by what
      they depend on; independent ones share a stage), and unit-dimension
      reshapes. Payloads (scalar arith and math code, and `scf.if`
      branches of it) are cloned as they are, in the types they compute
      in, so f16/bf16 storage with f32 math stays exact. The chain's
      results used elsewhere become the op's row and per-row outputs,
      leading dimensions become M (collapsed and expanded back).

    Anything else is left as it was: a reduction along another dimension,
    a lone reduction whose row is not reused, accumulators other than f32,
    payloads with memory effects or loops, `linalg.index` of a row dimension or
    captured values that are not constants, row inputs of other element
    types, and chains whose results are used before the chain ends.
    With `remarks`, each raised op and each softmax or row reduction left
    alone says so, the latter with the reason; `warn-unraised` makes the
    latter warnings (credit-to-ptx, which drops host code, sets it).
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Explain in remarks what was raised and what was not, and why">,
    Option<"warnUnraised", "warn-unraised", "bool", /*default=*/"false",
           "Warn about each softmax and row reduction left alone">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::credit::CreditDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

def CreditOnlineSoftmax : Pass<"credit-online-softmax"> {
  let summary = "Merges a row maximum and its sums of exponentials into one "
                "stage (online softmax)";
  let description = [{
    Rewrites a `credit.rowwise` stage that sums `exp(a - M)` (or
    `exp(a - M) * w`) over the row, where `M` is the result of a `max` of
    the stage before it over the same `a`, into `addexp` entries of that
    earlier stage:

    ```mlir
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    // becomes
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    ```

    The merged stage yields the same values in the same order, so the
    epilogue, the finalize region and later stages are unchanged. The
    kernel then makes one exchange (CTA, cluster and, for split rows,
    grid) instead of two, and reread staging reads the row once less; the
    sums are accumulated against the running maximum and rescaled when it
    grows (one exp per element as before, one more per sweep and per
    combination). Entries of the later stage that do not use the earlier
    stage's results join it as they are; a stage with any other use of
    them, an exponent that differs from what the max reduces, or fast-math
    flags on the exp or subtraction is left alone. `credit-to-ptx` runs
    this pass unless `online-softmax=false`.
  }];
}

def CreditOnlineVariance : Pass<"credit-online-variance"> {
  let summary = "Merges a row sum and its squared deviations into one stage "
                "(Chan's parallel variance)";
  let description = [{
    Rewrites a `credit.rowwise` stage that sums `(a - K)^2` over the row,
    where `K` is computed from the result `S` of an `add` of the stage
    before it over the same `a` (typically the mean `S / N`), into `sqdev`
    entries of that earlier stage:

    ```mlir
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %s: f32) {
      %mean = arith.divf %s, %n : f32
      %d = arith.subf %v, %mean : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    // becomes
    reduce [add, add, sqdev] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one, %v : f32, f32, f32
    }
    ```

    The merged stage yields the sum `S`, the count `n` and `Q`, the sum
    of squared deviations from the row mean; the regions after it take
    one more argument (the count) and read the old value as
    `Q + n * (S / n - K)^2`, with `K` recomputed there. The kernel then
    makes one exchange (CTA, cluster and, for split rows, grid) instead
    of two, and reread staging reads the row once less; partial moments
    combine centered on their combined mean (Chan's parallel variance),
    which keeps the two-pass form's accuracy. The sum moves after the
    earlier stage's other entries; entries of the later stage that do not
    use the earlier stage's results join it as they are. A stage with any
    other use of those results, or more than one such entry, is left
    alone. `credit-to-ptx` runs this pass unless `online-variance=false`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CreditNarrowIndices : Pass<"credit-narrow-indices"> {
  let summary = "Compares the column index with per-row values in 32 bits";
  let description = [{
    In the element regions of `credit.rowwise` ops, rewrites each
    `arith.cmpi` between the column index (the index itself, or an index
    cast of it to a wider integer) and a value that is the same for the
    whole row (a scalar input, an earlier stage's result, a constant, or
    what the region computes from those) into a compare of i32 values: the
    per-row side is clamped into [-1, N] and truncated. A column is below
    N, so the result is the same for every predicate and every value:

    ```mlir
    %ji = arith.index_cast %j : index to i64
    %hit = arith.cmpi eq, %ji, %t : i64
    // becomes
    %j32 = arith.index_castui %j : index to i32
    %lo = arith.maxsi %t, %c-1 : i64
    %hi = arith.minsi %lo, %cN : i64
    %t32 = arith.trunci %hi : i64 to i32
    %hit = arith.cmpi eq, %j32, %t32 : i32
    ```

    Index and i64 work takes two instructions per element on the GPU and
    keeps the column's lanes in 64 bits; the clamp is computed once per
    row. Compares nested in region-holding ops, and compares with values
    that vary along the row, are left alone. `credit-to-ptx` runs this
    pass.
  }];
}

def CreditSplitStages : Pass<"credit-split-stages", "::mlir::ModuleOp"> {
  let summary = "Splits a row-wise op into the part that reduces a row's "
                "shard and the part that combines the shards' partials";
  let description = [{
    For rows split across devices (a vocabulary sharded over the GPUs of a
    tensor-parallel group), each device holds a shard of every row. A
    `credit.rowwise` op with one reduction stage splits at that stage:

    - `part=partial`: the op reduces its shard and writes the stage's
      values per row as f32 scalar outputs, one per combiner entry, to new
      destination arguments appended to the function; with tensors, the
      function returns them in place of the op's results. There is no
      epilogue, so the kernel reads the shard once.
    - `part=combine`: the op takes the partials of all `shards` shards as
      new f32 per-row scalar arguments (appended, shard-major: shard 0's
      entries, then shard 1's), combines them with the stage's combiners
      in shard order (`max` first, `addexp` sums rescaled to the combined
      maximum, as the kernels' own exchanges do, so every device gets the
      same bits) and runs the original epilogue and finalize region on the
      result. It has no reduction stage, so the kernel makes no exchange.

    The caller gathers the partials between the two (one collective of
    `entries * M` floats per device). Every op in the module is split; an
    op with more than one stage (a stage that needs the previous one's
    row-wide result), or whose results are used other than by its
    function's return, is an error. `credit-to-ptx` runs this pass after
    `credit-online-softmax` when `split-part` is given, so the softmax
    family splits after its max and sums have become one stage.
  }];
  let options = [
    Option<"part", "part", "std::string", /*default=*/"\"\"",
           "partial or combine">,
    Option<"shards", "shards", "unsigned", /*default=*/"1",
           "Shards of each row the combine part takes partials from "
           "(1 to 64)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def CreditCostModel : Pass<"credit-cost-model"> {
  let summary = "Predicts every candidate tiling's time and explains the "
                "choice";
  let description = [{
    For every `credit.rowwise` op, enumerates the legal candidate tilings
    (cluster sizes 1 to 16; the slice in registers at several CTA sizes,
    several rows per CTA for short rows, shared-memory staging and rereads
    in sweeps), builds each one's plan (bytes per row, synchronization
    rounds, registers, occupancy, co-resident clusters) and predicts its
    time at M rows against the chip's calibrated profile. The op gets a
    `#credit.cost` attribute with every candidate's predicted microseconds
    (fastest first) and whether a cluster is predicted to beat the best
    one-CTA tiling, and a remark that names the fastest candidate, what
    bounds it, the runner-up and the best tiling of the other kind.

    M is the op's row count when it is static, else `rows`. The choice
    itself (for every M) is made by `credit-choose-tiling` with the same
    model.
  }];
  let options = !listconcat(targetOptions, [
    Option<"rows", "rows", "int64_t", /*default=*/"4096",
           "Row count M to report at when the op's M is dynamic">,
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Explain each choice in a remark">
  ]);
}

def CreditChooseTiling : Pass<"credit-choose-tiling"> {
  let summary = "Gives credit.rowwise ops the tilings the cost model chooses";
  let description = [{
    Gives every `credit.rowwise` op without a `tiling` attribute the cost
    model's choice (see `credit-cost-model`). The best tiling depends on M,
    which is known only at launch, so the model is evaluated at every row
    count, and up to `max-variants` tilings are kept with the range of M
    each one wins (`variants`, `#credit.variant`); each becomes a kernel and the
    runtime picks by M. `tiling` is the choice at the op's M when static,
    else at `rows`.

    With `cluster-size` set, only tilings with that many CTAs per row are
    considered, and ops that had a tiling get a new one. An op for which no
    tiling is legal on the chip gets an error.
  }];
  let options = !listconcat(targetOptions, [
    Option<"clusterSize", "cluster-size", "unsigned", /*default=*/"0",
           "Cluster size to force (1, 2, 4, 8 or 16); 0 lets the model "
           "choose">,
    Option<"rows", "rows", "int64_t", /*default=*/"4096",
           "Row count M for `tiling` when the op's M is dynamic">,
    Option<"maxVariants", "max-variants", "unsigned", /*default=*/"6",
           "Most tilings kept for different ranges of M">,
    Option<"maxSplits", "max-splits", "unsigned", /*default=*/"64",
           "Most clusters a row may be split over (1: one cluster per row)">
  ]);
}

def CreditClusterTiling : Pass<"credit-cluster-tiling", "::mlir::ModuleOp"> {
  let summary = "Turns each credit.rowwise op into a cluster kernel";
  let description = [{
    Outlines every `credit.rowwise` op into `gpu.func` kernels, one per
    tiling it is compiled with (its `variants`, else its `tiling`; run
    `credit-choose-tiling` first), each in a `gpu.module` of its own with
    the tiling's cluster size in `known_cluster_size`. What each kernel does
    is the tiling's plan on the chip (Credit/Analysis/Plan.h); a tiling the
    chip cannot run is an error at the op. The kernel takes bare pointers and 64-bit
    row strides (the launch ABI recorded in the manifest), loops over the
    rows of its cluster, and for each row: loads its CTA's slice with
    16-byte vector accesses (staged in registers, shared memory or reread),
    runs each reduction stage on the slice, combines the partial values with
    `credit.block_reduce` and, across the cluster, `credit.cluster_reduce`,
    then runs the epilogue over the slice and stores the outputs. Elementwise
    region code is cloned onto vectors of the access width.

    The kernel's launch contract (parameters, grid rule, block, cluster,
    shared memory, types) is recorded in the module attribute
    `credit.kernels`, which `credit-write-artifacts` writes out as JSON.
    With `erase-host`, everything but the kernels is removed from the
    module; otherwise each op is tagged with the name of its kernel.
  }];
  let options = !listconcat(targetOptions, [
    Option<"eraseHost", "erase-host", "bool", /*default=*/"false",
           "Remove everything but the generated gpu.modules">
  ]);
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // CREDIT_TRANSFORMS_PASSES_TD
