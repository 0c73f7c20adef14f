//===- RowwiseToLaunch.cpp - host launches of the kernels -----------------===//
//
// Part of the CREDIT project.
//
// The host side of credit-to-ptx{keep-host=true}: each credit.rowwise op
// that credit-cluster-tiling outlined becomes launches of its kernels, made
// from their manifests, the launch contract the Python runtime follows too:
// the kernel chosen for the call's M (the manifests' row ranges), bare
// pointers and row strides in the manifest's parameter order, the grid
// rule, the block, the cluster and the dynamic shared memory. A one-wave
// grid takes the co-resident clusters the plan computed for the chip from
// its profile; the runtime asks the device instead.
//
// Tensor operands are read through bufferization.to_buffer, and each
// output is a fresh buffer handed back by bufferization.to_tensor, so that
// the host can be bufferized and lowered further by the embedding compiler
// (gpu-to-llvm lowers the launches to the GPU runtime's cluster launch).
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/Passes.h"

#include "Credit/Dialect/CreditDialect.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CONVERTCREDITTOGPULAUNCH
#include "Credit/Conversion/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

namespace {
/// What a launch needs from one kernel's manifest.
struct LaunchContract {
  StringRef name;
  int64_t threads = 0, cluster = 0, dynamicSharedBytes = 0, rowsPerCta = 1,
          activeClusters = 1;
  StringRef policy;
  /// A one-wave kernel takes a cluster per row group from this many row
  /// groups per resident cluster (0: never).
  int64_t rowGroupLaunchShare = 0;
  /// [min, max] row counts, max 0: no bound.
  SmallVector<std::pair<int64_t, int64_t>> rows;
  SmallVector<StringRef> roles;
};

/// The memrefs the kernels read and write, by operand group.
struct HostOperands {
  SmallVector<Value> inputs, broadcasts, scalars, outputs, scalarOutputs,
      columnSums;
};
} // namespace

/// Reads `manifest`; the dialect verified its shape when it was attached,
/// so a missing field means a manifest of another version.
static FailureOr<LaunchContract> readContract(RowwiseOp op,
                                              DictionaryAttr manifest) {
  LaunchContract contract;
  auto fail = [&](StringRef field) {
    return op.emitError() << "convert-credit-to-gpu-launch: the manifest of '"
                          << contract.name << "' has no valid '" << field
                          << "'";
  };
  auto name = manifest.getAs<StringAttr>("name");
  if (!name)
    return fail("name");
  contract.name = name.getValue();
  auto first = [&](StringRef key) -> std::optional<int64_t> {
    auto array = manifest.getAs<ArrayAttr>(key);
    if (!array || array.empty() || !isa<IntegerAttr>(array[0]))
      return std::nullopt;
    return cast<IntegerAttr>(array[0]).getInt();
  };
  std::optional<int64_t> threads = first("block"), cluster = first("cluster");
  auto shared = manifest.getAs<IntegerAttr>("dynamic_shared_memory");
  auto grid = manifest.getAs<DictionaryAttr>("grid");
  auto plan = manifest.getAs<DictionaryAttr>("plan");
  auto rows = manifest.getAs<ArrayAttr>("rows");
  auto params = manifest.getAs<ArrayAttr>("params");
  if (!threads || !cluster)
    return fail(!threads ? "block" : "cluster");
  if (!shared)
    return fail("dynamic_shared_memory");
  auto policy = grid ? grid.getAs<StringAttr>("policy") : StringAttr();
  auto rowsPerCta = grid ? grid.getAs<IntegerAttr>("rows_per_cta") : nullptr;
  if (!policy || !rowsPerCta)
    return fail("grid");
  // Split rows wait on arrival counters that must be zero at launch and
  // stay owned by a runtime across launches; a kept host has none.
  if (auto splits = grid.getAs<IntegerAttr>("clusters_per_row");
      splits && splits.getInt() > 1)
    return op.emitError() << "convert-credit-to-gpu-launch: '" << contract.name
                          << "' splits rows over " << splits.getInt()
                          << " clusters, which needs CREDIT's runtime "
                             "(zeroed arrival counters); keep-host compiles "
                             "tilings without splits";
  auto active = plan ? plan.getAs<IntegerAttr>("co_resident_clusters") : nullptr;
  if (!active)
    return fail("plan");
  contract.threads = *threads;
  contract.cluster = *cluster;
  contract.dynamicSharedBytes = shared.getInt();
  contract.policy = policy.getValue();
  contract.rowsPerCta = std::max<int64_t>(1, rowsPerCta.getInt());
  contract.activeClusters = std::max<int64_t>(1, active.getInt());
  if (auto share = grid.getAs<IntegerAttr>("row_group_launch_share"))
    contract.rowGroupLaunchShare = std::max<int64_t>(0, share.getInt());
  if (!rows)
    return fail("rows");
  for (Attribute range : rows) {
    auto pair = dyn_cast<ArrayAttr>(range);
    if (!pair || pair.size() != 2 || !isa<IntegerAttr>(pair[0]))
      return fail("rows");
    auto max = dyn_cast<IntegerAttr>(pair[1]);
    contract.rows.push_back(
        {cast<IntegerAttr>(pair[0]).getInt(), max ? max.getInt() : 0});
  }
  if (!params)
    return fail("params");
  for (Attribute param : params) {
    auto dict = dyn_cast<DictionaryAttr>(param);
    auto role = dict ? dict.getAs<StringAttr>("role") : StringAttr();
    if (!role)
      return fail("params");
    contract.roles.push_back(role.getValue());
  }
  return contract;
}

/// The address of `memref`'s first element, as the kernels take it.
static Value getPointer(OpBuilder &b, Location loc, Value memref,
                        memref::ExtractStridedMetadataOp metadata) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value bytes = arith::MulIOp::create(
      b, loc, metadata.getOffset(),
      arith::ConstantIndexOp::create(b, loc,
                                     element.getIntOrFloatBitWidth() / 8));
  Value address = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, aligned, bytes));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), address);
}

/// The kernel arguments for `operands`, in the manifest's order: pointers,
/// row strides after row-shaped ones, then m and the rows per cluster.
static SmallVector<Value> getArguments(OpBuilder &b, Location loc,
                                       const LaunchContract &contract,
                                       const HostOperands &operands, Value m,
                                       Value rowsPerCluster) {
  DenseMap<StringRef, unsigned> next;
  auto groupOf = [&](StringRef role) -> ArrayRef<Value> {
    if (role == "row_input")
      return operands.inputs;
    if (role == "broadcast_input")
      return operands.broadcasts;
    if (role == "scalar_input")
      return operands.scalars;
    if (role == "row_output")
      return operands.outputs;
    if (role == "scalar_output")
      return operands.scalarOutputs;
    return operands.columnSums;
  };
  SmallVector<Value> args;
  Value last;
  memref::ExtractStridedMetadataOp metadata;
  Type i64 = b.getI64Type();
  for (StringRef role : contract.roles) {
    if (role == "row_stride") {
      args.push_back(arith::IndexCastOp::create(b, loc, i64,
                                                metadata.getStrides()[0]));
    } else if (role == "m") {
      args.push_back(arith::IndexCastOp::create(b, loc, i64, m));
    } else if (role == "rows_per_cluster") {
      args.push_back(arith::IndexCastOp::create(b, loc, i64, rowsPerCluster));
    } else {
      last = groupOf(role)[next[role]++];
      metadata = memref::ExtractStridedMetadataOp::create(b, loc, last);
      args.push_back(getPointer(b, loc, last, metadata));
    }
  }
  return args;
}

/// Launches the kernel of `contract` over `m` rows.
static void emitLaunch(OpBuilder &b, Location loc,
                       const LaunchContract &contract,
                       const HostOperands &operands, Value m) {
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value one = index(1), group = index(contract.rowsPerCta);
  Value rowsPerCluster, clusters;
  if (contract.policy == "row_blocks") {
    // One cluster per row block of the column-sum outputs.
    clusters = memref::DimOp::create(b, loc, operands.columnSums.front(), 0);
    rowsPerCluster = arith::MaxUIOp::create(
        b, loc, one, arith::CeilDivUIOp::create(b, loc, m, clusters));
  } else if (contract.policy == "one_wave") {
    // An equal share of whole row groups for each resident cluster.
    Value active = index(contract.activeClusters);
    Value share = arith::CeilDivUIOp::create(b, loc, m, active);
    Value groups = arith::CeilDivUIOp::create(b, loc, share, group);
    rowsPerCluster = arith::MaxUIOp::create(
        b, loc, group, arith::MulIOp::create(b, loc, groups, group));
    // Or a cluster per row group from the manifest's share of row groups
    // per resident cluster.
    if (contract.rowGroupLaunchShare > 0) {
      Value perCluster = arith::CeilDivUIOp::create(
          b, loc, arith::CeilDivUIOp::create(b, loc, m, group), active);
      Value many = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         perCluster,
                                         index(contract.rowGroupLaunchShare));
      rowsPerCluster =
          arith::SelectOp::create(b, loc, many, group, rowsPerCluster);
    }
    clusters = arith::CeilDivUIOp::create(b, loc, m, rowsPerCluster);
  } else {
    rowsPerCluster = group;
    clusters = arith::CeilDivUIOp::create(b, loc, m, group);
  }
  Value cluster = index(contract.cluster);
  Value gridX = arith::MulIOp::create(b, loc, clusters, cluster);
  SmallVector<Value> args =
      getArguments(b, loc, contract, operands, m, rowsPerCluster);
  Value shared = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                              contract.dynamicSharedBytes);
  auto kernel = SymbolRefAttr::get(
      b.getContext(), contract.name,
      {FlatSymbolRefAttr::get(b.getContext(), contract.name)});
  gpu::LaunchFuncOp::create(b, loc, kernel,
                            gpu::KernelDim3{gridX, one, one},
                            gpu::KernelDim3{index(contract.threads), one, one},
                            shared, args, Type(), ValueRange(),
                            gpu::KernelDim3{cluster, one, one});
}

/// Launches, among `contracts`, the one whose row ranges hold `m`.
static void emitChoice(OpBuilder &b, Location loc,
                       ArrayRef<LaunchContract> contracts,
                       const HostOperands &operands, Value m) {
  if (contracts.size() == 1)
    return emitLaunch(b, loc, contracts.front(), operands, m);
  Value holds;
  for (auto [min, max] : contracts.front().rows) {
    Value range = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, m,
        arith::ConstantIndexOp::create(b, loc, min));
    if (max)
      range = arith::AndIOp::create(
          b, loc, range,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, m,
                                arith::ConstantIndexOp::create(b, loc, max)));
    holds = holds ? arith::OrIOp::create(b, loc, holds, range) : range;
  }
  scf::IfOp::create(
      b, loc, holds,
      [&](OpBuilder &then, Location l) {
        emitLaunch(then, l, contracts.front(), operands, m);
        scf::YieldOp::create(then, l);
      },
      [&](OpBuilder &otherwise, Location l) {
        emitChoice(otherwise, l, contracts.drop_front(), operands, m);
        scf::YieldOp::create(otherwise, l);
      });
}

/// Replaces `op` by launches of its kernels.
static LogicalResult lowerToLaunches(RewriterBase &rewriter, RowwiseOp op,
                                     DictionaryAttr manifests) {
  auto kernels = op->getAttrOfType<ArrayAttr>(CreditDialect::kKernelsAttrName);
  if (!kernels || kernels.empty())
    return op.emitError("convert-credit-to-gpu-launch: the op has no kernels; "
                        "run credit-cluster-tiling first");
  SmallVector<LaunchContract> contracts;
  for (Attribute kernel : kernels) {
    auto symbol = cast<SymbolRefAttr>(kernel);
    auto manifest = manifests.getAs<DictionaryAttr>(
        symbol.getRootReference().getValue());
    if (!manifest)
      return op.emitError() << "convert-credit-to-gpu-launch: no manifest for "
                            << symbol;
    FailureOr<LaunchContract> contract = readContract(op, manifest);
    if (failed(contract))
      return failure();
    contracts.push_back(*contract);
  }

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // Memrefs of every operand; tensors are read through to_buffer and
  // written into fresh buffers.
  HostOperands operands;
  SmallVector<Value> results;
  auto asBuffer = [&](Value value) -> Value {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor)
      return value;
    auto type = MemRefType::get(tensor.getShape(), tensor.getElementType());
    return bufferization::ToBufferOp::create(rewriter, loc, type, value,
                                             /*read_only=*/true);
  };
  auto newBuffer = [&](Value init) -> Value {
    auto tensor = dyn_cast<RankedTensorType>(init.getType());
    if (!tensor)
      return init;
    SmallVector<Value> sizes;
    for (int64_t dim = 0; dim < tensor.getRank(); ++dim)
      if (tensor.isDynamicDim(dim))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, init, dim));
    Value buffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(tensor.getShape(), tensor.getElementType()), sizes);
    results.push_back(bufferization::ToTensorOp::create(
        rewriter, loc, tensor, buffer, /*restrict=*/true, /*writable=*/true));
    return buffer;
  };
  for (Value v : op.getInputs())
    operands.inputs.push_back(asBuffer(v));
  for (Value v : op.getBroadcasts())
    operands.broadcasts.push_back(asBuffer(v));
  for (Value v : op.getScalars())
    operands.scalars.push_back(asBuffer(v));
  for (Value v : op.getOutputs())
    operands.outputs.push_back(newBuffer(v));
  for (Value v : op.getScalarOutputs())
    operands.scalarOutputs.push_back(newBuffer(v));
  for (Value v : op.getColumnSumOutputs())
    operands.columnSums.push_back(newBuffer(v));

  Value m = memref::DimOp::create(rewriter, loc, operands.inputs.front(), 0);
  if (contracts.front().policy == "row_blocks") {
    // Launched even without rows: the kernel writes the zero column sums.
    emitChoice(rewriter, loc, contracts, operands, m);
  } else {
    Value any = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, m,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    scf::IfOp::create(rewriter, loc, any, [&](OpBuilder &b, Location l) {
      emitChoice(b, l, contracts, operands, m);
      scf::YieldOp::create(b, l);
    });
  }
  // The to_tensor ops were built before the launches: move them after, so
  // that they read what the kernels wrote.
  for (Value result : results)
    result.getDefiningOp()->moveBefore(op);
  rewriter.replaceOp(op, results);
  return success();
}

LogicalResult mlir::credit::convertRowwiseToLaunches(RewriterBase &rewriter,
                                                     ModuleOp module) {
  auto manifests =
      module->getAttrOfType<DictionaryAttr>(CreditDialect::kKernelsAttrName);
  SmallVector<RowwiseOp> ops;
  module.walk([&](RowwiseOp op) { ops.push_back(op); });
  if (!ops.empty() && !manifests)
    return ops.front().emitError("convert-credit-to-gpu-launch: the module "
                                 "has no kernels; run credit-cluster-tiling "
                                 "first");
  for (RowwiseOp op : ops)
    if (failed(lowerToLaunches(rewriter, op, manifests)))
      return failure();
  return success();
}

namespace {
struct ConvertCreditToGPULaunchPass
    : public credit::impl::ConvertCreditToGPULaunchBase<
          ConvertCreditToGPULaunchPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(convertRowwiseToLaunches(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
