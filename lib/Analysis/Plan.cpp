//===- Plan.cpp - what a tiling of a credit.rowwise op costs --------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Analysis/Plan.h"

#include "Credit/Dialect/Combiners.h"
#include "Credit/Dialect/CreditDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::credit;

StringRef mlir::credit::stringifyGridPolicy(GridPolicy policy) {
  switch (policy) {
  case GridPolicy::RowGroupPerCluster:
    return "row_group_per_cluster";
  case GridPolicy::OneWave:
    return "one_wave";
  case GridPolicy::RowBlocks:
    return "row_blocks";
  }
  llvm_unreachable("unknown grid policy");
}

StringRef mlir::credit::stringifyOccupancyLimit(OccupancyLimit limit) {
  switch (limit) {
  case OccupancyLimit::Threads:
    return "threads";
  case OccupancyLimit::Registers:
    return "registers";
  case OccupancyLimit::SharedMemory:
    return "shared memory";
  case OccupancyLimit::CtaSlots:
    return "CTA slots";
  }
  llvm_unreachable("unknown occupancy limit");
}

static int64_t elementBytes(Value operand) {
  return llvm::divideCeil(
      cast<ShapedType>(operand.getType()).getElementTypeBitWidth(), 8);
}

static int64_t sumElementBytes(ValueRange operands) {
  int64_t bytes = 0;
  for (Value operand : operands)
    bytes += elementBytes(operand);
  return bytes;
}

unsigned mlir::credit::getVectorWidth(RowwiseOp op,
                                      const TargetInfo &target) {
  int64_t widest = 1;
  for (Value value : llvm::concat<Value>(op.getInputs(), op.getBroadcasts(),
                                         op.getOutputs()))
    widest = std::max(widest, elementBytes(value));
  unsigned vector = std::max<int64_t>(1, target.maxAccessBytes / widest);
  while (vector > 1 && op.getRowLength() % vector != 0)
    vector /= 2;
  return vector;
}

//===----------------------------------------------------------------------===//
// Element arithmetic
//===----------------------------------------------------------------------===//

bool mlir::credit::isRowUniform(RowwiseOp op, Value value) {
  unsigned elementArgs = op.getNumElementArgs();
  // Values of nested regions count as per element.
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner()->getParentOp() == op.getOperation() &&
           arg.getArgNumber() >= elementArgs;
  Operation *def = value.getDefiningOp();
  return def->getParentOp() == op.getOperation() &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isRowUniform(op, operand);
         });
}

Value mlir::credit::getEpilogueRowCondition(RowwiseOp op) {
  if (op.getEpilogue().empty() || !op.getColumnSumOutputs().empty())
    return Value();
  for (arith::SelectOp select :
       op.getEpilogue().front().getOps<arith::SelectOp>()) {
    Value condition = select.getCondition();
    if (condition.getType().isInteger(1) &&
        !matchPattern(condition, m_Constant()) && isRowUniform(op, condition) &&
        !isRowUniform(op, select.getResult()))
      return condition;
  }
  return Value();
}

Value mlir::credit::getColumnTestValue(RowwiseOp op, arith::CmpIOp compare) {
  if (compare.getPredicate() != arith::CmpIPredicate::eq &&
      compare.getPredicate() != arith::CmpIPredicate::ne)
    return Value();
  Block *block = compare->getBlock();
  Value column = block->getArgument(0);
  auto isColumn = [&](Value value) {
    if (value == column)
      return true;
    Operation *cast = value.getDefiningOp();
    return isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(cast) &&
           cast->getOperand(0) == column &&
           value.getType().getIntOrFloatBitWidth() >= 32;
  };
  Value lhs = compare.getLhs(), rhs = compare.getRhs();
  if (isColumn(lhs) && isRowUniform(op, rhs))
    return rhs;
  if (isColumn(rhs) && isRowUniform(op, lhs))
    return lhs;
  return Value();
}

std::optional<ColumnPick>
mlir::credit::matchColumnPick(RowwiseOp op, unsigned stage, unsigned entry) {
  if (op.getStageCombiners(stage)[entry] != CombinerKind::Add)
    return std::nullopt;
  Block &block = op.getStages()[stage].front();
  auto select =
      block.getTerminator()->getOperand(entry).getDefiningOp<arith::SelectOp>();
  if (!select)
    return std::nullopt;
  auto compare = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare)
    return std::nullopt;
  Value column = getColumnTestValue(op, compare);
  if (!column)
    return std::nullopt;
  bool equal = compare.getPredicate() == arith::CmpIPredicate::eq;
  Value picked = equal ? select.getTrueValue() : select.getFalseValue();
  Value zero = equal ? select.getFalseValue() : select.getTrueValue();
  if (!matchPattern(zero, m_PosZeroFloat()))
    return std::nullopt;
  return ColumnPick{column, picked};
}

/// The ops of reduction stage `stage` that only its column picks use
/// (matchColumnPick): a kernel computes them once per row.
static llvm::DenseSet<Operation *> getPickOnlyOps(RowwiseOp op,
                                                  unsigned stage) {
  Block &block = op.getStages()[stage].front();
  Operation *yield = block.getTerminator();
  // Ops whose values reach a yield other than a pick's.
  llvm::DenseSet<Operation *> used;
  SmallVector<Operation *> worklist;
  auto visit = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && def->getBlock() == &block && used.insert(def).second)
      worklist.push_back(def);
  };
  for (auto [k, value] : llvm::enumerate(yield->getOperands()))
    if (!matchColumnPick(op, stage, k))
      visit(value);
  while (!worklist.empty())
    for (Value operand : worklist.pop_back_val()->getOperands())
      visit(operand);
  llvm::DenseSet<Operation *> pickOnly;
  for (Operation &inner : block.without_terminator())
    if (!used.contains(&inner))
      pickOnly.insert(&inner);
  return pickOnly;
}

/// The ops of region `index` (the stages, then the epilogue) that a kernel
/// computes once per row although they depend on the column: the ops that
/// only a stage's column picks use, and the epilogue's column tests
/// (constants in every chunk but one) where the op has no column sums.
/// (The selects on the epilogue's row condition still count: one op per
/// element where the kernel has none, as for any select.)
static llvm::DenseSet<Operation *> getPerRowOps(RowwiseOp op, unsigned index) {
  if (index < op.getNumStages())
    return getPickOnlyOps(op, index);
  llvm::DenseSet<Operation *> perRow;
  if (!op.getColumnSumOutputs().empty())
    return perRow;
  Block &block = op.getEpilogue().front();
  for (arith::CmpIOp compare : block.getOps<arith::CmpIOp>())
    if (getColumnTestValue(op, compare))
      perRow.insert(compare);
  return perRow;
}

/// Cost of `op` in simple-op units (an f32 add is 1) when it runs per
/// element.
static double getOpWeight(Operation *op) {
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case<arith::ConstantOp>([](auto) { return 0.0; })
      .Case<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
            math::Log1pOp, math::ExpM1Op>([](auto) { return 4.0; })
      .Case<math::RsqrtOp, math::SqrtOp>([](auto) { return 4.0; })
      .Case<arith::DivFOp, arith::RemFOp>([](auto) { return 10.0; })
      .Case<math::TanhOp, math::ErfOp, math::SinOp, math::CosOp, math::PowFOp>(
          [](auto) { return 12.0; })
      .Case<arith::FPToSIOp, arith::FPToUIOp, arith::SIToFPOp,
            arith::UIToFPOp>([](auto) { return 2.0; })
      .Default([](Operation *op) {
        // 64-bit integer work takes two instructions per element.
        for (Type type : op->getOperandTypes())
          if (type.isInteger(64) || type.isIndex())
            return 2.0;
        return 1.0;
      });
}

/// Ops per element of `region` whose values depend on the element (the
/// column index, row or broadcast elements: the first `elementArgs`
/// arguments); row-uniform ones are computed once per row, and so are
/// those in `perRow`.
static double getElementOps(Region &region, unsigned elementArgs,
                            const llvm::DenseSet<Operation *> &perRow) {
  if (region.empty())
    return 0;
  Block &block = region.front();
  llvm::DenseSet<Value> perElement;
  for (unsigned i = 0; i < elementArgs && i < block.getNumArguments(); ++i)
    perElement.insert(block.getArgument(i));
  double ops = 0;
  for (Operation &op : block.without_terminator()) {
    if (perRow.contains(&op) || llvm::none_of(op.getOperands(), [&](Value v) {
          return perElement.contains(v);
        }))
      continue;
    perElement.insert(op.result_begin(), op.result_end());
    ops += getOpWeight(&op);
  }
  return ops;
}

/// Per-element values that a later region (a stage or the epilogue)
/// computes exactly as an earlier stage did and then uses: the kernel
/// computes them once, so they stay live across the reductions between. A
/// value's identity is its computation in terms of region argument
/// positions, which mean the same in every region (column index, row and
/// broadcast elements, scalars, earlier results). The most such values any
/// region carries in.
static int64_t countCarriedValues(RowwiseOp op, unsigned elementArgs) {
  SmallVector<Region *> regions;
  for (Region &stage : op.getStages())
    regions.push_back(&stage);
  if (!op.getEpilogue().empty())
    regions.push_back(&op.getEpilogue());
  llvm::StringSet<> earlier;
  int64_t most = 0;
  for (auto [r, region] : llvm::enumerate(regions)) {
    if (region->empty())
      continue;
    Block &block = region->front();
    llvm::DenseSet<Operation *> perRow = getPerRowOps(op, r);
    llvm::DenseMap<Value, std::string> names;
    llvm::DenseSet<Value> perElement;
    for (BlockArgument arg : block.getArguments()) {
      names[arg] = "%" + std::to_string(arg.getArgNumber());
      if (arg.getArgNumber() < elementArgs)
        perElement.insert(arg);
    }
    llvm::DenseSet<Value> shared;
    SmallVector<std::string> computed;
    for (Operation &op : block.without_terminator()) {
      if (perRow.contains(&op))
        continue;
      std::string name;
      llvm::raw_string_ostream os(name);
      os << op.getName() << op.getAttrDictionary() << "(";
      bool element = false;
      for (Value operand : op.getOperands()) {
        os << names.lookup(operand) << ",";
        element |= perElement.contains(operand);
      }
      os << ")";
      for (OpResult result : op.getResults()) {
        names[result] = name + "#" + std::to_string(result.getResultNumber());
        if (!element)
          continue;
        perElement.insert(result);
        if (earlier.contains(names[result]))
          shared.insert(result);
        else
          computed.push_back(names[result]);
      }
    }
    // Shared values used by something the region computes anew.
    int64_t carried = 0;
    for (Value value : shared)
      carried += llvm::any_of(value.getUsers(), [&](Operation *user) {
        return llvm::none_of(user->getResults(),
                             [&](Value r) { return shared.contains(r); });
      });
    most = std::max(most, carried);
    for (const std::string &name : computed)
      earlier.insert(name);
  }
  return most;
}

/// Whether argument `index` of `region` has a use.
static bool isUsed(Region &region, unsigned index) {
  return !region.empty() && index < region.getNumArguments() &&
         !region.getArgument(index).use_empty();
}

SmallVector<unsigned> mlir::credit::getPrefetchedArgs(RowwiseOp op,
                                                      const KernelPlan &plan) {
  SmallVector<unsigned> args;
  unsigned inputs = op.getInputs().size();
  if (!plan.broadcastsInRegisters)
    for (unsigned i = 0, e = op.getBroadcasts().size(); i < e; ++i)
      if (isUsed(op.getEpilogue(), 1 + inputs + i))
        args.push_back(1 + inputs + i);
  return args;
}

SmallVector<ReusedExponential>
mlir::credit::getReusedExponentials(RowwiseOp op, const KernelPlan &plan) {
  SmallVector<ReusedExponential> reused;
  unsigned stages = op.getNumStages();
  if (plan.staging != Staging::Registers || stages == 0 ||
      op.getEpilogue().empty())
    return reused;
  unsigned stage = stages - 1;
  SmallVector<CombinerKind> kinds = op.getStageCombiners(stage);
  Block &stageBlock = op.getStages()[stage].front();
  Block &block = op.getEpilogue().front();
  unsigned firstResult = op.getNumElementArgs() + op.getScalars().size() +
                         op.getNumResultsBeforeStage(stage);
  // Whether the stage's entry `k` is the maximum of an addexp and yields
  // the element argument `arg`.
  auto isExpMaxOf = [&](unsigned k, unsigned arg) {
    bool partnered = false;
    for (unsigned e = 0; e < kinds.size(); ++e)
      partnered |=
          kinds[e] == CombinerKind::AddExp && getExpPartner(kinds, e) == k;
    Value yielded = stageBlock.getTerminator()->getOperand(k);
    return partnered && yielded == stageBlock.getArgument(arg);
  };
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i) {
    BlockArgument input = block.getArgument(1 + i);
    SmallVector<ReusedExponential> found;
    bool onlyThere = !input.use_empty();
    for (Operation *user : input.getUsers()) {
      auto sub = dyn_cast<arith::SubFOp>(user);
      auto max = sub ? dyn_cast<BlockArgument>(sub.getRhs()) : BlockArgument();
      auto exp = sub && sub->hasOneUse()
                     ? dyn_cast<math::ExpOp>(*sub->user_begin())
                     : math::ExpOp();
      if (!exp || sub.getLhs() != input || !max || max.getOwner() != &block ||
          max.getArgNumber() < firstResult ||
          max.getArgNumber() >= firstResult + kinds.size() ||
          kinds[max.getArgNumber() - firstResult] != CombinerKind::Max ||
          !isExpMaxOf(max.getArgNumber() - firstResult, 1 + i)) {
        onlyThere = false;
        break;
      }
      found.push_back({exp, stage, max.getArgNumber() - firstResult});
    }
    if (onlyThere)
      llvm::append_range(reused, found);
  }
  return reused;
}

bool mlir::credit::isFoldableColumnCompare(arith::CmpIPredicate predicate,
                                           unsigned bits) {
  switch (predicate) {
  case arith::CmpIPredicate::eq:
  case arith::CmpIPredicate::ne:
    return true;
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::sge:
    return bits >= 32;
  default:
    return false;
  }
}

bool mlir::credit::collectColumnCompares(
    Value column, SmallVectorImpl<std::pair<arith::CmpIOp, Value>> &compares) {
  auto collect = [&](Operation *user, Value compared) {
    auto compare = dyn_cast<arith::CmpIOp>(user);
    if (!compare || compare.getLhs() == compare.getRhs())
      return false;
    compares.push_back({compare, compared});
    return true;
  };
  bool onlyCompares = true;
  for (Operation *user : column.getUsers()) {
    if (collect(user, column))
      continue;
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(user)) {
      onlyCompares = false;
      continue;
    }
    for (Operation *castUser : user->getUsers())
      onlyCompares &= collect(castUser, user->getResult(0));
  }
  return onlyCompares;
}

/// Whether `region` computes with its column argument per element: uses
/// other than compares that fold.
static bool needsColumnValues(Region &region) {
  if (!isUsed(region, 0))
    return false;
  SmallVector<std::pair<arith::CmpIOp, Value>> compares;
  if (!collectColumnCompares(region.getArgument(0), compares))
    return true;
  return llvm::any_of(compares, [](auto entry) {
    Type type = entry.second.getType();
    unsigned bits = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    return !isFoldableColumnCompare(entry.first.getPredicate(), bits);
  });
}

//===----------------------------------------------------------------------===//
// buildPlan
//===----------------------------------------------------------------------===//

/// Registers per thread, estimated from what a thread keeps live: a fixed
/// part, a 64-bit address per pointer operand, some per vector access, and
/// per element of its slice the staged row and broadcast values (one
/// register each: where registers hold 16-bit values packed, ptxas left
/// free still takes about as many, see packedRegisters), column sums,
/// values carried from one stage to a later region, and 64-bit column
/// indices where a region uses them, and the exponentials of
/// the online softmax. The coefficients are a least-squares fit to ptxas -v
/// over the 2604 candidate kernels of the cost-model evaluation
/// (benchmarks/COSTMODEL.md): residuals -21..+13 at p5..p95; the
/// exponentials' 0.28 a fit to the 1840 registers-staged kernels with
/// `addexp` stages of the 2026-12-02 evaluation (rms error 24 -> 18).
/// Registers ptxas typically saves on sweep tilings below the estimate.
constexpr int64_t kSweepRegisterMargin = 8;

static int64_t estimateRegisters(const KernelPlan &plan) {
  double pointers = plan.numInputs + plan.numBroadcasts + plan.numScalars +
                    plan.numOutputs + plan.numScalarOutputs +
                    plan.numColumnSums;
  double perElement;
  if (plan.staging == Staging::Registers)
    perElement = 1.0 * plan.numInputs +
                 (plan.broadcastsInRegisters ? 1.1 * plan.numBroadcasts : 0) +
                 1.7 * plan.numColumnSums + 0.13 * plan.carriedValues +
                 1.6 * plan.indexValues + 0.28 * plan.exponentials;
  else if (plan.staging == Staging::Mixed)
    // The register input, half a register per element packed; the staged
    // inputs are read chunk by chunk, and exponentials are recomputed.
    perElement = (plan.packedRegisters ? 0.5 : 1.0) +
                 0.37 * plan.carriedValues + 1.6 * plan.indexValues;
  else
    perElement = 0.8 * plan.numInputs + 0.37 * plan.carriedValues;
  // Cluster kernels of an online softmax: 0.4 registers per rank and stage
  // value. It was fitted (0.38) when every thread held every rank's values
  // in the exchange; since the exchange takes a rank per lane ptxas gives
  // such kernels fewer registers (cross_entropy bf16 128256 c16 t512 e16:
  // 92 -> 40), but without the term the model takes 16-CTA clusters that
  // measure slower (decode cross_entropy 32 x 128256: 9.5 -> 12.2 us,
  // RESULTS.md, tenth session), so it stays as a penalty on large
  // clusters of these kernels until the model prices them otherwise.
  double clusterPenalty = plan.cluster > 1 && plan.exponentials > 0
                              ? 0.4 * plan.cluster * plan.stageWidth
                              : 0.0;
  return plan.prefetchRegisters +
         static_cast<int64_t>(std::lround(18 + 2.5 * pointers +
                                          0.37 * plan.chunks + clusterPenalty +
                                          plan.elems * perElement));
}

std::optional<int64_t> mlir::credit::getMeasuredRegisters(RowwiseOp op,
                                                          TilingAttr tiling) {
  auto pairs = op->getAttrOfType<ArrayAttr>(CreditDialect::kRegistersAttrName);
  if (!pairs)
    return std::nullopt;
  for (Attribute pair : pairs) {
    auto entry = dyn_cast<ArrayAttr>(pair);
    if (entry && entry.size() == 2 && entry[0] == tiling)
      if (auto registers = dyn_cast<IntegerAttr>(entry[1]))
        return registers.getInt();
  }
  return std::nullopt;
}

std::optional<KernelPlan> mlir::credit::buildPlan(RowwiseOp op,
                                                  TilingAttr tiling,
                                                  const TargetInfo &target,
                                                  std::string *whyNot) {
  auto fail = [&](const Twine &reason) -> std::optional<KernelPlan> {
    if (whyNot)
      *whyNot = reason.str();
    return std::nullopt;
  };

  KernelPlan plan;
  plan.tiling = tiling;
  plan.n = op.getRowLength();
  plan.cluster = tiling.getCluster();
  plan.threads = tiling.getThreads();
  plan.vector = tiling.getVector();
  plan.elems = tiling.getElems();
  plan.rows = tiling.getRows();
  plan.staging = tiling.getStaging();
  plan.splits = tiling.getSplits();
  plan.exchange = tiling.getExchange();
  plan.ctasPerRow = tiling.getCtasPerRow();
  plan.threadsPerRow = tiling.getThreadsPerRow();
  plan.warps = llvm::divideCeil(plan.threads, target.warpSize);
  plan.chunks = plan.elems / plan.vector;
  plan.numStages = op.getNumStages();
  plan.stageWidth = op.getMaxStageWidth();
  plan.numInputs = op.getInputs().size();
  plan.numBroadcasts = op.getBroadcasts().size();
  plan.numScalars = op.getScalars().size();
  plan.numOutputs = op.getOutputs().size();
  plan.numScalarOutputs = op.getScalarOutputs().size();
  plan.numColumnSums = op.getColumnSumOutputs().size();
  plan.inputBytesPerColumn = sumElementBytes(op.getInputs());
  plan.outputBytesPerColumn = sumElementBytes(op.getOutputs());
  plan.broadcastBytesPerColumn = sumElementBytes(op.getBroadcasts());
  for (Value value : llvm::concat<Value>(op.getInputs(), op.getBroadcasts(),
                                         op.getOutputs()))
    plan.widestElementBytes =
        std::max(plan.widestElementBytes, elementBytes(value));

  // What the chip allows.
  if (plan.cluster > target.maxClusterSize)
    return fail(llvm::formatv("a cluster of {0} CTAs is larger than {1} "
                              "supports ({2})",
                              plan.cluster, target.chip,
                              target.maxClusterSize));
  if (plan.threads > target.maxThreadsPerCta)
    return fail(llvm::formatv("{0} threads per CTA are more than {1} allows "
                              "({2})",
                              plan.threads, target.chip,
                              target.maxThreadsPerCta));
  if (plan.vector * plan.widestElementBytes > target.maxAccessBytes)
    return fail(llvm::formatv("vector width {0} makes {1}-byte accesses, "
                              "wider than {2} bytes",
                              plan.vector,
                              plan.vector * plan.widestElementBytes,
                              target.maxAccessBytes));
  plan.unusedAccessShare =
      1.0 - double(plan.vector * plan.widestElementBytes) /
                double(target.maxAccessBytes);
  if (plan.splits > 1 && plan.numStages == 0)
    return fail(llvm::formatv("an op without reduction stages has nothing "
                              "for {0} clusters per row to exchange; splits "
                              "must be 1",
                              plan.splits));
  if (plan.n % plan.vector != 0)
    return fail(llvm::formatv("N = {0} is not a multiple of the vector width "
                              "{1}",
                              plan.n, plan.vector));
  if (plan.chunks > kMaxChunksPerSweep)
    return fail(llvm::formatv("each thread would make elems / vector = {0} "
                              "vector accesses per sweep, more than the {1} "
                              "the emitter unrolls",
                              plan.chunks, kMaxChunksPerSweep));

  // What each CTA covers.
  plan.slice = tiling.getSliceLength(plan.n);
  plan.sweeps = tiling.getNumSweeps(plan.n);
  // Two sweeps per iteration of the loop (an odd count's last one after
  // it): ptxas then issues the second's loads while the first computes
  // (shared and reread tilings of one cluster per row 1.04-1.05x faster
  // with an even count, 1.05x with 5; H100, 2026-12-06). Three sweeps
  // stay one per iteration: a pair and one more make no loop, and ptxas,
  // given all three at once, spills under the plan's register budget
  // (softmax bf16 151936 c16 t256 e16 shared: 0 -> 120 bytes). Not for
  // split rows, where it measured no faster (0.998x, 0.93-1.06x).
  plan.sweepsPerIteration =
      (plan.sweeps % 2 == 0 || plan.sweeps >= 5) && plan.splits == 1 ? 2 : 1;
  if (plan.slice * plan.ctasPerRow < plan.n)
    return fail(llvm::formatv("the tiling covers {0} elements of a row, but "
                              "N = {1}",
                              plan.slice * plan.ctasPerRow, plan.n));
  if (plan.slice * plan.ctasPerRow != plan.n) {
    // Chunk c of the last sweep holds elements [c, c + 1) * perChunk of
    // what is left of the row there; the chunks that `left` fills for
    // every thread are never masked.
    int64_t left = plan.n - (plan.ctasPerRow - 1) * plan.slice -
                   (plan.sweeps - 1) * plan.threadsPerRow * plan.elems;
    int64_t perChunk = plan.threadsPerRow * plan.vector;
    plan.maskedChunks =
        plan.chunks - std::clamp<int64_t>(left / perChunk, 0, plan.chunks);
  }
  plan.integerMasks = plan.staging == Staging::Registers &&
                      plan.maskedChunks > kMostBranchedChunks;

  // Shared memory.
  int64_t perStage = 2 * plan.numStages * plan.stageWidth;
  if (plan.threadsPerRow > target.warpSize)
    plan.blockScratchFloats = perStage * plan.warps;
  if (plan.cluster > 1)
    plan.clusterScratchFloats = perStage * plan.cluster;
  if (plan.cluster > 1 && plan.numStages > 0 &&
      plan.exchange == Exchange::Async)
    plan.clusterBarriers = 2 * plan.numStages;
  if (plan.splits > 1)
    plan.gridScratchFloats = perStage;
  plan.staticSharedBytes =
      4 * (plan.blockScratchFloats + plan.clusterScratchFloats +
           plan.gridScratchFloats) +
      8 * plan.clusterBarriers;
  for (auto [i, input] : llvm::enumerate(op.getInputs()))
    if (plan.isInputCopiedAsync(i) &&
        !AsyncCopyOp::isCopySize(plan.vector * elementBytes(input)))
      return fail(llvm::formatv(
          "{0} staging copies 4, 8 or 16 bytes at a time, but a vector "
          "of {1} {2} is {3} bytes",
          stringifyStaging(plan.staging), plan.vector,
          getElementTypeOrSelf(input), plan.vector * elementBytes(input)));
  if (plan.staging == Staging::Mixed && plan.numInputs < 2)
    return fail("mixed staging keeps the last row input in registers and "
                "the others in shared memory, but the op has one row input");
  if (plan.staging != Staging::Registers && plan.staging != Staging::Reread) {
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      if (plan.isInputInRegisters(i))
        continue;
      plan.stagedInputOffsets.push_back(plan.dynamicSharedBytes);
      plan.dynamicSharedBytes +=
          llvm::alignTo(plan.rows * plan.slice * elementBytes(input), 16);
    }
  }
  int64_t shared = plan.staticSharedBytes + plan.dynamicSharedBytes;
  if (shared > target.maxSharedMemoryPerCta)
    return fail(llvm::formatv("the tiling needs {0} bytes of shared memory "
                              "per CTA, more than the {1} a CTA can have on "
                              "{2}",
                              shared, target.maxSharedMemoryPerCta,
                              target.chip));

  // The grid rule. A CTA that loops over rows keeps the broadcast inputs
  // in registers, loaded once; one that has a single row group loads them
  // where they are used rather than hold them across the reductions.
  if (plan.numColumnSums)
    plan.grid = GridPolicy::RowBlocks;
  else if (plan.cluster == 1 && plan.splits == 1)
    plan.grid = GridPolicy::RowGroupPerCluster;
  else
    plan.grid = GridPolicy::OneWave;
  plan.broadcastsInRegisters = plan.staging == Staging::Registers &&
                               plan.grid != GridPolicy::RowGroupPerCluster;
  // Traffic per row. Regions read a row input (with rereads) or a broadcast
  // input (without registers staging) only where they use it.
  SmallVector<Region *> regions;
  for (Region &stage : op.getStages())
    regions.push_back(&stage);
  if (!op.getEpilogue().empty())
    regions.push_back(&op.getEpilogue());
  int64_t scalarBytes = sumElementBytes(op.getScalars()) +
                        sumElementBytes(op.getScalarOutputs());
  plan.compulsoryBytesPerRow =
      plan.n * (plan.inputBytesPerColumn + plan.outputBytesPerColumn) +
      scalarBytes;
  // Row reads of each region (unused inputs are not loaded, except where
  // registers or the shared stage take the whole row at once).
  int64_t readingRegions = 0, rowReads = 0, laterRowReads = 0,
          laterRowBytes = 0, broadcastReads = 0;
  for (auto [r, region] : llvm::enumerate(regions)) {
    bool readsRow = false;
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      if (!isUsed(*region, 1 + i))
        continue;
      readsRow = true;
      ++rowReads;
      if (r > 0 && !plan.isInputInRegisters(i)) {
        ++laterRowReads;
        laterRowBytes += elementBytes(input);
      }
      if (plan.staging == Staging::Reread)
        plan.rereadBytesPerRow += plan.n * elementBytes(input);
    }
    readingRegions += readsRow;
    for (auto [i, input] : llvm::enumerate(op.getBroadcasts())) {
      if (plan.broadcastsInRegisters ||
          !isUsed(*region, 1 + plan.numInputs + i))
        continue;
      ++broadcastReads;
      plan.broadcastBytesPerRow += plan.n * elementBytes(input);
    }
  }
  if (plan.broadcastsInRegisters)
    for (Value input : op.getBroadcasts())
      plan.broadcastBytesPerCta += plan.slice * elementBytes(input);
  // The epilogue's software pipeline: what one sweep of its broadcast
  // loads holds, in 32-bit registers (they stay in their storage type).
  if (plan.sweeps > 1) {
    int64_t bytes = 0;
    for (unsigned arg : getPrefetchedArgs(op, plan))
      bytes += elementBytes(op.getBroadcasts()[arg - 1 - plan.numInputs]);
    plan.prefetchRegisters = llvm::divideCeil(plan.elems * bytes, 4);
  }
  // A sqdev stage passes over the staged slice again for the deviations
  // (rows reread from global memory merge per sweep instead).
  if (plan.staging != Staging::Reread)
    for (unsigned stage = 0; stage < plan.numStages; ++stage)
      if (llvm::is_contained(op.getStageCombiners(stage), CombinerKind::SqDev))
        for (auto [i, input] : llvm::enumerate(op.getInputs()))
          if (isUsed(op.getStages()[stage], 1 + i) &&
              !plan.isInputInRegisters(i)) {
            ++laterRowReads;
            laterRowBytes += elementBytes(input);
          }
  if (plan.staging == Staging::Reread)
    plan.rereadBytesPerRow = std::max<int64_t>(
        0, plan.rereadBytesPerRow - plan.n * plan.inputBytesPerColumn);
  if (plan.cluster > 1) {
    plan.exchangeRounds = plan.numStages;
    for (unsigned stage = 0; stage < plan.numStages; ++stage)
      plan.dsmemBytesPerRow += plan.splits * plan.cluster * plan.cluster * 4 *
                               op.getStageCombiners(stage).size();
  }
  if (plan.splits > 1) {
    plan.gridRounds = plan.numStages;
    for (unsigned stage = 0; stage < plan.numStages; ++stage)
      plan.splitPartialFloatsPerRow +=
          plan.splits * op.getStageCombiners(stage).size();
  }
  if (plan.threadsPerRow > target.warpSize)
    plan.blockRounds = plan.numStages;
  if (plan.staging != Staging::Registers && plan.numColumnSums) {
    plan.columnSumBytesPerRow = plan.numColumnSums * plan.n * 4 * 2;
    plan.columnSumRounds = plan.sweeps;
  }
  double vector = double(plan.vector);
  // Column sums outside registers are read and written back per row.
  int64_t outputAccesses =
      plan.numOutputs +
      plan.numColumnSums * (plan.staging == Staging::Registers ? 0 : 2);
  plan.bytesInFlightPerCta =
      (plan.staging == Staging::Async ? plan.rows * plan.slice
                                      : plan.threads * plan.elems) *
      plan.inputBytesPerColumn;
  // Bytes per column of the row inputs in the shared-memory stage.
  int64_t stagedBytesPerColumn = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs()))
    if (!plan.isInputInRegisters(i))
      stagedBytesPerColumn += elementBytes(input);
  switch (plan.staging) {
  case Staging::Registers:
    plan.dramRounds = 1;
    plan.globalAccessesPerElement =
        (plan.numInputs + broadcastReads + outputAccesses) / vector;
    break;
  case Staging::Shared:
  case Staging::Async:
  case Staging::Mixed: {
    // Async copies: one round for the whole slice, which the first stage
    // then reads back from shared memory like the later ones.
    bool async = plan.staging != Staging::Shared;
    int64_t staged = plan.stagedInputOffsets.size();
    plan.dramRounds = async ? 1 : plan.sweeps;
    plan.globalAccessesPerElement =
        (plan.numInputs + broadcastReads + outputAccesses) / vector;
    plan.sharedAccessesPerElement =
        ((async ? 2 : 1) * staged + laterRowReads) / vector;
    plan.sharedBytesPerRow =
        plan.n * ((async ? 2 : 1) * stagedBytesPerColumn + laterRowBytes);
    break;
  }
  case Staging::Reread:
    plan.dramRounds = plan.sweeps;
    plan.rereadRounds =
        plan.sweeps * std::max<int64_t>(0, readingRegions - 1);
    plan.globalAccessesPerElement =
        (rowReads + broadcastReads + outputAccesses) / vector;
    break;
  }

  // What stays live per element across the reductions.
  unsigned elementArgs = op.getNumElementArgs();
  plan.carriedValues = countCarriedValues(op, elementArgs);
  for (Region *region : regions)
    plan.indexValues =
        std::max<int64_t>(plan.indexValues, needsColumnValues(*region));

  // Arithmetic: the regions' per-element ops, one combine per reduced
  // value, and a conversion per loaded input and stored output.
  for (auto [r, region] : llvm::enumerate(regions))
    plan.opsPerElement +=
        getElementOps(*region, elementArgs, getPerRowOps(op, r));
  // A reused exponential is a multiplication instead of x - m and exp.
  for (const ReusedExponential &reused : getReusedExponentials(op, plan))
    plan.opsPerElement -=
        getOpWeight(reused.exp) +
        getOpWeight(reused.exp->getOperand(0).getDefiningOp()) - 1;
  for (unsigned stage = 0; stage < plan.numStages; ++stage) {
    SmallVector<CombinerKind> combiners = op.getStageCombiners(stage);
    for (unsigned k = 0; k < combiners.size(); ++k)
      plan.opsPerElement += !matchColumnPick(op, stage, k);
    plan.exponentials += llvm::count(combiners, CombinerKind::AddExp);
    // A squared deviation: subtract the chunk's mean, square, add.
    plan.opsPerElement += 2 * llvm::count(combiners, CombinerKind::SqDev);
  }
  plan.opsPerElement += plan.numInputs + plan.numOutputs + plan.numColumnSums;
  // Mixed staging's addexp stages compute their element values again after
  // the sweep's maximum: their arithmetic, the conversion of each input
  // they use and its shared-memory reads twice.
  plan.recomputeExponentials =
      plan.staging == Staging::Mixed && plan.exponentials > 0;
  for (unsigned stage = 0; plan.recomputeExponentials && stage < plan.numStages;
       ++stage) {
    Region &region = op.getStages()[stage];
    if (!llvm::is_contained(op.getStageCombiners(stage), CombinerKind::AddExp))
      continue;
    plan.opsPerElement +=
        getElementOps(region, elementArgs, getPerRowOps(op, stage));
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      if (!isUsed(region, 1 + i))
        continue;
      plan.opsPerElement += 1;
      if (!plan.isInputInRegisters(i)) {
        plan.sharedAccessesPerElement += 1 / vector;
        plan.sharedBytesPerRow += plan.n * elementBytes(input);
      }
    }
  }

  auto narrow = [](Value operand) { return elementBytes(operand) < 4; };
  plan.packedRegisters =
      (plan.staging == Staging::Registers && plan.exponentials == 0 &&
       (llvm::any_of(op.getInputs(), narrow) ||
        (plan.broadcastsInRegisters &&
         llvm::any_of(op.getBroadcasts(), narrow)))) ||
      (plan.staging == Staging::Mixed && narrow(op.getInputs().back()));

  if (plan.staging == Staging::Registers)
    plan.stagedValues =
        plan.elems *
        (plan.numInputs + (plan.broadcastsInRegisters ? plan.numBroadcasts : 0) +
         plan.numColumnSums);
  else if (plan.staging == Staging::Mixed)
    plan.stagedValues = plan.elems;

  // Occupancy. Threads and shared memory bound the CTAs per SM; within that
  // the plan picks the most CTAs whose register budget the estimate fits
  // and builds the kernel to it (.maxnreg), so that the occupancy the model
  // scores is the one the GPU runs. Sweeps keep few values live and ptxas
  // packs them tightly, so their estimate gets a margin.
  int64_t byThreads = target.maxThreadsPerSM / plan.threads;
  int64_t byShared = target.sharedMemoryPerSM /
                     (shared + target.reservedSharedMemoryPerCta);
  int64_t upper = std::min({target.maxCtasPerSM, byThreads, byShared});
  if (upper < 1)
    return fail(llvm::formatv("no CTA of {0} threads with {1} bytes of "
                              "shared memory fits on an SM of {2}",
                              plan.threads, shared, target.chip));
  plan.occupancyLimit = upper == byShared    ? OccupancyLimit::SharedMemory
                        : upper == byThreads ? OccupancyLimit::Threads
                                             : OccupancyLimit::CtaSlots;
  int64_t wanted = estimateRegisters(plan);
  int64_t slack = plan.tiling.isOneSweep() ? 0 : kSweepRegisterMargin;
  // Registers staging without split rows is built uncapped, so ptxas's
  // count, where a build driver has given it (credit.registers), is what
  // the kernel runs with.
  if (plan.staging == Staging::Registers && plan.splits == 1) {
    if (std::optional<int64_t> measured = getMeasuredRegisters(op, tiling)) {
      wanted = *measured;
      slack = 0;
    }
  }
  auto budgetFor = [&](int64_t ctas) {
    int64_t warps =
        llvm::alignTo(ctas * plan.warps, target.warpAllocationGranularity);
    return std::min(target.maxRegistersPerThread,
                    target.registersPerSM / (warps * target.warpSize) /
                        target.registerGranularity *
                        target.registerGranularity);
  };
  plan.ctasPerSM = upper;
  while (plan.ctasPerSM > 1 && budgetFor(plan.ctasPerSM) < wanted - slack) {
    --plan.ctasPerSM;
    plan.occupancyLimit = OccupancyLimit::Registers;
  }
  plan.registerBudget = budgetFor(plan.ctasPerSM);
  // The clusters of a split row wait for each other, so the residency the
  // plan counts on must be the GPU's: such kernels are held to the budget
  // whatever their staging (uncapped, ptxas may take more registers than
  // estimated and leave fewer CTAs per SM than the grid needs).
  plan.enforceRegisterBudget =
      plan.staging != Staging::Registers || plan.splits > 1;
  plan.expectSpills = wanted - slack > plan.registerBudget;
  plan.registersOverBudget = std::max<int64_t>(0, wanted - plan.registerBudget);
  plan.estimatedRegisters = std::min(wanted, plan.registerBudget);
  plan.occupancy = double(plan.ctasPerSM * plan.warps) /
                   double(target.maxThreadsPerSM / target.warpSize);
  plan.coResidentClusters =
      target.getMaxActiveClusters(plan.cluster, plan.ctasPerSM);
  if (plan.coResidentClusters < 1)
    return fail(llvm::formatv("no cluster of {0} CTAs with {1} CTAs per SM "
                              "fits on the GPU at once",
                              plan.cluster, plan.ctasPerSM));
  // The clusters of a split row wait for each other, so every cluster of a
  // launch must be resident: at least one whole group has to fit.
  plan.coResidentGroups = plan.coResidentClusters / plan.splits;
  if (plan.coResidentGroups < 1)
    return fail(llvm::formatv("a row split over {0} clusters of {1} CTAs "
                              "needs them all resident at once, but {2} "
                              "holds only {3} such clusters",
                              plan.splits, plan.cluster, target.chip,
                              plan.coResidentClusters));
  return plan;
}
