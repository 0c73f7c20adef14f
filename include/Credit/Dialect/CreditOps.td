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

    N must be static and agree everywhere; M may be dynamic. All operands are
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
    - `epilogue (args) { ... }`, with the arguments of a stage after the last
      one, yields one value per row output and one f32 per column-sum
      output. It is required when the op has row or column-sum outputs.
    - `finalize (args) { ... }` takes the scalar inputs and the results of
      all stages and yields one value per scalar output. It is required when
      the op has scalar outputs.

    Values that depend only on the row (such as `rsqrt(var + eps)`) may be
    written inside the element regions; the lowering computes them once per
    row.

    Optional attributes: `workload` names the computation for artifacts and
    reports, `tiling` is the chosen `#credit.tiling` and `cost` the cost
    model's `#credit.cost` annotation.

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
    /// The static row length N.
    int64_t getRowLength();
    /// The number of reduction stages.
    unsigned getNumStages() { return getStages().size(); }
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

#endif // CREDIT_DIALECT_CREDITOPS_TD
