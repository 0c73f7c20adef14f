//===- ClusterTiling.cpp - credit.rowwise to cluster kernels --------------===//
//
// Part of the CREDIT project.
//
// Outlines each tiled credit.rowwise op into a gpu.func kernel in which a row
// is split across the CTAs of a cluster. Each CTA keeps its slice on chip
// (or rereads it), reduces it stage by stage with credit.block_reduce and
// credit.cluster_reduce, and reuses it in the epilogue.
//
// Barrier discipline (cluster > 1):
//  - every thread arrives (relaxed) at a cluster barrier when it starts and
//    waits on it before its first store into a peer's shared memory, so no
//    CTA writes to a peer that has not started;
//  - each cluster_reduce is a release-arrive / acquire-wait round, and the
//    scratch it uses alternates between two buffers from row to row, so a
//    peer can only overwrite a buffer after every CTA has read it;
//  - stores go to peers, reads are local, and every store into a CTA's
//    shared memory precedes that CTA's last wait: no CTA exits while a peer
//    can still touch its shared memory.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/Combiners.h"
#include "Credit/Dialect/CreditOps.h"
#include "Credit/Transforms/DefaultTiling.h"
#include "Credit/Transforms/ElementwiseCloning.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITCLUSTERTILING
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

namespace {

/// One kernel parameter, in launch order.
struct KernelParam {
  std::string name;
  /// "ptr" or "i64".
  StringRef kind;
  /// What the runtime passes: "row_input", "row_stride", "m", ...
  StringRef role;
  /// For pointers, the element type of the operand.
  Type elementType;
  /// For pointers, the operand's shape in terms of m, n and p.
  StringRef shape;
};

/// Where the current thread's chunk of a sweep lies.
struct ChunkPosition {
  /// Element offset inside the CTA's slice (and its shared-memory stage).
  Value local;
  /// Column of the row.
  Value column;
  /// Whether the chunk lies inside the row; null when that holds for every
  /// thread.
  Value inRange;
  /// inRange, and the thread's row exists; null when that holds for every
  /// thread.
  Value valid;
};

/// The per-row values of the row loop.
struct RowState {
  Value row;
  /// Null when every row group of the CTA has a row.
  Value rowValid;
  /// i1: this is the cluster's first row.
  Value first;
  /// Which of the two scratch buffers this row uses.
  Value parity;
  SmallVector<Value> scalars;
  SmallVector<Value> inputOffsets;
  SmallVector<Value> outputOffsets;
  /// Registers staging: the loaded chunks, [input][chunk], compute type.
  SmallVector<SmallVector<Value>> registers;
};

/// Builds the kernel of one credit.rowwise op.
class KernelEmitter {
public:
  KernelEmitter(RowwiseOp op, TilingAttr tiling)
      : op(op), tiling(tiling), b(op.getContext()), loc(op.getLoc()) {
    n = op.getRowLength();
    cluster = tiling.getCluster();
    threads = tiling.getThreads();
    vector = tiling.getVector();
    elems = tiling.getElems();
    rows = tiling.getRows();
    threadsPerRow = tiling.getThreadsPerRow();
    slice = tiling.getSliceLength(n);
    sweeps = tiling.getNumSweeps(n);
    chunks = elems / vector;
    numStages = op.getNumStages();
    maxWidth = op.getMaxStageWidth();
    staging = tiling.getStaging();
  }

  /// Creates the gpu.module with the kernel `name` at the end of `module`.
  gpu::GPUModuleOp emit(ModuleOp module, StringRef name);

  /// The launch contract of the kernel emitted last.
  DictionaryAttr getManifest(StringRef name);

private:
  // Small helpers.
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value toIndex(Value i64) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulIOp::create(b, loc, lhs, rhs);
  }
  Value add(Value lhs, Value rhs) {
    return arith::AddIOp::create(b, loc, lhs, rhs);
  }
  Value andOf(Value lhs, Value rhs) {
    if (!lhs)
      return rhs;
    if (!rhs)
      return lhs;
    return arith::AndIOp::create(b, loc, lhs, rhs);
  }
  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  }
  VectorType vectorOf(Type element) {
    return VectorType::get({vector}, element);
  }
  Type elementTypeOf(Value operand) {
    return cast<ShapedType>(operand.getType()).getElementType();
  }
  int64_t alignmentOf(Type element) {
    return std::min<int64_t>(16, vector * element.getIntOrFloatBitWidth() / 8);
  }

  void createParameters();
  void emitBody(gpu::GPUFuncOp func);

  ChunkPosition getChunkPosition(Value sweep, int64_t chunk, Value rowValid);
  /// A vector load that yields zeros where `valid` is false.
  Value loadVector(Value view, Value index, Type element, Value valid);
  void storeVector(Value value, Value view, Value index, Value valid);
  /// Extends float vectors to f32.
  Value toComputeType(Value value);
  /// Row input `input` at `pos`, in the compute type, for stage `stage`
  /// (`numStages` is the epilogue).
  Value getInput(RowState &state, unsigned input, unsigned chunk,
                 const ChunkPosition &pos, unsigned stage);
  Value getBroadcast(unsigned input, unsigned chunk, const ChunkPosition &pos);
  /// The arguments of an element region at `pos`.
  SmallVector<Value> getElementArgs(Block &block, RowState &state,
                                    unsigned chunk, const ChunkPosition &pos,
                                    unsigned stage, ValueRange results);
  /// Runs `body(sweep, values)` over the sweeps of the slice, threading
  /// `values` through.
  SmallVector<Value> forEachSweep(
      ValueRange init,
      function_ref<SmallVector<Value>(Value, SmallVector<Value>)> body);

  SmallVector<Value> emitStage(unsigned stage, RowState &state,
                               ValueRange results);
  SmallVector<Value> emitEpilogue(RowState &state, ValueRange results,
                                  ValueRange columnSums);
  void emitFinalize(RowState &state, ValueRange results);

  RowwiseOp op;
  TilingAttr tiling;
  OpBuilder b;
  Location loc;
  int64_t n, cluster, threads, vector, elems, rows, threadsPerRow, slice,
      sweeps, chunks, maxWidth;
  unsigned numStages;
  Staging staging;

  SmallVector<KernelParam> params;

  // Kernel-wide values.
  Value threadInRow, rowInCta, rank, clusterIndex, sliceBase, rowBegin, rowEnd;
  SmallVector<Value> inputViews, inputStrides, broadcastViews, scalarViews,
      outputViews, outputStrides, scalarOutputViews, columnSumViews;
  SmallVector<Value> stagedViews;
  /// Registers staging: broadcast chunks loaded once, [input][chunk].
  SmallVector<SmallVector<Value>> broadcastRegisters;
  Value blockScratch, clusterScratch;
  int64_t blockScratchSize = 0, clusterScratchSize = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Parameters and manifest
//===----------------------------------------------------------------------===//

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
  params.push_back({"m", "i64", "m", Type(), ""});
  params.push_back({"rows_per_cluster", "i64", "rows_per_cluster", Type(), ""});
}

static StringRef stringifyType(Type type) {
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

DictionaryAttr KernelEmitter::getManifest(StringRef name) {
  MLIRContext *ctx = op.getContext();
  auto str = [&](StringRef s) { return StringAttr::get(ctx, s); };
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
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
  bool hasColumnSums = !op.getColumnSumOutputs().empty();
  SmallVector<NamedAttribute> grid = {
      entry("ctas_per_cluster", i64(cluster)),
      entry("rows_per_cta", i64(rows)),
      entry("clusters",
            str(hasColumnSums ? "p" : "ceil(m / rows_per_cluster)")),
      entry("rows_per_cluster",
            str(hasColumnSums ? "ceil(m / p)" : "any, at least 1")),
      entry("grid_x", str("clusters * ctas_per_cluster")),
  };
  SmallVector<NamedAttribute> tilingFields = {
      entry("cluster", i64(cluster)),
      entry("threads", i64(threads)),
      entry("vector", i64(vector)),
      entry("elems", i64(elems)),
      entry("rows", i64(rows)),
      entry("staging", str(stringifyStaging(staging))),
      entry("slice", i64(slice)),
      entry("sweeps", i64(sweeps)),
  };
  int64_t widestBytes = 0;
  for (Value v :
       llvm::concat<Value>(op.getInputs(), op.getBroadcasts(), op.getOutputs()))
    widestBytes = std::max<int64_t>(
        widestBytes, elementTypeOf(v).getIntOrFloatBitWidth() / 8);
  SmallVector<NamedAttribute> fields = {
      entry("name", str(name)),
      entry("workload", str(op.getWorkload().value_or("rowwise"))),
      entry("n", i64(n)),
      entry("block", b.getI64ArrayAttr({threads, 1, 1})),
      entry("cluster", b.getI64ArrayAttr({cluster, 1, 1})),
      entry("dynamic_shared_memory",
            i64(op.getDynamicSharedMemoryBytes(tiling))),
      entry("static_shared_memory",
            i64((blockScratchSize + clusterScratchSize) * 4)),
      entry("grid", DictionaryAttr::get(ctx, grid)),
      entry("tiling", DictionaryAttr::get(ctx, tilingFields)),
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
            i64(std::min<int64_t>(16, vector * widestBytes))),
      entry("stride_multiple", i64(vector)),
  };
  return DictionaryAttr::get(ctx, fields);
}

//===----------------------------------------------------------------------===//
// Loads, stores and positions
//===----------------------------------------------------------------------===//

ChunkPosition KernelEmitter::getChunkPosition(Value sweep, int64_t chunk,
                                              Value rowValid) {
  // Chunk c of sweep w of thread t: elements
  //   w * (threadsPerRow * elems) + (c * threadsPerRow + t) * vector + [0, v)
  // so a warp's accesses are consecutive 16-byte vectors.
  Value inSweep =
      mul(add(index(chunk * threadsPerRow), threadInRow), index(vector));
  Value local = add(mul(sweep, index(threadsPerRow * elems)), inSweep);
  Value column = add(sliceBase, local);
  Value inRange;
  if (cluster * slice != n)
    inRange = cmp(arith::CmpIPredicate::slt, column, index(n));
  return {local, column, inRange, andOf(rowValid, inRange)};
}

Value KernelEmitter::loadVector(Value view, Value position, Type element,
                                Value valid) {
  VectorType type = vectorOf(element);
  int64_t align = alignmentOf(element);
  auto load = [&](OpBuilder &builder, Location l) -> Value {
    return vector::LoadOp::create(builder, l, type, view, ValueRange{position},
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(align));
  };
  if (!valid)
    return load(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, valid,
      [&](OpBuilder &builder, Location l) {
        scf::YieldOp::create(builder, l, load(builder, l));
      },
      [&](OpBuilder &builder, Location l) {
        Value zero = arith::ConstantOp::create(builder, l, type,
                                               builder.getZeroAttr(type));
        scf::YieldOp::create(builder, l, zero);
      });
  return ifOp.getResult(0);
}

void KernelEmitter::storeVector(Value value, Value view, Value position,
                                Value valid) {
  int64_t align =
      alignmentOf(cast<VectorType>(value.getType()).getElementType());
  auto store = [&](OpBuilder &builder, Location l) {
    vector::StoreOp::create(builder, l, value, view, ValueRange{position},
                            /*nontemporal=*/false, llvm::MaybeAlign(align));
  };
  if (!valid)
    return store(b, loc);
  scf::IfOp::create(b, loc, valid, [&](OpBuilder &builder, Location l) {
    store(builder, l);
    scf::YieldOp::create(builder, l);
  });
}

Value KernelEmitter::toComputeType(Value value) {
  auto type = cast<VectorType>(value.getType());
  if (!isa<FloatType>(type.getElementType()) || type.getElementType().isF32())
    return value;
  return arith::ExtFOp::create(b, loc, vectorOf(b.getF32Type()), value);
}

Value KernelEmitter::getInput(RowState &state, unsigned input, unsigned chunk,
                              const ChunkPosition &pos, unsigned stage) {
  Type element = elementTypeOf(op.getInputs()[input]);
  switch (staging) {
  case Staging::Registers:
    return state.registers[input][chunk];
  case Staging::Shared: {
    Value staged = stagedViews[input];
    Value local =
        rows > 1 ? add(mul(rowInCta, index(slice)), pos.local) : pos.local;
    if (stage > 0)
      return toComputeType(loadVector(staged, local, element, Value()));
    Value raw = loadVector(inputViews[input],
                           add(state.inputOffsets[input], pos.column), element,
                           pos.valid);
    storeVector(raw, staged, local, Value());
    return toComputeType(raw);
  }
  case Staging::Reread:
    return toComputeType(loadVector(inputViews[input],
                                    add(state.inputOffsets[input], pos.column),
                                    element, pos.valid));
  }
  llvm_unreachable("unknown staging");
}

Value KernelEmitter::getBroadcast(unsigned input, unsigned chunk,
                                  const ChunkPosition &pos) {
  if (staging == Staging::Registers)
    return broadcastRegisters[input][chunk];
  Type element = elementTypeOf(op.getBroadcasts()[input]);
  return toComputeType(
      loadVector(broadcastViews[input], pos.column, element, pos.inRange));
}

SmallVector<Value> KernelEmitter::getElementArgs(Block &block, RowState &state,
                                                 unsigned chunk,
                                                 const ChunkPosition &pos,
                                                 unsigned stage,
                                                 ValueRange results) {
  SmallVector<Value> args;
  // The column index, as a vector only when the region uses it.
  if (block.getArgument(0).use_empty()) {
    args.push_back(pos.column);
  } else {
    VectorType type = vectorOf(b.getIndexType());
    SmallVector<int64_t> steps = llvm::to_vector(llvm::seq<int64_t>(0, vector));
    Value lanes = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<int64_t>(steps)));
    Value base = vector::BroadcastOp::create(b, loc, type, pos.column);
    args.push_back(arith::AddIOp::create(b, loc, base, lanes));
  }
  unsigned argIndex = 1;
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i, ++argIndex) {
    // Unused inputs need no load except where the slice is being staged.
    bool staged = staging == Staging::Shared && stage == 0;
    if (block.getArgument(argIndex).use_empty() && !staged &&
        staging != Staging::Registers)
      args.push_back(arith::ConstantOp::create(b, loc, b.getF32Type(),
                                               b.getF32FloatAttr(0.0)));
    else
      args.push_back(getInput(state, i, chunk, pos, stage));
  }
  for (unsigned i = 0, e = op.getBroadcasts().size(); i < e; ++i, ++argIndex) {
    if (block.getArgument(argIndex).use_empty())
      args.push_back(arith::ConstantOp::create(b, loc, b.getF32Type(),
                                               b.getF32FloatAttr(0.0)));
    else
      args.push_back(getBroadcast(i, chunk, pos));
  }
  llvm::append_range(args, state.scalars);
  llvm::append_range(args, results);
  return args;
}

SmallVector<Value> KernelEmitter::forEachSweep(
    ValueRange init,
    function_ref<SmallVector<Value>(Value, SmallVector<Value>)> body) {
  if (sweeps == 1)
    return body(index(0), llvm::to_vector(init));
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(sweeps), index(1), init,
      [&](OpBuilder &builder, Location l, Value sweep, ValueRange iterArgs) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(builder.getInsertionBlock(),
                            builder.getInsertionPoint());
        SmallVector<Value> next = body(sweep, llvm::to_vector(iterArgs));
        scf::YieldOp::create(b, l, next);
      });
  return SmallVector<Value>(loop.getResults());
}

//===----------------------------------------------------------------------===//
// Stages, epilogue and finalize
//===----------------------------------------------------------------------===//

static vector::CombiningKind toVectorKind(CombinerKind kind) {
  switch (kind) {
  case CombinerKind::Add:
    return vector::CombiningKind::ADD;
  case CombinerKind::Max:
    return vector::CombiningKind::MAXIMUMF;
  case CombinerKind::Min:
    return vector::CombiningKind::MINIMUMF;
  }
  llvm_unreachable("unknown combiner");
}

SmallVector<Value> KernelEmitter::emitStage(unsigned stage, RowState &state,
                                            ValueRange results) {
  SmallVector<CombinerKind> kinds = op.getStageCombiners(stage);
  Block &block = op.getStages()[stage].front();
  SmallVector<Value> init = llvm::map_to_vector(kinds, [&](CombinerKind kind) {
    return createCombinerIdentity(b, loc, kind);
  });

  SmallVector<Value> partials =
      forEachSweep(init, [&](Value sweep, SmallVector<Value> accs) {
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          ChunkPosition pos = getChunkPosition(sweep, chunk, state.rowValid);
          SmallVector<Value> args =
              getElementArgs(block, state, chunk, pos, stage, results);
          SmallVector<Value> values = cloneElementwise(b, block, args);
          for (auto [k, kind] : llvm::enumerate(kinds)) {
            Value value = values[k];
            if (!isa<VectorType>(value.getType()))
              value = vector::BroadcastOp::create(
                  b, loc, vectorOf(b.getF32Type()), value);
            Value partial =
                vector::ReductionOp::create(b, loc, toVectorKind(kind), value);
            Value combined = createCombine(b, loc, kind, accs[k], partial);
            accs[k] = pos.valid ? arith::SelectOp::create(b, loc, pos.valid,
                                                          combined, accs[k])
                                : combined;
          }
        }
        return accs;
      });

  ArrayAttr combiners = cast<ArrayAttr>(op.getCombiners()[stage]);
  Value blockOffset, blockBuffer;
  if (threadsPerRow > 32) {
    int64_t region = (threads / 32) * maxWidth;
    blockOffset = mul(add(mul(state.parity, index(numStages)), index(stage)),
                      index(region));
    blockBuffer = blockScratch;
  }
  auto blockReduce = BlockReduceOp::create(
      b, loc, ValueRange(partials).getTypes(), partials, blockBuffer,
      blockOffset, combiners, b.getI32IntegerAttr(threadsPerRow));
  SmallVector<Value> values(blockReduce.getResults());
  if (cluster == 1)
    return values;

  // Before the first store into a peer's shared memory, wait until every
  // CTA of the cluster has started (the arrive was issued at kernel entry).
  if (stage == 0)
    scf::IfOp::create(b, loc, state.first, [&](OpBuilder &builder, Location l) {
      NVVM::ClusterWaitOp::create(builder, l, /*aligned=*/UnitAttr());
      scf::YieldOp::create(builder, l);
    });
  Value clusterOffset =
      mul(add(mul(state.parity, index(numStages)), index(stage)),
          index(cluster * maxWidth));
  auto clusterReduce = ClusterReduceOp::create(
      b, loc, ValueRange(values).getTypes(), values, clusterScratch,
      clusterOffset, combiners, b.getI32IntegerAttr(cluster));
  return SmallVector<Value>(clusterReduce.getResults());
}

SmallVector<Value> KernelEmitter::emitEpilogue(RowState &state,
                                               ValueRange results,
                                               ValueRange columnSums) {
  if (op.getEpilogue().empty())
    return llvm::to_vector(columnSums);
  Block &block = op.getEpilogue().front();
  unsigned numOutputs = op.getOutputs().size();
  bool sumsInRegisters = staging == Staging::Registers;

  return forEachSweep(columnSums, [&](Value sweep, SmallVector<Value> sums) {
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      ChunkPosition pos = getChunkPosition(sweep, chunk, state.rowValid);
      SmallVector<Value> args =
          getElementArgs(block, state, chunk, pos, numStages, results);
      SmallVector<Value> values = cloneElementwise(b, block, args);
      for (auto [o, output] : llvm::enumerate(op.getOutputs())) {
        Type element = elementTypeOf(output);
        Value value = values[o];
        if (!isa<VectorType>(value.getType()))
          value = vector::BroadcastOp::create(b, loc, vectorOf(value.getType()),
                                              value);
        if (isa<FloatType>(element) && !element.isF32())
          value = arith::TruncFOp::create(b, loc, vectorOf(element), value);
        storeVector(value, outputViews[o],
                    add(state.outputOffsets[o], pos.column), pos.valid);
      }
      for (unsigned q = 0, e = op.getColumnSumOutputs().size(); q < e; ++q) {
        Value value = values[numOutputs + q];
        if (!isa<VectorType>(value.getType()))
          value = vector::BroadcastOp::create(b, loc, vectorOf(b.getF32Type()),
                                              value);
        if (sumsInRegisters) {
          Value &sum = sums[q * chunks + chunk];
          Value added = arith::AddFOp::create(b, loc, sum, value);
          sum = pos.valid
                    ? arith::SelectOp::create(b, loc, pos.valid, added, sum)
                    : added;
          continue;
        }
        // Each (block, column) belongs to one thread of the cluster, which
        // accumulates straight into the output.
        Value at = add(mul(clusterIndex, index(n)), pos.column);
        Value view = columnSumViews[q];
        auto accumulate = [&](OpBuilder &builder, Location l) {
          VectorType type = vectorOf(builder.getF32Type());
          auto ifFirst = scf::IfOp::create(
              builder, l, state.first,
              [&](OpBuilder &inner, Location il) {
                scf::YieldOp::create(inner, il, value);
              },
              [&](OpBuilder &inner, Location il) {
                Value old = vector::LoadOp::create(
                    inner, il, type, view, ValueRange{at}, false,
                    llvm::MaybeAlign(alignmentOf(inner.getF32Type())));
                scf::YieldOp::create(
                    inner, il,
                    Value(arith::AddFOp::create(inner, il, old, value)));
              });
          vector::StoreOp::create(
              builder, l, ifFirst.getResult(0), view, ValueRange{at}, false,
              llvm::MaybeAlign(alignmentOf(builder.getF32Type())));
        };
        if (!pos.valid) {
          accumulate(b, loc);
        } else {
          scf::IfOp::create(b, loc, pos.valid,
                            [&](OpBuilder &builder, Location l) {
                              accumulate(builder, l);
                              scf::YieldOp::create(builder, l);
                            });
        }
      }
    }
    return sums;
  });
}

void KernelEmitter::emitFinalize(RowState &state, ValueRange results) {
  if (op.getFinalize().empty())
    return;
  SmallVector<Value> args = llvm::to_vector(state.scalars);
  llvm::append_range(args, results);
  SmallVector<Value> values =
      cloneElementwise(b, op.getFinalize().front(), args);
  // One thread per row writes the row's scalar outputs.
  Value writer = andOf(cmp(arith::CmpIPredicate::eq, threadInRow, index(0)),
                       state.rowValid);
  if (cluster > 1)
    writer = andOf(writer, cmp(arith::CmpIPredicate::eq, rank, index(0)));
  scf::IfOp::create(b, loc, writer, [&](OpBuilder &builder, Location l) {
    for (auto [i, output] : llvm::enumerate(op.getScalarOutputs())) {
      Type element = elementTypeOf(output);
      Value value = values[i];
      if (isa<FloatType>(element) && !element.isF32())
        value = arith::TruncFOp::create(builder, l, element, value);
      memref::StoreOp::create(builder, l, value, scalarOutputViews[i],
                              ValueRange{state.row});
    }
    scf::YieldOp::create(builder, l);
  });
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

void KernelEmitter::emitBody(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToEnd(&entry);
  MLIRContext *ctx = op.getContext();
  auto globalSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);

  // Parameters, in the order createParameters() listed them.
  auto args = entry.getArguments();
  unsigned next = 0;
  auto takePointers = [&](ValueRange operands,
                          SmallVectorImpl<Value> *strides) {
    SmallVector<Value> ptrs;
    for (size_t i = 0, e = operands.size(); i < e; ++i) {
      ptrs.push_back(args[next++]);
      if (strides)
        strides->push_back(toIndex(args[next++]));
    }
    return ptrs;
  };
  SmallVector<Value> inputPtrs = takePointers(op.getInputs(), &inputStrides);
  SmallVector<Value> broadcastPtrs = takePointers(op.getBroadcasts(), nullptr);
  SmallVector<Value> scalarPtrs = takePointers(op.getScalars(), nullptr);
  SmallVector<Value> outputPtrs = takePointers(op.getOutputs(), &outputStrides);
  SmallVector<Value> scalarOutputPtrs =
      takePointers(op.getScalarOutputs(), nullptr);
  SmallVector<Value> columnSumPtrs =
      takePointers(op.getColumnSumOutputs(), nullptr);
  Value m64 = args[next++];
  Value rowsPerCluster = toIndex(args[next++]);
  Value m = toIndex(m64);

  // Thread coordinates.
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  threadInRow = arith::RemUIOp::create(b, loc, tid, index(threadsPerRow));
  rowInCta = arith::DivUIOp::create(b, loc, tid, index(threadsPerRow));
  rank = cluster > 1
             ? Value(gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x))
             : index(0);
  clusterIndex = arith::DivUIOp::create(b, loc, blockId, index(cluster));
  sliceBase = mul(rank, index(slice));
  rowBegin = mul(clusterIndex, rowsPerCluster);
  rowEnd = arith::MinUIOp::create(b, loc, add(rowBegin, rowsPerCluster), m);

  // Views of the operands.
  auto view = [&](Value pointer, Type element, Value size) -> Value {
    auto type = MemRefType::get({ShapedType::kDynamic}, element,
                                MemRefLayoutAttrInterface(), globalSpace);
    Value size64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
    return GlobalViewOp::create(b, loc, type, pointer, size64);
  };
  for (auto [ptr, operand, stride] :
       llvm::zip(inputPtrs, op.getInputs(), inputStrides))
    inputViews.push_back(view(ptr, elementTypeOf(operand), mul(m, stride)));
  for (auto [ptr, operand] : llvm::zip(broadcastPtrs, op.getBroadcasts()))
    broadcastViews.push_back(view(ptr, elementTypeOf(operand), index(n)));
  for (auto [ptr, operand] : llvm::zip(scalarPtrs, op.getScalars()))
    scalarViews.push_back(view(ptr, elementTypeOf(operand), m));
  for (auto [ptr, operand, stride] :
       llvm::zip(outputPtrs, op.getOutputs(), outputStrides))
    outputViews.push_back(view(ptr, elementTypeOf(operand), mul(m, stride)));
  for (auto [ptr, operand] : llvm::zip(scalarOutputPtrs, op.getScalarOutputs()))
    scalarOutputViews.push_back(view(ptr, elementTypeOf(operand), m));
  Value numClusters = arith::DivUIOp::create(
      b, loc, gpu::GridDimOp::create(b, loc, gpu::Dimension::x),
      index(cluster));
  for (auto [ptr, operand] : llvm::zip(columnSumPtrs, op.getColumnSumOutputs()))
    columnSumViews.push_back(
        view(ptr, elementTypeOf(operand), mul(numClusters, index(n))));

  // Shared-memory staging of the row inputs.
  if (staging == Staging::Shared) {
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    Value dynamic = DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({op.getDynamicSharedMemoryBytes(tiling)}, b.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    int64_t offset = 0;
    for (Value input : op.getInputs()) {
      Type element = elementTypeOf(input);
      int64_t length = rows * slice;
      auto type = MemRefType::get({ShapedType::kDynamic}, element,
                                  MemRefLayoutAttrInterface(), workgroup);
      stagedViews.push_back(memref::ViewOp::create(
          b, loc, type, dynamic, index(offset), ValueRange{index(length)}));
      offset += llvm::alignTo(length * element.getIntOrFloatBitWidth() / 8, 16);
    }
  }

  // Every CTA announces that it has started; the wait comes before the
  // first store into a peer (see emitStage).
  if (cluster > 1)
    NVVM::ClusterArriveRelaxedOp::create(b, loc, /*aligned=*/UnitAttr());

  // Registers staging: the broadcast inputs are the same for every row.
  if (staging == Staging::Registers) {
    for (auto [i, input] : llvm::enumerate(op.getBroadcasts())) {
      SmallVector<Value> loaded;
      for (int64_t chunk = 0; chunk < chunks; ++chunk) {
        ChunkPosition pos = getChunkPosition(index(0), chunk, Value());
        loaded.push_back(toComputeType(loadVector(
            broadcastViews[i], pos.column, elementTypeOf(input), pos.valid)));
      }
      broadcastRegisters.push_back(loaded);
    }
  }

  // Column sums kept in registers across the cluster's rows.
  bool sumsInRegisters = staging == Staging::Registers;
  SmallVector<Value> initialSums;
  if (sumsInRegisters) {
    VectorType type = vectorOf(b.getF32Type());
    Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    initialSums.append(op.getColumnSumOutputs().size() * chunks, zero);
  }

  auto rowLoop = scf::ForOp::create(
      b, loc, rowBegin, rowEnd, index(rows), initialSums,
      [&](OpBuilder &builder, Location l, Value rowBase, ValueRange sums) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(builder.getInsertionBlock(),
                            builder.getInsertionPoint());
        RowState state;
        state.row = rows > 1 ? add(rowBase, rowInCta) : rowBase;
        if (rows > 1)
          state.rowValid = cmp(arith::CmpIPredicate::ult, state.row, rowEnd);
        state.first = cmp(arith::CmpIPredicate::eq, rowBase, rowBegin);
        Value iteration = arith::DivUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, rowBase, rowBegin),
            index(rows));
        state.parity = arith::RemUIOp::create(b, loc, iteration, index(2));

        // Rows past the end read row 0 instead, and store nothing.
        Value safeRow = state.rowValid
                            ? Value(arith::SelectOp::create(
                                  b, loc, state.rowValid, state.row, index(0)))
                            : state.row;
        for (auto [view, operand] : llvm::zip(scalarViews, op.getScalars())) {
          Value value =
              memref::LoadOp::create(b, loc, view, ValueRange{safeRow});
          Type element = elementTypeOf(operand);
          if (isa<FloatType>(element) && !element.isF32())
            value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
          state.scalars.push_back(value);
        }
        for (Value stride : inputStrides)
          state.inputOffsets.push_back(mul(safeRow, stride));
        for (Value stride : outputStrides)
          state.outputOffsets.push_back(mul(state.row, stride));

        if (staging == Staging::Registers) {
          for (auto [i, input] : llvm::enumerate(op.getInputs())) {
            SmallVector<Value> loaded;
            for (int64_t chunk = 0; chunk < chunks; ++chunk) {
              ChunkPosition pos =
                  getChunkPosition(index(0), chunk, state.rowValid);
              loaded.push_back(toComputeType(loadVector(
                  inputViews[i], add(state.inputOffsets[i], pos.column),
                  elementTypeOf(input), pos.valid)));
            }
            state.registers.push_back(loaded);
          }
        }

        SmallVector<Value> results;
        for (unsigned stage = 0; stage < numStages; ++stage)
          llvm::append_range(results, emitStage(stage, state, results));
        SmallVector<Value> nextSums = emitEpilogue(state, results, sums);
        emitFinalize(state, results);
        scf::YieldOp::create(b, loc, nextSums);
      });

  // Column sums held in registers go out once, after the last row; every
  // cluster writes its block, zeros if it had no rows.
  if (sumsInRegisters) {
    for (unsigned q = 0, e = op.getColumnSumOutputs().size(); q < e; ++q)
      for (int64_t chunk = 0; chunk < chunks; ++chunk) {
        ChunkPosition pos = getChunkPosition(index(0), chunk, Value());
        storeVector(rowLoop.getResult(q * chunks + chunk), columnSumViews[q],
                    add(mul(clusterIndex, index(n)), pos.column), pos.valid);
      }
  }

  // Column sums accumulated in place: a cluster without rows writes zeros.
  if (!sumsInRegisters && !op.getColumnSumOutputs().empty()) {
    Value noRows = cmp(arith::CmpIPredicate::uge, rowBegin, rowEnd);
    scf::IfOp::create(b, loc, noRows, [&](OpBuilder &builder, Location l) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(builder.getInsertionBlock(),
                          builder.getInsertionPoint());
      VectorType type = vectorOf(b.getF32Type());
      Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      forEachSweep({}, [&](Value sweep, SmallVector<Value> none) {
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          ChunkPosition pos = getChunkPosition(sweep, chunk, Value());
          for (Value view : columnSumViews)
            storeVector(zero, view,
                        add(mul(clusterIndex, index(n)), pos.column),
                        pos.valid);
        }
        return none;
      });
      scf::YieldOp::create(b, l);
    });
  }

  // A cluster without rows still completes the barrier it arrived at.
  if (cluster > 1) {
    Value noRows = cmp(arith::CmpIPredicate::uge, rowBegin, rowEnd);
    scf::IfOp::create(b, loc, noRows, [&](OpBuilder &builder, Location l) {
      NVVM::ClusterWaitOp::create(builder, l, /*aligned=*/UnitAttr());
      scf::YieldOp::create(builder, l);
    });
  }
  gpu::ReturnOp::create(b, loc);
}

gpu::GPUModuleOp KernelEmitter::emit(ModuleOp module, StringRef name) {
  MLIRContext *ctx = op.getContext();
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, name);
  b.setInsertionPointToStart(gpuModule.getBody());

  // Reduction scratch: two buffers (alternating rows) per stage.
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto addScratch = [&](StringRef symbol, int64_t size) -> memref::GlobalOp {
    auto type = MemRefType::get({size}, b.getF32Type(),
                                MemRefLayoutAttrInterface(), workgroup);
    return memref::GlobalOp::create(
        b, loc, symbol, b.getStringAttr("private"), type, Attribute(),
        /*constant=*/false, b.getI64IntegerAttr(16));
  };
  if (threadsPerRow > 32)
    blockScratchSize = 2 * numStages * (threads / 32) * maxWidth;
  if (cluster > 1)
    clusterScratchSize = 2 * numStages * cluster * maxWidth;
  memref::GlobalOp blockGlobal, clusterGlobal;
  if (blockScratchSize)
    blockGlobal = addScratch("credit_block_scratch", blockScratchSize);
  if (clusterScratchSize)
    clusterGlobal = addScratch("credit_cluster_scratch", clusterScratchSize);

  createParameters();
  SmallVector<Type> argTypes;
  for (const KernelParam &param : params)
    argTypes.push_back(param.kind == "ptr"
                           ? Type(LLVM::LLVMPointerType::get(ctx, 1))
                           : Type(b.getI64Type()));
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func.setKnownClusterSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(cluster), 1, 1}));

  b.setInsertionPointToStart(&func.getBody().front());
  if (blockGlobal)
    blockScratch = memref::GetGlobalOp::create(b, loc, blockGlobal.getType(),
                                               blockGlobal.getSymName());
  if (clusterGlobal)
    clusterScratch = memref::GetGlobalOp::create(
        b, loc, clusterGlobal.getType(), clusterGlobal.getSymName());
  emitBody(func);
  return gpuModule;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// A symbol for the kernel of `op`: workload, input type, N and cluster size.
static std::string getKernelName(RowwiseOp op, TilingAttr tiling) {
  std::string workload = op.getWorkload().value_or("rowwise").str();
  for (char &c : workload)
    if (!llvm::isAlnum(c))
      c = '_';
  Type element =
      cast<ShapedType>(op.getInputs().front().getType()).getElementType();
  return llvm::formatv("{0}_{1}_n{2}_c{3}", workload, stringifyType(element),
                       op.getRowLength(), tiling.getCluster())
      .str();
}

namespace {
struct ClusterTilingPass
    : public credit::impl::CreditClusterTilingBase<ClusterTilingPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<RowwiseOp> ops;
    module.walk([&](RowwiseOp op) { ops.push_back(op); });

    SymbolTable symbols(module);
    SmallVector<NamedAttribute> manifests;
    if (auto existing = module->getAttrOfType<DictionaryAttr>("credit.kernels"))
      llvm::append_range(manifests, existing.getValue());
    SmallVector<Operation *> kernels;
    for (RowwiseOp op : ops) {
      // Without a tiling, the same default credit-choose-tiling picks.
      if (!op.getTiling()) {
        op.setTilingAttr(getDefaultTiling(op));
        if (failed(op.verify())) {
          op.emitError("credit-cluster-tiling: no valid default tiling");
          return signalPassFailure();
        }
      }
      std::optional<TilingAttr> tiling = op.getTiling();
      std::string base = getKernelName(op, *tiling);
      std::string name = base;
      for (unsigned suffix = 1; symbols.lookup(name); ++suffix)
        name = base + "_" + std::to_string(suffix);

      KernelEmitter emitter(op, *tiling);
      gpu::GPUModuleOp gpuModule = emitter.emit(module, name);
      symbols.insert(gpuModule);
      kernels.push_back(gpuModule);
      manifests.emplace_back(StringAttr::get(&getContext(), name),
                             emitter.getManifest(name));
      op->setAttr(
          "credit.kernel",
          SymbolRefAttr::get(&getContext(), name,
                             {FlatSymbolRefAttr::get(&getContext(), name)}));
    }
    module->setAttr("credit.kernels",
                    DictionaryAttr::get(&getContext(), manifests));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));

    if (eraseHost) {
      for (Operation &nested :
           llvm::make_early_inc_range(module.getBody()->getOperations()))
        if (!isa<gpu::GPUModuleOp>(nested))
          nested.erase();
    }
  }
};
} // namespace
