//===- CreditOps.td - credit operations --------------------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_CREDITOPS_TD
#define CREDIT_DIALECT_CREDITOPS_TD

include "Credit/Dialect/CreditDialect.td"
include "Credit/Dialect/CreditAttrs.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"

def Credit_RowInputType : AnyTypeOf<[
  TensorRankOf<[F32, BF16, F16], [2]>, MemRefRankOf<[F32, BF16, F16], [2]>]>;
def Credit_BroadcastInputType : AnyTypeOf<[
  TensorRankOf<[F32, BF16, F16], [1]>, MemRefRankOf<[F32, BF16, F16], [1]>]>;
def Credit_ScalarInputType : AnyTypeOf<[
  TensorRankOf<[F32, BF16, F16, I32, I64], [1]>,
  MemRefRankOf<[F32, BF16, F16, I32, I64], [1]>]>;
def Credit_RowOutputType : AnyTypeOf<[
  TensorRankOf<[F32, BF16, F16, I8], [2]>, MemRefRankOf<[F32, BF16, F16, I8], [2]>]>;
def Credit_ScalarOutputType : AnyTypeOf<[
  TensorRankOf<[F32, BF16, F16, I32, I64], [1]>,
  MemRefRankOf<[F32, BF16, F16, I32, I64], [1]>]>;
def Credit_ColumnSumOutputType : AnyTypeOf<[
  TensorRankOf<[F32], [2]>, MemRefRankOf<[F32], [2]>]>;

//===----------------------------------------------------------------------===//
// RowwiseOp
//===----------------------------------------------------------------------===//

def Credit_RowwiseOp : Credit_Op<"rowwise", [
    AttrSizedOperandSegments, IsolatedFromAbove,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a row-wise reduction-reuse computation";
  let description = [{
    `credit.rowwise` computes, independently for each of the M rows of its
    [M, N] row inputs, an ordered list of reductions along N followed by an
    elementwise epilogue that reads the row again together with the reduced
    values. It expresses softmax, log-softmax, the layer and RMS norms and
    their backward passes, cross-entropy, L2 normalization, LARS updates and
    row-wise quantization with one op.

    Operands, in order (each list may be empty except `ins`):

    - `ins`: row inputs, [M, N] of f32, bf16 or f16.
    - `bcast`: broadcast inputs, [N] of f32, bf16 or f16 (gamma, weights).
    - `scalars`: per-row scalar inputs, [M] of f32, bf16, f16, i32 or i64
      (an upstream gradient, a class label, a saved statistic).
    - `outs`: row outputs, [M, N] of f32, bf16, f16 or i8.
    - `scalar_outs`: per-row scalar outputs, [M].
    - `colsum_outs`: column-sum outputs, [P, N] of f32. The rows are split
      into P consecutive blocks of ceil(M / P) rows; entry [p, n] is the sum
      over the rows of block p of the value the epilogue yields for column n
      (the per-row-block partial dgamma of a norm's backward pass).

    At least one output list is non-empty. N must be static, between 1 and
    2^30, and agree everywhere; M may be dynamic. All operands are
    tensors (the op then returns one tensor per output, in destination-passing
    style) or all are memrefs (the op then writes its outputs and returns
    nothing). Memref rows may be strided, with a unit inner stride.

    Element values reach the regions in the *compute type*: every floating
    point operand is presented as f32 (accumulation is always in f32), and
    integer operands keep their type. Float outputs are yielded as f32 and
    rounded to their element type to nearest even; integer outputs are
    yielded in their own type.

    Regions, all with a single block ending in `credit.yield`:

    - one `reduce [kinds] (args) { ... }` region per reduction stage, in
      order. Its arguments are the column index (index), the row input
      elements, the broadcast input elements, the scalar inputs and the
      results of all earlier stages; it yields one f32 per combiner kind.
      The stage's results are those values combined over the whole row
      (`add`: sum, `max`: maximum, `min`: minimum; NaN propagates).
      `addexp` sums `w * exp(a - M)`, where `w` is the value it yields, `a`
      the value the nearest `max` before it in the stage yields and `M`
      that max's result: the online softmax normalizer (and weighted sums
      with it), computed in one sweep by rescaling partial sums to the
      running maximum, so a row's softmax needs one stage and one exchange.
      Where `M` is -inf (every `a` is), the sum is taken relative to 0.
      `sqdev` sums the squared deviations of `a` from its row mean,
      `sum((a - S / n)^2)`: it yields `a`, the entry two before it must be
      the `add` of the same `a` (`S`) and the entry right before it the
      `add` of 1.0 (`n`, the count). Partial triples (S, n, Q) combine
      centered on their combined mean (Chan's parallel variance), so a
      layer norm's mean and variance need one stage and one exchange,
      without the cancellation of a sum of squares.
    - `epilogue (args) { ... }`, with the arguments of a stage after the last
      one, yields one value per row output and one f32 per column-sum
      output. It is required when the op has row or column-sum outputs.
    - `finalize (args) { ... }` takes the scalar inputs and the results of
      all stages and yields one value per scalar output. It is required when
      the op has scalar outputs.

    Region bodies compute on scalars: they may use `arith`, `math` and `scf`
    ops on integers, index and f16, bf16, f32 or f64 values, and nothing
    with memory effects. Values that depend only on the row (such as
    `rsqrt(var + eps)`) may be written inside the element regions; the
    lowering computes them once per row.

    The op runs on the host side of a module, never inside a `gpu.module`.

    Optional attributes: `workload` names the computation for artifacts and
    reports (an identifier of at most 64 characters), `tiling` is the chosen `#credit.tiling`, `variants` the tilings
    chosen for ranges of M (`#credit.variant`, covering every M >= 1 in
    order; each becomes a kernel and the runtime picks by M), and `cost` the
    cost model's `#credit.cost` annotation.

    Example (softmax):

    ```mlir
    %y = credit.rowwise "softmax" ins(%x : tensor<?x4096xf32>)
        outs(%init : tensor<?x4096xf32>)
      reduce [max] (%j: index, %v: f32) {
        credit.yield %v : f32
      }
      reduce [add] (%j: index, %v: f32, %m: f32) {
        %d = arith.subf %v, %m : f32
        %e = math.exp %d : f32
        credit.yield %e : f32
      }
      epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
        %d = arith.subf %v, %m : f32
        %e = math.exp %d : f32
        %y = arith.divf %e, %s : f32
        credit.yield %y : f32
      }
    ```
  }];

  let arguments = (ins
    Variadic<Credit_RowInputType>:$inputs,
    Variadic<Credit_BroadcastInputType>:$broadcasts,
    Variadic<Credit_ScalarInputType>:$scalars,
    Variadic<Credit_RowOutputType>:$outputs,
    Variadic<Credit_ScalarOutputType>:$scalarOutputs,
    Variadic<Credit_ColumnSumOutputType>:$columnSumOutputs,
    ArrayAttr:$combiners,
    OptionalAttr<StrAttr>:$workload,
    OptionalAttr<Credit_TilingAttr>:$tiling,
    OptionalAttr<TypedArrayAttrBase<Credit_VariantAttr,
                                    "array of #credit.variant">>:$variants,
    OptionalAttr<Credit_CostEstimateAttr>:$cost
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  // ODS only allows the last region list to be variadic, so the stages,
  // which come first in the custom syntax, are stored last.
  let regions = (region
    AnyRegion:$epilogue,
    AnyRegion:$finalize,
    VariadicRegion<SizedRegion<1>>:$stages
  );

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;

  let extraClassDeclaration = [{
    /// The longest row the compiler accepts (2^30 elements, 4 GiB of f32):
    /// every in-row offset and per-row byte count fits in 32 and 64 bits
    /// with room to spare.
    static constexpr int64_t kMaxRowLength = int64_t(1) << 30;
    /// The longest workload name: kernel symbols and file names are made
    /// from it.
    static constexpr size_t kMaxWorkloadNameLength = 64;
    /// The static row length N.
    int64_t getRowLength();
    /// The number of reduction stages.
    unsigned getNumStages() { return getStages().size(); }
    /// The leading arguments of every element region that differ from
    /// element to element: the column index, then the row inputs' and the
    /// broadcast inputs' elements (the scalars and earlier results follow).
    unsigned getNumElementArgs() {
      return 1 + getInputs().size() + getBroadcasts().size();
    }
    /// The combiner kinds of reduction stage `stage`.
    ::llvm::SmallVector<CombinerKind> getStageCombiners(unsigned stage);
    /// The number of values all stages before `stage` produce.
    unsigned getNumResultsBeforeStage(unsigned stage);
    /// The number of values all stages produce.
    unsigned getNumStageResults() { return getNumResultsBeforeStage(getNumStages()); }
    /// True when the operands are memrefs, false when they are tensors.
    bool hasBufferSemantics();

    /// The argument types of the region of `stage`; `stage == getNumStages()`
    /// gives the epilogue's.
    ::llvm::SmallVector<::mlir::Type> getElementRegionArgTypes(unsigned stage);
    /// The types the epilogue yields.
    ::llvm::SmallVector<::mlir::Type> getEpilogueYieldTypes();
    /// The argument types of the finalize region.
    ::llvm::SmallVector<::mlir::Type> getFinalizeArgTypes();
    /// The types the finalize region yields.
    ::llvm::SmallVector<::mlir::Type> getFinalizeYieldTypes();

    /// The type in which a region sees (or yields) elements of `type`: f32
    /// for floating point types, the type itself otherwise.
    static ::mlir::Type getComputeType(::mlir::Type type);

    /// The largest number of values one reduction stage produces.
    unsigned getMaxStageWidth();
    /// The tilings this op is compiled with: its variants, or its tiling.
    ::llvm::SmallVector<TilingAttr> getCompiledTilings();

    // DestinationStyleOpInterface: the three output lists are contiguous.
    ::mlir::MutableOperandRange getDpsInitsMutable();
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def Credit_YieldOp : Credit_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"RowwiseOp">]> {
  let summary = "ends a credit region and yields its values";
  let description = [{
    Terminates a region of a credit op. The values it yields must match what
    the enclosing region is declared to produce.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to build */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Tiled-level ops: what credit-cluster-tiling produces inside a kernel.
//===----------------------------------------------------------------------===//

def Credit_WorkgroupScratch : MemRefRankOf<[F32], [1]>;

def Credit_GlobalViewOp : Credit_Op<"global_view", [Pure]> {
  let summary = "views a kernel's bare global pointer as a 1-D memref";
  let description = [{
    Kernels take bare `!llvm.ptr<1>` parameters (one per operand, a simple
    launch ABI); this op gives the kernel body a contiguous 1-D memref of
    `size` elements starting at `pointer`, so that it can use memref and
    vector loads and stores. It lowers to a memref descriptor built from the
    pointer.

    ```mlir
    %x = credit.global_view %ptr, %size : !llvm.ptr<1> -> memref<?xbf16, #gpu.address_space<global>>
    ```
  }];
  let arguments = (ins LLVM_AnyPointer:$pointer, I64:$size);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$result);
  let assemblyFormat = [{
    $pointer `,` $size attr-dict `:` qualified(type($pointer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Credit_AsyncCopyOp : Credit_Op<"async_copy"> {
  let summary = "starts an asynchronous copy of a few elements from global "
                "to shared memory";
  let description = [{
    Starts copying `elements` consecutive elements (4, 8 or 16 bytes) from
    `source[source_index]` in global memory to `target[target_index]` in
    shared memory, not through registers (`cp.async`; 16-byte copies bypass
    L1). Where `valid` is false nothing is read and the target gets zeros.
    The copy is complete, for the issuing thread only, after
    `nvvm.cp.async.commit.group` and `nvvm.cp.async.wait.group`; a thread
    that reads what another thread copied needs a barrier after that.

    ```mlir
    credit.async_copy %x[%i], %stage[%j] if %valid {elements = 8 : i32}
        : memref<?xbf16, #gpu.address_space<global>>, memref<?xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$source,
    Index:$sourceIndex,
    Arg<MemRefRankOf<[AnyType], [1]>, "", [MemWrite]>:$target,
    Index:$targetIndex,
    I1:$valid,
    I32Attr:$elements
  );
  let assemblyFormat = [{
    $source `[` $sourceIndex `]` `,` $target `[` $targetIndex `]` `if` $valid
    attr-dict `:` type($source) `,` type($target)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The sizes one copy may move (cp.async): 4, 8 or 16 bytes.
    static bool isCopySize(int64_t bytes) {
      return bytes == 4 || bytes == 8 || bytes == 16;
    }
  }];
}

def Credit_DynamicSharedMemoryOp : Credit_Op<"dynamic_shared_memory", [Pure]> {
  let summary = "the CTA's dynamic shared memory as a byte buffer";
  let description = [{
    Gives the kernel its dynamic shared memory (the launch's shared-memory
    size) as a statically sized byte buffer in workgroup memory, to be cut
    into views. It lowers to a reference to an external, zero-length
    shared-memory array, which PTX places after the kernel's static shared
    memory (`.extern .shared .align 16 .b8 credit_dynamic_shared_memory[]`).

    ```mlir
    %smem = credit.dynamic_shared_memory : memref<131072xi8, #gpu.address_space<workgroup>>
    ```
  }];
  let results = (outs MemRefRankOf<[I8], [1]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Credit_BlockReduceOp : Credit_Op<"block_reduce", [
    AttrSizedOperandSegments, AllTypesMatch<["values", "results"]>]> {
  let summary = "combines per-thread values across a group of a CTA's threads";
  let description = [{
    The threads of a CTA are split into groups of `group_threads` consecutive
    threads (a whole number of warps). Every thread of a group contributes its
    `values`, and every thread of the group receives the same combined
    `results`, one per combiner kind. Warps first combine with butterfly
    shuffles; with more than one warp per group, lane 0 of each warp writes
    its warp's values to `scratch` starting at `offset` (warp w, value k at
    `offset + w * K + k`), the CTA synchronizes, and each warp combines the
    group's warp values, again with shuffles. The scratch is needed (with
    room for every warp of the CTA) only when a group has more than one warp.
    Every thread of the CTA must execute the op.

    ```mlir
    %s, %m = credit.block_reduce [add, max] %a, %b
        scratch(%buf[%off] : memref<64xf32, #gpu.address_space<workgroup>>)
        {group_threads = 256} : f32, f32
    ```
  }];
  let arguments = (ins Variadic<F32>:$values,
                       Optional<Credit_WorkgroupScratch>:$scratch,
                       Optional<Index>:$offset,
                       ArrayAttr:$combiners,
                       ConfinedAttr<I32Attr, [IntMinValue<32>]>:$group_threads);
  let results = (outs Variadic<F32>:$results);
  let assemblyFormat = [{
    custom<CombinerList>($combiners) $values
    (`scratch` `(` $scratch^ `[` $offset `]` `:` type($scratch) `)`)?
    attr-dict `:` type($values)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The combiner kinds, one per value.
    ::llvm::SmallVector<CombinerKind> getCombinerKinds();
  }];
}

def Credit_ClusterReduceOp : Credit_Op<"cluster_reduce", [
    AttrSizedOperandSegments, AllTypesMatch<["values", "results"]>]> {
  let summary = "combines CTA-uniform values across a thread-block cluster";
  let description = [{
    Every CTA of a cluster of `cluster` CTAs contributes `values` that are
    the same in all of its threads (a block reduction's results). Threads
    0 .. cluster-1 of each CTA store the values into `scratch` of every peer
    through distributed shared memory (CTA r's value k lands at
    `offset + r * K + k`). Once they are there, lane i of every warp loads
    rank `i % cluster`'s entries and the cluster's lanes combine them with
    xor shuffles (as `block_reduce` combines a warp's lanes), the same
    operations in the same lanes of every warp and CTA, so all CTAs get
    bit-identical `results`.

    How a CTA learns that its entries are there is the exchange protocol:

    - with `mbarrier(%bars[%i] phase %p)` (asynchronous): the stores are
      `st.async` writes that complete on mbarrier `%bars[%i]` of the
      receiving CTA (initialized with an arrival count of 1), one vector
      write per 2 or 4 values where the scratch global's alignment and the
      arithmetic of `offset` show them aligned for every rank; thread 0 sets
      its expected transaction bytes (`cluster * K * 4`) and arrives, and
      every thread waits for phase parity `%p` to complete. No CTA waits
      for anything but the bytes it receives;
    - without it: plain DSMEM stores, then the whole cluster synchronizes
      with a release arrive and an acquire wait.

    The caller keeps the barrier discipline: a peer must have started (and
    initialized its mbarriers) before the first store into its shared
    memory, and `scratch` at `offset` (and the mbarrier) may not be reused
    until every peer has read it (alternate two buffers; with the
    asynchronous protocol a peer can only run one exchange ahead, since it
    needs this CTA's values to finish it).

    ```mlir
    %s = credit.cluster_reduce [add] %a
        scratch(%buf[%off] : memref<32xf32, #gpu.address_space<workgroup>>)
        mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>)
        {cluster = 4} : f32
    ```
  }];
  let arguments = (ins Variadic<F32>:$values,
                       Credit_WorkgroupScratch:$scratch,
                       Index:$offset,
                       Optional<MemRefRankOf<[I64], [1]>>:$barriers,
                       Optional<Index>:$barrierIndex,
                       Optional<Index>:$phase,
                       ArrayAttr:$combiners,
                       I32Attr:$cluster);
  let results = (outs Variadic<F32>:$results);
  let assemblyFormat = [{
    custom<CombinerList>($combiners) $values
    `scratch` `(` $scratch `[` $offset `]` `:` type($scratch) `)`
    (`mbarrier` `(` $barriers^ `[` $barrierIndex `]` `phase` $phase `:`
       type($barriers) `)`)?
    attr-dict `:` type($values)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The combiner kinds, one per value.
    ::llvm::SmallVector<CombinerKind> getCombinerKinds();
  }];
}

def Credit_GridReduceOp : Credit_Op<"grid_reduce", [
    AllTypesMatch<["values", "results"]>]> {
  let summary = "combines CTA-uniform values across the clusters of a split row";
  let description = [{
    A row split over `splits` clusters: every cluster contributes `values`
    that are the same in all threads of all its CTAs (a cluster reduction's
    results), and every CTA receives the combination of all `splits`
    contributions, computed by the same operations in every CTA, so the
    whole row gets bit-identical `results`.

    Thread 0 of the CTA where `publish` holds (one per cluster) stores the
    values into global memory at `partials[entry + split * K + k]` and adds
    one to `counters[row]` with release semantics. The first warp of every
    CTA then polls `counters[row]` with acquire loads until it reaches
    `arrivals` (every cluster's contribution of this exchange is there),
    loads the contributions (lane i those of splits i, i + 32, ...),
    combines them with warp shuffles, and hands the results to its CTA
    through `scratch` at `offset` (K entries) and a CTA barrier.

    The counter counts through all exchanges of a row: `arrivals` is the
    count once this exchange is complete (`splits` times the exchanges so
    far). On a row's last exchange `departures` is the number of CTAs
    that poll it: each counts itself out after reading with an increment
    that wraps (`red.inc` with `arrivals + departures - 1`), so the last
    one leaves zero for the next launch without waiting for an answer.
    The clusters wait for each other: every cluster of the launch must be
    resident, which the grid rule ensures. Every thread of the CTA must
    execute the op.

    ```mlir
    %s = credit.grid_reduce [add] %a
        partials(%p[%entry] : !llvm.ptr<1>) counters(%c[%row] : !llvm.ptr<1>)
        split(%split) publish(%first)
        scratch(%buf[%off] : memref<4xf32, #gpu.address_space<workgroup>>)
        {splits = 4, arrivals = 4, departures = 16} : f32
    ```
  }];
  let arguments = (ins Variadic<F32>:$values,
                       LLVM_PointerInAddressSpace<1>:$partials,
                       Index:$entry,
                       LLVM_PointerInAddressSpace<1>:$counters,
                       Index:$row,
                       Index:$split,
                       I1:$publish,
                       Credit_WorkgroupScratch:$scratch,
                       Index:$offset,
                       ArrayAttr:$combiners,
                       I32Attr:$splits,
                       I64Attr:$arrivals,
                       DefaultValuedAttr<I32Attr, "0">:$departures);
  let results = (outs Variadic<F32>:$results);
  let assemblyFormat = [{
    custom<CombinerList>($combiners) $values
    `partials` `(` $partials `[` $entry `]` `:` qualified(type($partials)) `)`
    `counters` `(` $counters `[` $row `]` `:` qualified(type($counters)) `)`
    `split` `(` $split `)` `publish` `(` $publish `)`
    `scratch` `(` $scratch `[` $offset `]` `:` type($scratch) `)`
    attr-dict `:` type($values)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The combiner kinds, one per value.
    ::llvm::SmallVector<CombinerKind> getCombinerKinds();
  }];
}

#endif // CREDIT_DIALECT_CREDITOPS_TD
