//===- ChainAnalysis.cpp - finding reduction-reuse chains in linalg -------===//
//
// Part of the CREDIT project.
//
// A chain grows from a row reduction along SSA edges to every linalg op
// (and unit-dimension reshape) that iterates the same rows and columns:
// elementwise ops over rows, over per-row values and over broadcast
// vectors, and further row reductions. Each tensor of the chain then gets
// a space (row, per-row, column, uniform) from the indexing maps that read
// and write it; ops with one loop over a 1-D tensor take the space of the
// tensors they connect, which tells a per-row [M] from a broadcast [N] even
// when M = N. The chain is raised only if every part of it is something a
// credit.rowwise region can express; the reasons it cannot are spelled out
// in isCompatible and analyzeChain.
//
//===----------------------------------------------------------------------===//

#include "Chain.h"

#include "Credit/Dialect/CreditAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::raise;

namespace {
/// How a chain op reads or writes one operand.
enum class Access { Identity, Lead, LeadKeep, Column, Uniform };

/// How a linalg op of a chain of rank R and row length N iterates.
enum class Form {
  None,
  /// R parallel loops, the last of extent N.
  RowElementwise,
  /// R - 1 parallel loops, then the last (extent N) reduced.
  RowReduction,
  /// R parallel loops, the last of extent 1: per-row values kept as
  /// [lead..., 1].
  KeepElementwise,
  /// R - 1 parallel loops over per-row values (R > 2).
  LeadElementwise,
  /// One parallel loop of extent N over broadcast vectors (R > 2).
  ColumnElementwise,
  /// R = 2: one parallel loop, over per-row values or broadcast vectors.
  OneLoop,
};
} // namespace

/// How `map`, of an op with `loops` loops in a chain of rank `rank`,
/// indexes its operand; nothing for maps a chain cannot have (transposes,
/// reductions of other dimensions, broadcasts along rows).
static std::optional<Access> getAccess(AffineMap map, int64_t loops,
                                       int64_t rank) {
  if (map.getNumResults() == 0)
    return Access::Uniform;
  if (map.isIdentity())
    return Access::Identity;
  if (loops != rank)
    return std::nullopt;
  ArrayRef<AffineExpr> results = map.getResults();
  auto isLead = [&](size_t count) {
    for (size_t i = 0; i < count; ++i) {
      auto dim = dyn_cast<AffineDimExpr>(results[i]);
      if (!dim || dim.getPosition() != i)
        return false;
    }
    return true;
  };
  if (int64_t(results.size()) == rank - 1 && isLead(rank - 1))
    return Access::Lead;
  if (int64_t(results.size()) == rank && isLead(rank - 1)) {
    auto zero = dyn_cast<AffineConstantExpr>(results.back());
    if (zero && zero.getValue() == 0)
      return Access::LeadKeep;
  }
  if (results.size() == 1) {
    auto dim = dyn_cast<AffineDimExpr>(results.front());
    if (dim && dim.getPosition() == rank - 1)
      return Access::Column;
  }
  return std::nullopt;
}

/// The operands whose values the payload of `op` reads: its inputs, and
/// the inits whose block arguments are used.
static SmallVector<OpOperand *> getDataOperands(linalg::LinalgOp op) {
  SmallVector<OpOperand *> operands = op.getDpsInputOperands();
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingBlockArgument(&init).use_empty())
      operands.push_back(&init);
  return operands;
}

static bool isRegionScalarType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return isa<IndexType, Float16Type, BFloat16Type, Float32Type, Float64Type>(
      type);
}

static bool isConstant(Value value) {
  return matchPattern(value, m_Constant());
}

/// Why the payload of `op` is not scalar arith/math code, with scf.if
/// branches of such code, that a rowwise region can hold (no memory
/// effects, values from outside only constants, `linalg.index` only of
/// loop `columnLoop`, -1: none), or an empty string. Sets `usesIndex`.
static std::string whyNotExpressible(linalg::LinalgOp op, int64_t columnLoop,
                                     bool &usesIndex) {
  Block *body = op.getBlock();
  Region *payload = body->getParent();
  usesIndex = false;
  if (!llvm::all_of(body->getArgumentTypes(), isRegionScalarType))
    return "its payload computes on values that are not integers, index, "
           "f16, bf16, f32 or f64";
  std::string why;
  body->walk([&](Operation *inner) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (int64_t(index.getDim()) != columnLoop) {
        why = "its payload reads the index of loop " +
              std::to_string(index.getDim()) + ", a row dimension";
        return WalkResult::interrupt();
      }
      usesIndex = true;
      return WalkResult::advance();
    }
    StringRef dialect = inner->getName().getDialectNamespace();
    bool scalar = llvm::all_of(inner->getOperandTypes(), isRegionScalarType) &&
                  llvm::all_of(inner->getResultTypes(), isRegionScalarType);
    bool branch = isa<scf::IfOp, scf::YieldOp>(inner);
    if (!isa<linalg::YieldOp>(inner) &&
        ((dialect != "arith" && dialect != "math" && !branch) ||
         (inner->getNumRegions() != 0 && !isa<scf::IfOp>(inner)) ||
         !isMemoryEffectFree(inner) || !scalar)) {
      why = "its payload has " + inner->getName().getStringRef().str() +
            ", which is not scalar arith or math code";
      return WalkResult::interrupt();
    }
    for (Value operand : inner->getOperands())
      if (!payload->isAncestor(operand.getParentRegion()) &&
          !isConstant(operand)) {
        why = "its payload reads a value from outside that is not a "
              "constant";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return why;
}

/// The combiner of the reduction `op`: its only init is an f32 accumulator
/// that the payload folds one element into with addf, maximumf, minimumf,
/// maxnumf or minnumf.
static std::optional<Reduction> matchCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  BlockArgument acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!acc.getType().isF32() || !acc.hasOneUse())
    return std::nullopt;
  Value folded = op.getBlock()->getTerminator()->getOperand(0);
  Operation *combiner = folded.getDefiningOp();
  if (!combiner || combiner->getBlock() != op.getBlock() ||
      !folded.hasOneUse() || combiner->getNumOperands() != 2)
    return std::nullopt;
  Value lhs = combiner->getOperand(0), rhs = combiner->getOperand(1);
  Value element = lhs == acc ? rhs : rhs == acc ? lhs : Value();
  if (!element)
    return std::nullopt;
  Reduction reduction;
  reduction.op = op;
  reduction.combiner = combiner;
  reduction.element = element;
  if (isa<arith::AddFOp>(combiner))
    reduction.kind = CombinerKind::Add;
  else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    reduction.kind = CombinerKind::Max;
  else if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    reduction.kind = CombinerKind::Min;
  else
    return std::nullopt;
  reduction.ignoresNaN = isa<arith::MaxNumFOp, arith::MinNumFOp>(combiner);
  return reduction;
}

/// How `op` iterates in a chain of rank `rank` and row length `n`.
static Form getForm(linalg::LinalgOp op, int64_t rank, int64_t n) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0)
    return Form::None;
  int64_t loops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  auto parallelUpTo = [&](int64_t count) {
    return llvm::all_of(ArrayRef(iterators).take_front(count), [](auto it) {
      return it == utils::IteratorType::parallel;
    });
  };
  Form form = Form::None;
  if (loops == rank && parallelUpTo(rank - 1)) {
    bool reduces = iterators.back() == utils::IteratorType::reduction;
    if (extents.back() == n)
      form = reduces ? Form::RowReduction : Form::RowElementwise;
    else if (extents.back() == 1 && !reduces)
      form = Form::KeepElementwise;
  } else if (loops == rank - 1 && rank > 2 && parallelUpTo(loops)) {
    form = Form::LeadElementwise;
  } else if (loops == 1 && parallelUpTo(1)) {
    if (rank == 2)
      form = Form::OneLoop;
    else if (extents.front() == n)
      form = Form::ColumnElementwise;
  }
  if (form == Form::None)
    return form;

  // Every operand is read or written in a way the form allows.
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<Access> access =
        getAccess(op.getMatchingIndexingMap(&operand), loops, rank);
    if (!access)
      return Form::None;
    if (op.isDpsInit(&operand)) {
      bool keeps = *access == Access::Lead || *access == Access::LeadKeep;
      if (form == Form::RowReduction ? !keeps : *access != Access::Identity)
        return Form::None;
      continue;
    }
    // Over [lead..., 1] there is no column to read a broadcast vector at.
    if (*access == Access::Column && form == Form::KeepElementwise)
      return Form::None;
  }
  return form;
}

/// The loop `linalg.index` may name in an op of `form`: the column loop.
static int64_t getColumnLoop(Form form, int64_t rank) {
  switch (form) {
  case Form::RowElementwise:
  case Form::RowReduction:
    return rank - 1;
  case Form::ColumnElementwise:
  case Form::OneLoop: // then the op must turn out to be over columns
    return 0;
  default:
    return -1;
  }
}

/// Whether `op` reshapes a per-row value between [lead...] and
/// [lead..., 1], or casts a tensor to a type of the same shape class.
static bool isPassThrough(Operation *op, int64_t rank) {
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    auto from = dyn_cast<RankedTensorType>(cast.getSource().getType());
    auto to = dyn_cast<RankedTensorType>(cast.getType());
    return from && to && from.getRank() == to.getRank() &&
           from.getElementType() == to.getElementType() &&
           (from.getRank() == 0 ||
            from.getShape().back() == to.getShape().back());
  }
  if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return false;
  auto from = cast<RankedTensorType>(op->getOperand(0).getType());
  auto to = cast<RankedTensorType>(op->getResult(0).getType());
  if (from.getRank() > to.getRank())
    std::swap(from, to);
  return from.getRank() == rank - 1 && to.getRank() == rank &&
         to.getShape().back() == 1 &&
         from.getShape() == to.getShape().drop_back();
}

namespace {
/// What one chain op is.
struct Member {
  Form form = Form::None; // None for a pass-through op
  bool usesIndex = false;
};

/// Assigns spaces to values: some are fixed by how they are accessed,
/// others are only known to share one (the operands and results of a
/// one-loop op); a value given two spaces is a conflict.
class SpaceSolver {
public:
  bool set(Value value, Space space) {
    unsigned root = find(getId(value));
    if (labels[root] != Space::Unknown && labels[root] != space)
      return false;
    labels[root] = space;
    return true;
  }
  bool unite(Value lhs, Value rhs) {
    unsigned a = find(getId(lhs)), b = find(getId(rhs));
    if (a == b)
      return true;
    if (labels[a] != Space::Unknown && labels[b] != Space::Unknown &&
        labels[a] != labels[b])
      return false;
    if (labels[a] == Space::Unknown)
      labels[a] = labels[b];
    parents[b] = a;
    return true;
  }
  Space get(Value value) {
    auto it = ids.find(value);
    return it == ids.end() ? Space::Unknown : labels[find(it->second)];
  }

private:
  unsigned getId(Value value) {
    auto [it, inserted] = ids.try_emplace(value, parents.size());
    if (inserted) {
      parents.push_back(it->second);
      labels.push_back(Space::Unknown);
    }
    return it->second;
  }
  unsigned find(unsigned id) {
    while (parents[id] != id)
      id = parents[id] = parents[parents[id]];
    return id;
  }
  DenseMap<Value, unsigned> ids;
  SmallVector<unsigned> parents;
  SmallVector<Space> labels;
};
} // namespace

/// Whether `op` can be part of a chain of rank `rank` and row length `n`.
/// Whether `op` can be part of a chain of rank `rank` and row length `n`;
/// `whyNot`, when given, says why not.
static std::optional<Member> getMember(Operation *op, int64_t rank, int64_t n,
                                       std::string *whyNot = nullptr) {
  auto fail = [&](std::string reason) -> std::optional<Member> {
    if (whyNot)
      *whyNot = std::move(reason);
    return std::nullopt;
  };
  if (isPassThrough(op, rank))
    return Member{};
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return fail("it is neither a linalg op nor a reshape of per-row values");
  Member member;
  member.form = getForm(linalgOp, rank, n);
  if (member.form == Form::None)
    return fail("it does not iterate over the chain's rows and columns "
                "(its loops, iterators or indexing maps)");
  std::string payload = whyNotExpressible(
      linalgOp, getColumnLoop(member.form, rank), member.usesIndex);
  if (!payload.empty())
    return fail(payload);
  if (member.form == Form::RowReduction && !matchCombiner(linalgOp))
    return fail("it reduces with something other than addf, maximumf, "
                "minimumf, maxnumf or minnumf into an f32 accumulator");
  return member;
}

bool mlir::credit::raise::isRowReduction(linalg::LinalgOp op) {
  int64_t rank = op.getNumLoops();
  if (rank < 2)
    return false;
  int64_t n = op.getStaticLoopRanges().back();
  if (ShapedType::isDynamic(n) || n < 1 || n > RowwiseOp::kMaxRowLength)
    return false;
  return getForm(op, rank, n) == Form::RowReduction;
}

/// The operands of `op` that carry values into it.
static SmallVector<OpOperand *> getChainOperands(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return getDataOperands(linalgOp);
  return {&op->getOpOperand(0)};
}

/// Whether `type` fits `space` in a chain of rank `rank`, row length `n`.
static bool fitsSpace(Type type, Space space, int64_t rank, int64_t n) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  switch (space) {
  case Space::Row:
    return tensor && tensor.getRank() == rank && tensor.getShape().back() == n;
  case Space::PerRow:
    return tensor && (tensor.getRank() == rank - 1 ||
                      (tensor.getRank() == rank && tensor.getShape().back() == 1));
  case Space::Column:
    return tensor && tensor.getRank() == 1 && tensor.getShape().back() == n;
  case Space::Uniform:
    return !tensor || tensor.getRank() == 0;
  case Space::Unknown:
    return false;
  }
  return false;
}

/// The value every element of `tensor` has, when that is known here: a
/// splat constant, or a linalg.fill of a constant.
static std::optional<APFloat> getSplatFloat(Value tensor) {
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    tensor = fill.getInputs().front();
  FloatAttr value;
  if (matchPattern(tensor, m_Constant(&value)))
    return value.getValue();
  DenseFPElementsAttr splat;
  if (matchPattern(tensor, m_Constant(&splat)) && splat.isSplat())
    return splat.getSplatValue<APFloat>();
  return std::nullopt;
}

/// Whether `value` is the identity of `reduction`'s combiner.
static bool isIdentity(const Reduction &reduction, const APFloat &value) {
  switch (reduction.kind) {
  case CombinerKind::Add:
  case CombinerKind::AddExp:
  case CombinerKind::SqDev:
    return value.isZero();
  case CombinerKind::Max:
    return value.isInfinity() && value.isNegative();
  case CombinerKind::Min:
    return value.isInfinity() && !value.isNegative();
  }
  return false;
}

static bool isElementType(Type type, ArrayRef<StringRef> names) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return false;
  Type element = shaped.getElementType();
  auto is = [&](StringRef name) { return llvm::is_contained(names, name); };
  return (element.isF32() && is("f32")) || (element.isBF16() && is("bf16")) ||
         (element.isF16() && is("f16")) ||
         (element.isInteger(8) && is("i8")) ||
         (element.isInteger(32) && is("i32")) ||
         (element.isInteger(64) && is("i64"));
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::optional<Chain>
mlir::credit::raise::analyzeChain(linalg::LinalgOp seed,
                                  llvm::SmallPtrSetImpl<Operation *> &visited,
                                  Diagnosis *whyNot) {
  auto fail = [&](Operation *op, const Twine &reason) -> std::optional<Chain> {
    if (whyNot) {
      whyNot->op = op;
      whyNot->reason = reason.str();
    }
    return std::nullopt;
  };
  Chain chain;
  chain.block = seed->getBlock();
  chain.rank = seed.getNumLoops();
  chain.n = seed.getStaticLoopRanges().back();
  int64_t rank = chain.rank, n = chain.n;

  // The chain: everything compatible that is connected to the seed by
  // values flowing from one op into another.
  DenseMap<Operation *, Member> members;
  SmallVector<Operation *> worklist;
  auto consider = [&](Operation *op) {
    if (!op || op->getBlock() != chain.block || members.count(op))
      return;
    std::optional<Member> member = getMember(op, rank, n);
    if (!member)
      return;
    members[op] = *member;
    worklist.push_back(op);
  };
  std::string whyNotSeed;
  if (!getMember(seed, rank, n, &whyNotSeed)) {
    visited.insert(seed);
    return fail(seed, "a reduction of the last dimension, but " + whyNotSeed);
  }
  consider(seed);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (OpOperand *operand : getChainOperands(op))
      consider(operand->get().getDefiningOp());
    for (Value result : op->getResults())
      for (OpOperand &use : result.getUses()) {
        Operation *user = use.getOwner();
        if (user->getBlock() != chain.block || members.count(user))
          continue;
        std::optional<Member> member = getMember(user, rank, n);
        if (member && llvm::is_contained(getChainOperands(user), &use))
          consider(user);
      }
  }
  std::string conflict = "it reads or writes a tensor both as rows or "
                         "per-row values and as a broadcast vector";
  for (auto &entry : members) {
    visited.insert(entry.first);
    chain.members.push_back(entry.first);
    chain.memberSet.insert(entry.first);
  }
  llvm::sort(chain.members,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // Spaces from the indexing maps.
  SpaceSolver spaces;
  for (Operation *op : chain.members) {
    const Member &member = members[op];
    if (member.form == Form::None) { // a pass-through op
      Value from = op->getOperand(0), to = op->getResult(0);
      if (isa<tensor::CastOp>(op) ? !spaces.unite(from, to)
                                  : !spaces.set(from, Space::PerRow) ||
                                        !spaces.set(to, Space::PerRow))
        return fail(op, conflict);
      continue;
    }
    auto linalgOp = cast<linalg::LinalgOp>(op);
    int64_t loops = linalgOp.getNumLoops();
    Value anchor = op->getResult(0);
    Space resultSpace = Space::Unknown;
    switch (member.form) {
    case Form::RowElementwise:
      resultSpace = Space::Row;
      break;
    case Form::RowReduction:
    case Form::KeepElementwise:
    case Form::LeadElementwise:
      resultSpace = Space::PerRow;
      break;
    case Form::ColumnElementwise:
      resultSpace = Space::Column;
      break;
    default:
      break;
    }
    for (Value result : op->getResults())
      if (resultSpace == Space::Unknown ? !spaces.unite(anchor, result)
                                        : !spaces.set(result, resultSpace))
        return fail(op, conflict);
    // linalg.index in a one-loop op names the column only over columns.
    if (member.form == Form::OneLoop && member.usesIndex &&
        !spaces.set(anchor, Space::Column))
      return fail(op, "its payload reads the row index (linalg.index)");
    for (OpOperand *operand : getDataOperands(linalgOp)) {
      Access access =
          *getAccess(linalgOp.getMatchingIndexingMap(operand), loops, rank);
      Value value = operand->get();
      bool ok = true;
      switch (access) {
      case Access::Uniform:
        ok = spaces.set(value, Space::Uniform);
        break;
      case Access::Lead:
      case Access::LeadKeep:
        ok = spaces.set(value, Space::PerRow);
        break;
      case Access::Column:
        ok = spaces.set(value, Space::Column);
        break;
      case Access::Identity:
        if (member.form == Form::RowElementwise ||
            member.form == Form::RowReduction)
          ok = spaces.set(value, Space::Row);
        else if (member.form == Form::OneLoop)
          ok = spaces.unite(anchor, value);
        else
          ok = spaces.set(value, resultSpace);
        break;
      }
      if (!ok)
        return fail(op, conflict);
    }
  }

  // Every value of the chain has a space its type fits.
  auto record = [&](Value value) -> bool {
    Space space = spaces.get(value);
    if (!fitsSpace(value.getType(), space, rank, n))
      return false;
    chain.spaces[value] = space;
    return true;
  };
  for (Operation *op : chain.members) {
    for (Value result : op->getResults())
      if (!record(result))
        return fail(op, "its result is neither rows, per-row values nor a "
                        "broadcast vector of the chain");
    for (OpOperand *operand : getChainOperands(op))
      if (!record(operand->get()))
        return fail(op, "operand #" + Twine(operand->getOperandNumber()) +
                            " is neither rows, per-row values nor a "
                            "broadcast vector of the chain");
  }

  // Operands from outside: row, broadcast and per-row inputs; splat
  // constants and scalars, which must be constants, are inlined.
  for (Operation *op : chain.members) {
    for (OpOperand *operand : getChainOperands(op)) {
      Value value = operand->get();
      if (chain.isMemberResult(value))
        continue;
      if (!isa<RankedTensorType>(value.getType())) {
        if (!isConstant(value))
          return fail(op, "it reads a scalar that is not a constant");
        continue;
      }
      DenseElementsAttr splat;
      if (matchPattern(value, m_Constant(&splat)) && splat.isSplat()) {
        chain.constants[value] = splat.getSplatValue<TypedAttr>();
        continue;
      }
      auto unsupported = [&](StringRef what) {
        return fail(op, Twine(what) + " of type " +
                            typeToString(value.getType()) +
                            " is not one a credit.rowwise op takes");
      };
      switch (chain.spaces[value]) {
      case Space::Row:
        if (!isElementType(value.getType(), {"f32", "bf16", "f16"}))
          return unsupported("a row input");
        chain.rowInputs.insert(value);
        break;
      case Space::Column:
        if (!isElementType(value.getType(), {"f32", "bf16", "f16"}))
          return unsupported("a broadcast input");
        chain.broadcasts.insert(value);
        break;
      case Space::PerRow:
        if (!isElementType(value.getType(),
                           {"f32", "bf16", "f16", "i32", "i64"}))
          return unsupported("a per-row input");
        chain.scalars.insert(value);
        break;
      default:
        return unsupported("a 0-d tensor computed at run time");
      }
    }
  }
  if (chain.rowInputs.empty())
    return fail(seed, "the chain reads no rows from outside it");

  // Results used outside become outputs, which the users must come after:
  // the rowwise op takes the place of the chain's last op.
  Operation *last = chain.members.back();
  for (Operation *op : chain.members) {
    for (Value result : op->getResults()) {
      bool outside = false;
      for (Operation *user : result.getUsers()) {
        if (chain.isMember(user))
          continue;
        Operation *ancestor = chain.block->findAncestorOpInBlock(*user);
        if (!ancestor || ancestor->isBeforeInBlock(last))
          return fail(op, "its result is used by an op before the chain "
                          "ends, which one rowwise op cannot feed");
        outside = true;
      }
      if (!outside)
        continue;
      Space space = chain.spaces[result];
      if (space == Space::Row &&
          isElementType(result.getType(), {"f32", "bf16", "f16", "i8"}))
        chain.rowOutputs.insert(result);
      else if (space == Space::PerRow &&
               isElementType(result.getType(),
                             {"f32", "bf16", "f16", "i32", "i64"}))
        chain.scalarOutputs.insert(result);
      else
        return fail(op, "its result, of type " +
                            typeToString(result.getType()) +
                            ", is used outside the chain but is no output "
                            "a credit.rowwise op has");
    }
  }

  // Reductions, and the stages: a reduction runs in the stage after the
  // last one whose results its elements need.
  DenseMap<Value, unsigned> avail;
  auto availOf = [&](Value value) { return avail.lookup(value); };
  for (Operation *op : chain.members) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || members[op].form != Form::RowReduction) {
      unsigned level = 0;
      for (OpOperand *operand : getChainOperands(op))
        level = std::max(level, availOf(operand->get()));
      for (Value result : op->getResults())
        avail[result] = level;
      continue;
    }
    Reduction reduction = *matchCombiner(linalgOp);
    Value init = linalgOp.getDpsInitOperand(0)->get();
    for (OpOperand *operand : linalgOp.getDpsInputOperands())
      reduction.stage = std::max(reduction.stage, availOf(operand->get()));
    std::optional<APFloat> initValue = getSplatFloat(init);
    reduction.initIsIdentity = initValue && isIdentity(reduction, *initValue);
    reduction.needsFlag =
        reduction.ignoresNaN && (!initValue || initValue->isNaN());
    avail[op->getResult(0)] = std::max(reduction.stage + 1, availOf(init));
    chain.reductionOf[op] = chain.reductions.size();
    chain.reductions.push_back(reduction);
  }
  // Raising pays when a row output reuses a reduction of its row.
  if (!llvm::any_of(chain.rowOutputs,
                    [&](Value output) { return availOf(output) > 0; })) {
    // Name the first op that reads a reduction and could not join.
    for (const Reduction &reduction : chain.reductions)
      for (Operation *user : reduction.op->getUsers()) {
        std::string whyNotUser;
        if (!isa<linalg::LinalgOp>(user) || chain.isMember(user) ||
            getMember(user, rank, n, &whyNotUser))
          continue;
        return fail(seed, "no row output of the chain reuses its reductions; " +
                              user->getName().getStringRef() +
                              " reads one but cannot join the chain: " +
                              whyNotUser);
      }
    return fail(seed, "no row output of the chain reuses its reductions");
  }

  unsigned numStages = 0;
  for (const Reduction &reduction : chain.reductions)
    numStages = std::max(numStages, reduction.stage + 1);
  chain.stageCombiners.resize(numStages);
  unsigned slot = 0;
  for (unsigned stage = 0; stage < numStages; ++stage) {
    for (Reduction &reduction : chain.reductions) {
      if (reduction.stage != stage)
        continue;
      reduction.slot = slot++;
      chain.stageCombiners[stage].push_back(reduction.kind);
      if (reduction.needsFlag) {
        reduction.flagSlot = slot++;
        chain.stageCombiners[stage].push_back(CombinerKind::Max);
      }
    }
  }
  return chain;
}
