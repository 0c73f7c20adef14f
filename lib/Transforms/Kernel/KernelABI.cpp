//===- KernelABI.cpp - kernel parameters and the manifest -----------------===//
//
// Part of the CREDIT project.
//
// The launch ABI: one bare global pointer per operand, a 64-bit row stride
// after each row-shaped pointer, for split rows the runtime's partial-value
// and counter buffers, then m and rows_per_cluster. The manifest
// records it with the plan the kernel was built from.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

StringRef mlir::credit::detail::stringifyType(Type type) {
  if (type.isF32())
    return "f32";
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  if (type.isInteger(8))
    return "i8";
  if (type.isInteger(32))
    return "i32";
  if (type.isInteger(64))
    return "i64";
  return "unknown";
}

void KernelEmitter::createParameters() {
  auto addPointers = [&](ValueRange operands, StringRef prefix, StringRef role,
                         StringRef shape, bool withStride) {
    for (auto [i, operand] : llvm::enumerate(operands)) {
      std::string name = (prefix + Twine(i)).str();
      params.push_back({name, "ptr", role, elementTypeOf(operand), shape});
      if (withStride)
        params.push_back({name + "_stride", "i64", "row_stride", Type(), ""});
    }
  };
  addPointers(op.getInputs(), "in", "row_input", "m,n", true);
  addPointers(op.getBroadcasts(), "bcast", "broadcast_input", "n", false);
  addPointers(op.getScalars(), "scalar", "scalar_input", "m", false);
  addPointers(op.getOutputs(), "out", "row_output", "m,n", true);
  addPointers(op.getScalarOutputs(), "scalar_out", "scalar_output", "m", false);
  addPointers(op.getColumnSumOutputs(), "colsum_out", "column_sum_output",
              "p,n", false);
  if (plan.splits > 1) {
    // f32 [m, split_partial_floats_per_row], and i32 [m] that are zero
    // before the first launch (every launch leaves them zero).
    params.push_back({"split_partials", "ptr", "split_partials",
                      b.getF32Type(), "m,split_partial_floats_per_row"});
    params.push_back(
        {"split_counters", "ptr", "split_counters", b.getI32Type(), "m"});
  }
  params.push_back({"m", "i64", "m", Type(), ""});
  params.push_back({"rows_per_cluster", "i64", "rows_per_cluster", Type(), ""});
}

void KernelEmitter::bindParameters(Block &entry) {
  // In the order createParameters() listed them.
  auto args = entry.getArguments();
  unsigned next = 0;
  auto takePointers = [&](ValueRange operands, SmallVectorImpl<Value> &ptrs,
                          SmallVectorImpl<Value> *strides) {
    for (size_t i = 0, e = operands.size(); i < e; ++i) {
      ptrs.push_back(args[next++]);
      if (strides)
        strides->push_back(toIndex(args[next++]));
    }
  };
  takePointers(op.getInputs(), pointers.inputs, &inputStrides);
  takePointers(op.getBroadcasts(), pointers.broadcasts, nullptr);
  takePointers(op.getScalars(), pointers.scalars, nullptr);
  takePointers(op.getOutputs(), pointers.outputs, &outputStrides);
  takePointers(op.getScalarOutputs(), pointers.scalarOutputs, nullptr);
  takePointers(op.getColumnSumOutputs(), pointers.columnSums, nullptr);
  if (plan.splits > 1) {
    pointers.splitPartials = args[next++];
    pointers.splitCounters = args[next++];
  }
  Value m64 = args[next++];
  rowsPerCluster = toIndex(args[next++]);
  m = toIndex(m64);
}

void KernelEmitter::createOperandViews() {
  auto globalSpace =
      gpu::AddressSpaceAttr::get(op.getContext(), gpu::AddressSpace::Global);
  auto view = [&](Value pointer, Type element, Value size) -> Value {
    auto type = MemRefType::get({ShapedType::kDynamic}, element,
                                MemRefLayoutAttrInterface(), globalSpace);
    Value size64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
    return GlobalViewOp::create(b, loc, type, pointer, size64);
  };
  int64_t n = plan.n;
  for (auto [ptr, operand, stride] :
       llvm::zip(pointers.inputs, op.getInputs(), inputStrides))
    inputViews.push_back(view(ptr, elementTypeOf(operand), mul(m, stride)));
  for (auto [ptr, operand] : llvm::zip(pointers.broadcasts, op.getBroadcasts()))
    broadcastViews.push_back(view(ptr, elementTypeOf(operand), index(n)));
  for (auto [ptr, operand] : llvm::zip(pointers.scalars, op.getScalars()))
    scalarViews.push_back(view(ptr, elementTypeOf(operand), m));
  for (auto [ptr, operand, stride] :
       llvm::zip(pointers.outputs, op.getOutputs(), outputStrides))
    outputViews.push_back(view(ptr, elementTypeOf(operand), mul(m, stride)));
  for (auto [ptr, operand] :
       llvm::zip(pointers.scalarOutputs, op.getScalarOutputs()))
    scalarOutputViews.push_back(view(ptr, elementTypeOf(operand), m));
  // One block of N column sums per row group of the grid.
  Value numGroups = arith::DivUIOp::create(
      b, loc, gpu::GridDimOp::create(b, loc, gpu::Dimension::x),
      index(plan.ctasPerRow));
  for (auto [ptr, operand] :
       llvm::zip(pointers.columnSums, op.getColumnSumOutputs()))
    columnSumViews.push_back(
        view(ptr, elementTypeOf(operand), mul(numGroups, index(n))));
}

DictionaryAttr
KernelEmitter::getManifest(StringRef name,
                           ArrayRef<std::pair<int64_t, int64_t>> rowRanges,
                           int64_t rowGroupLaunchShare) {
  MLIRContext *ctx = op.getContext();
  auto str = [&](StringRef s) { return StringAttr::get(ctx, s); };
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  auto f64 = [&](double v) { return b.getF64FloatAttr(v); };
  auto entry = [&](StringRef key, Attribute value) {
    return NamedAttribute(str(key), value);
  };

  SmallVector<Attribute> paramAttrs;
  for (const KernelParam &param : params) {
    SmallVector<NamedAttribute> fields = {entry("name", str(param.name)),
                                          entry("kind", str(param.kind)),
                                          entry("role", str(param.role))};
    if (param.elementType) {
      fields.push_back(entry("dtype", str(stringifyType(param.elementType))));
      fields.push_back(entry("shape", str(param.shape)));
    }
    paramAttrs.push_back(DictionaryAttr::get(ctx, fields));
  }
  auto dtypes = [&](ValueRange operands) {
    return ArrayAttr::get(
        ctx, llvm::map_to_vector(operands, [&](Value v) -> Attribute {
          return str(stringifyType(elementTypeOf(v)));
        }));
  };
  // The grid rule, in words the runtime implements (launcher.py).
  StringRef clusters, rowsRule;
  // A split row's clusters wait for each other: every cluster of the grid
  // must be resident (groups <= floor(active clusters / clusters_per_row)).
  switch (plan.grid) {
  case GridPolicy::RowGroupPerCluster:
    clusters = "ceil(m / rows_per_cluster)";
    rowsRule = "rows_per_cta";
    break;
  case GridPolicy::OneWave:
    clusters = "ceil(m / rows_per_cluster) * clusters_per_row";
    rowsRule = rowGroupLaunchShare
                   ? "rows_per_cta from row_group_launch_share row groups "
                     "per resident group (share: ceil(ceil(m / "
                     "rows_per_cta) / floor(active clusters / "
                     "clusters_per_row))), else ceil(m / floor(active "
                     "clusters / clusters_per_row)), a multiple of "
                     "rows_per_cta"
                   : "ceil(m / floor(active clusters / clusters_per_row)), "
                     "a multiple of rows_per_cta";
    break;
  case GridPolicy::RowBlocks:
    clusters = "p * clusters_per_row";
    rowsRule = "ceil(m / p)";
    break;
  }
  SmallVector<NamedAttribute> grid = {
      entry("policy", str(stringifyGridPolicy(plan.grid))),
      entry("ctas_per_cluster", i64(plan.cluster)),
      entry("clusters_per_row", i64(plan.splits)),
      entry("rows_per_cta", i64(plan.rows)),
      entry("row_group_launch_share", i64(rowGroupLaunchShare)),
      entry("clusters", str(clusters)),
      entry("rows_per_cluster", str(rowsRule)),
      entry("grid_x", str("clusters * ctas_per_cluster")),
  };
  SmallVector<NamedAttribute> tilingFields = {
      entry("cluster", i64(plan.cluster)),
      entry("threads", i64(plan.threads)),
      entry("vector", i64(plan.vector)),
      entry("elems", i64(plan.elems)),
      entry("rows", i64(plan.rows)),
      entry("staging", str(stringifyStaging(plan.staging))),
      entry("slice", i64(plan.slice)),
      entry("sweeps", i64(plan.sweeps)),
      entry("splits", i64(plan.splits)),
      entry("exchange", str(stringifyExchange(plan.exchange))),
  };
  SmallVector<NamedAttribute> planFields = {
      entry("compulsory_bytes_per_row", i64(plan.compulsoryBytesPerRow)),
      entry("reread_bytes_per_row", i64(plan.rereadBytesPerRow)),
      entry("broadcast_bytes_per_row", i64(plan.broadcastBytesPerRow)),
      entry("broadcast_bytes_per_cta", i64(plan.broadcastBytesPerCta)),
      entry("dsmem_bytes_per_row", i64(plan.dsmemBytesPerRow)),
      entry("exchange_rounds", i64(plan.exchangeRounds)),
      entry("grid_rounds", i64(plan.gridRounds)),
      entry("split_partial_floats_per_row", i64(plan.splitPartialFloatsPerRow)),
      entry("block_rounds", i64(plan.blockRounds)),
      entry("dram_rounds", i64(plan.dramRounds)),
      entry("reread_rounds", i64(plan.rereadRounds)),
      entry("shared_bytes_per_row", i64(plan.sharedBytesPerRow)),
      entry("column_sum_bytes_per_row", i64(plan.columnSumBytesPerRow)),
      entry("global_accesses_per_element", f64(plan.globalAccessesPerElement)),
      entry("shared_accesses_per_element", f64(plan.sharedAccessesPerElement)),
      entry("ops_per_element", f64(plan.opsPerElement)),
      entry("staged_values", i64(plan.stagedValues)),
      entry("carried_values", i64(plan.carriedValues)),
      entry("exponentials", i64(plan.exponentials)),
      entry("index_values", i64(plan.indexValues)),
      entry("masked_chunks", i64(plan.maskedChunks)),
      entry("integer_masks", b.getBoolAttr(plan.integerMasks)),
      entry("estimated_registers", i64(plan.estimatedRegisters)),
      entry("register_budget", i64(plan.registerBudget)),
      entry("ctas_per_sm", i64(plan.ctasPerSM)),
      entry("occupancy_limit",
            str(stringifyOccupancyLimit(plan.occupancyLimit))),
      entry("occupancy", f64(plan.occupancy)),
      entry("co_resident_clusters", i64(plan.coResidentClusters)),
      entry("co_resident_groups", i64(plan.coResidentGroups)),
  };
  // [min, max] row counts; null: no upper bound.
  SmallVector<Attribute> ranges;
  for (auto [min, max] : rowRanges)
    ranges.push_back(b.getArrayAttr(
        {i64(min), max ? Attribute(i64(max)) : Attribute(b.getUnitAttr())}));
  SmallVector<NamedAttribute> fields = {
      entry("name", str(name)),
      entry("rows", b.getArrayAttr(ranges)),
      entry("workload", str(op.getWorkload().value_or("rowwise"))),
      entry("n", i64(plan.n)),
      entry("block", b.getI64ArrayAttr({plan.threads, 1, 1})),
      entry("cluster", b.getI64ArrayAttr({plan.cluster, 1, 1})),
      entry("dynamic_shared_memory", i64(plan.dynamicSharedBytes)),
      entry("static_shared_memory", i64(plan.staticSharedBytes)),
      entry("grid", DictionaryAttr::get(ctx, grid)),
      entry("tiling", DictionaryAttr::get(ctx, tilingFields)),
      entry("plan", DictionaryAttr::get(ctx, planFields)),
      entry("params", ArrayAttr::get(ctx, paramAttrs)),
      entry("input_dtypes", dtypes(op.getInputs())),
      entry("broadcast_dtypes", dtypes(op.getBroadcasts())),
      entry("scalar_dtypes", dtypes(op.getScalars())),
      entry("output_dtypes", dtypes(op.getOutputs())),
      entry("scalar_output_dtypes", dtypes(op.getScalarOutputs())),
      entry("column_sum_output_dtypes", dtypes(op.getColumnSumOutputs())),
      // Row and broadcast pointers must be aligned to a whole vector and
      // row strides must be multiples of the vector width.
      entry("pointer_alignment",
            i64(std::min<int64_t>(16, plan.vector * plan.widestElementBytes))),
      entry("stride_multiple", i64(plan.vector)),
      // The kernel waits for the grid before it (emitGridDependencyWait): the
      // runtime may launch it with programmatic stream serialization.
      entry("dependent_launch", b.getBoolAttr(true)),
  };
  return DictionaryAttr::get(ctx, fields);
}
