//===- CreditAttrs.td - credit attributes and enums ---------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_CREDITATTRS_TD
#define CREDIT_DIALECT_CREDITATTRS_TD

include "Credit/Dialect/CreditDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// How the partial values of a reduction stage are combined.
def Credit_CombinerKind : I32EnumAttr<"CombinerKind", "combiner kind", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Max", 1, "max">,
      I32EnumAttrCase<"Min", 2, "min">,
      I32EnumAttrCase<"AddExp", 3, "addexp">,
      I32EnumAttrCase<"SqDev", 4, "sqdev">
    ]> {
  let cppNamespace = "::mlir::credit";
  let genSpecializedAttr = 0;
}

def Credit_CombinerKindAttr
    : EnumAttr<Credit_Dialect, Credit_CombinerKind, "combiner"> {
  let assemblyFormat = "`<` $value `>`";
}

// Where a CTA keeps its slice of the row between the reduction stages and
// the epilogue.
def Credit_Staging : I32EnumAttr<"Staging", "staging", [
      I32EnumAttrCase<"Registers", 0, "registers">,
      I32EnumAttrCase<"Shared", 1, "shared">,
      I32EnumAttrCase<"Reread", 2, "reread">,
      I32EnumAttrCase<"Async", 3, "async">,
      I32EnumAttrCase<"Mixed", 4, "mixed">
    ]> {
  let cppNamespace = "::mlir::credit";
  let genSpecializedAttr = 0;
}

// How the CTAs of a cluster hand each other a reduction stage's partial
// values.
def Credit_Exchange : I32EnumAttr<"Exchange", "exchange", [
      I32EnumAttrCase<"Async", 0, "async">,
      I32EnumAttrCase<"Barrier", 1, "barrier">
    ]> {
  let cppNamespace = "::mlir::credit";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// A count in a tiling. Parsed as a signed 64-bit integer and range-checked,
// so that `-4` is reported as -4 rather than wrapped to 4294967292.
def Credit_Count : AttrParameter<"unsigned", "a count"> {
  let parser = "::mlir::credit::parseTilingCount($_parser)";
}
def Credit_RowsCount : DefaultValuedParameter<"unsigned", "1"> {
  let parser = "::mlir::credit::parseTilingCount($_parser)";
}

class Credit_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Credit_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Credit_TilingAttr : Credit_Attr<"Tiling", "tiling"> {
  let summary = "how a rowwise op is split over the CTAs of a cluster";
  let description = [{
    A tiling says how one row is covered on the GPU:

    - `cluster`: CTAs of one thread-block cluster that share a row
      (1, 2, 4, 8 or 16). 1 is the path without distributed shared memory.
    - `threads`: threads per CTA, a multiple of 32 up to 1024.
    - `vector`: elements per vectorized global access (1, 2, 4, 8 or 16);
      the access may not exceed 16 bytes for the row's element types.
    - `elems`: elements of the row each thread handles in one sweep, a
      multiple of `vector`, at most 4096. With `registers` staging a CTA
      makes one sweep, so `cluster` CTAs with `threads / rows` threads per
      row and `elems` elements per thread must cover the row; with `shared`
      or `reread` staging a CTA sweeps its slice of `ceil(N / cluster)`
      elements as often as needed.
    - `rows`: rows handled by one CTA at a time (default 1); more than one
      needs `cluster = 1` and must divide `threads` into whole warps.
    - `staging`: where each CTA keeps its slice between the reductions and
      the epilogue: `registers` (default), `shared` memory (the slice must
      fit in the shared memory a CTA can have on the target chip), `async`
      (shared memory filled by asynchronous copies of the whole slice,
      `cp.async`, when a row begins: every row input's vector must be 4, 8
      or 16 bytes), `reread` from global memory for every stage, or
      `mixed`: the last row input in registers (16-bit values packed) and
      the others copied asynchronously into shared memory like `async`,
      covering the row in one sweep like `registers` (for ops with several
      row inputs whose slices fit neither in registers nor in shared memory
      alone).
    - `splits`: clusters that share a row (default 1). With more than one,
      the row is cut into `splits` parts of `cluster` CTAs each; every
      cluster reduces its part through distributed shared memory and the
      parts' partial values meet in global memory (see credit.grid_reduce),
      so a few long rows can use the whole GPU. It needs one row per CTA.
    - `exchange`: how the CTAs of a cluster hand each other a stage's
      partial values (cluster > 1 only): `async` (default) pushes them
      with `st.async` into every peer's shared memory, completing on the
      peer's transaction-counted mbarrier, so each CTA waits only for the
      bytes it receives; `barrier` stores them and meets the whole cluster
      at a release/acquire cluster barrier per stage.

    Example: `#credit.tiling<cluster = 4, threads = 512, vector = 4, elems = 32>`
  }];
  let parameters = (ins
    Credit_Count:$cluster,
    Credit_Count:$threads,
    Credit_Count:$vector,
    Credit_Count:$elems,
    Credit_RowsCount:$rows,
    DefaultValuedParameter<"::mlir::credit::Staging",
                           "::mlir::credit::Staging::Registers">:$staging,
    Credit_RowsCount:$splits,
    DefaultValuedParameter<"::mlir::credit::Exchange",
                           "::mlir::credit::Exchange::Async">:$exchange
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The most elements per thread a tiling may name (a chip allows far
    /// fewer; see Credit/Analysis/Plan.h).
    static constexpr unsigned kMaxElems = 4096;
    /// The most clusters that may share a row (a GPU holds every cluster of
    /// a split row at once; see Credit/Analysis/Plan.h).
    static constexpr unsigned kMaxSplits = 64;
    /// Threads of one CTA that work on the same row.
    unsigned getThreadsPerRow() const { return getThreads() / getRows(); }
    /// Elements of a row held by one CTA when the row is kept on chip.
    int64_t getElementsPerCta() const {
      return static_cast<int64_t>(getThreadsPerRow()) * getElems();
    }
    /// CTAs that share a row: the CTAs of all its clusters.
    int64_t getCtasPerRow() const {
      return static_cast<int64_t>(getCluster()) * getSplits();
    }
    /// Whether the CTA covers its slice in one sweep, holding (some of) it
    /// in registers: registers and mixed staging.
    bool isOneSweep() const {
      return getStaging() == Staging::Registers ||
             getStaging() == Staging::Mixed;
    }
    /// Elements of a row of length `n` that one CTA of the row owns: one
    /// sweep of `threads / rows * elems` elements with registers or mixed
    /// staging, else enough whole sweeps to cover `ceil(n / (cluster *
    /// splits))` elements.
    int64_t getSliceLength(int64_t n) const {
      if (isOneSweep())
        return getElementsPerCta();
      int64_t perCta = (n + getCtasPerRow() - 1) / getCtasPerRow();
      return (perCta + getElementsPerCta() - 1) / getElementsPerCta() *
             getElementsPerCta();
    }
    /// Sweeps of `threads / rows * elems` elements that make up a slice.
    int64_t getNumSweeps(int64_t n) const {
      return getSliceLength(n) / getElementsPerCta();
    }
  }];
}

def Credit_VariantAttr : Credit_Attr<"Variant", "variant"> {
  let summary = "a tiling and the row counts it is chosen for";
  let description = [{
    A kernel is compiled for one N and launched for any M, and the best
    tiling depends on M (waves of clusters, co-residency). The cost model
    chooses a few tilings and the range of M each one serves:
    `min_rows <= M <= max_rows`, where `max_rows = 0` means no upper bound.

    Example: `#credit.variant<tiling = #credit.tiling<cluster = 8, threads =
    256, vector = 8, elems = 64>, min_rows = 1, max_rows = 95>`
  }];
  let parameters = (ins
    "::mlir::credit::TilingAttr":$tiling,
    "int64_t":$minRows,
    "int64_t":$maxRows
  );
  let assemblyFormat = [{
    `<` `tiling` `=` qualified($tiling) `,` `min_rows` `=` $minRows `,`
    `max_rows` `=` $maxRows `>`
  }];
  let genVerifyDecl = 1;
}

def Credit_CostEstimateAttr : Credit_Attr<"CostEstimate", "cost"> {
  let summary = "the cost model's predictions for a rowwise op";
  let description = [{
    Records every candidate tiling the cost model considered with its
    predicted time in microseconds at `rows` rows (M, when the op's M is
    static), and whether the best candidate that uses a cluster
    (cluster > 1) is predicted to beat the best one that does not.

    Example:
    ```
    #credit.cost<rows = 4096, profitable = true, candidates = [
      #credit.tiling<cluster = 1, threads = 1024, vector = 4, elems = 64> = 41.5,
      #credit.tiling<cluster = 4, threads = 512, vector = 4, elems = 32> = 30.25]>
    ```
  }];
  let parameters = (ins
    "int64_t":$rows,
    "bool":$profitable,
    ArrayRefParameter<"::mlir::credit::TilingAttr">:$candidates,
    "::mlir::DenseF64ArrayAttr":$predictedMicros
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // CREDIT_DIALECT_CREDITATTRS_TD
