//===- CreditOps.cpp - credit operations ----------------------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditOps.h"
#include "Credit/Dialect/CreditDialect.h"
#include "Credit/Dialect/Combiners.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::credit;

//===----------------------------------------------------------------------===//
// RowwiseOp: helpers
//===----------------------------------------------------------------------===//

Type RowwiseOp::getComputeType(Type type) {
  if (isa<FloatType>(type))
    return Float32Type::get(type.getContext());
  return type;
}

int64_t RowwiseOp::getRowLength() {
  return cast<ShapedType>(getInputs().front().getType()).getDimSize(1);
}

bool RowwiseOp::hasBufferSemantics() {
  return isa<MemRefType>(getInputs().front().getType());
}

SmallVector<CombinerKind> RowwiseOp::getStageCombiners(unsigned stage) {
  return llvm::map_to_vector(
      cast<ArrayAttr>(getCombiners()[stage]),
      [](Attribute attr) { return cast<CombinerKindAttr>(attr).getValue(); });
}

unsigned RowwiseOp::getNumResultsBeforeStage(unsigned stage) {
  unsigned count = 0;
  for (unsigned i = 0; i < stage; ++i)
    count += cast<ArrayAttr>(getCombiners()[i]).size();
  return count;
}

/// Appends the compute types of the element types of `values`.
static void appendComputeTypes(ValueRange values, SmallVectorImpl<Type> &out) {
  for (Value value : values)
    out.push_back(RowwiseOp::getComputeType(
        cast<ShapedType>(value.getType()).getElementType()));
}

SmallVector<Type> RowwiseOp::getElementRegionArgTypes(unsigned stage) {
  Builder b(getContext());
  SmallVector<Type> types{b.getIndexType()};
  appendComputeTypes(getInputs(), types);
  appendComputeTypes(getBroadcasts(), types);
  appendComputeTypes(getScalars(), types);
  types.append(getNumResultsBeforeStage(stage), b.getF32Type());
  return types;
}

SmallVector<Type> RowwiseOp::getEpilogueYieldTypes() {
  SmallVector<Type> types;
  appendComputeTypes(getOutputs(), types);
  types.append(getColumnSumOutputs().size(),
               Builder(getContext()).getF32Type());
  return types;
}

SmallVector<Type> RowwiseOp::getFinalizeArgTypes() {
  SmallVector<Type> types;
  appendComputeTypes(getScalars(), types);
  types.append(getNumStageResults(), Builder(getContext()).getF32Type());
  return types;
}

SmallVector<Type> RowwiseOp::getFinalizeYieldTypes() {
  SmallVector<Type> types;
  appendComputeTypes(getScalarOutputs(), types);
  return types;
}

unsigned RowwiseOp::getMaxStageWidth() {
  unsigned width = 0;
  for (Attribute kinds : getCombiners())
    width = std::max<unsigned>(width, cast<ArrayAttr>(kinds).size());
  return width;
}

SmallVector<TilingAttr> RowwiseOp::getCompiledTilings() {
  SmallVector<TilingAttr> tilings;
  if (std::optional<ArrayAttr> variants = getVariants()) {
    for (Attribute attr : *variants) {
      TilingAttr tiling = cast<VariantAttr>(attr).getTiling();
      if (!llvm::is_contained(tilings, tiling))
        tilings.push_back(tiling);
    }
  } else if (std::optional<TilingAttr> tiling = getTiling()) {
    tilings.push_back(*tiling);
  }
  return tilings;
}

MutableOperandRange RowwiseOp::getDpsInitsMutable() {
  unsigned start = getOutputs().getBeginOperandIndex();
  unsigned length = getOutputs().size() + getScalarOutputs().size() +
                    getColumnSumOutputs().size();
  return MutableOperandRange(getOperation(), start, length);
}

void RowwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// Combiner lists: `[add, max]`
//===----------------------------------------------------------------------===//

static ParseResult parseCombinerList(OpAsmParser &parser, ArrayAttr &result) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<Attribute> kinds;
  auto parseKind = [&]() -> ParseResult {
    StringRef name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<CombinerKind> kind = symbolizeCombinerKind(name);
    if (!kind)
      return parser.emitError(loc)
             << "unknown combiner kind '" << name
             << "', expected one of 'add', 'max', 'min', 'addexp', 'sqdev'";
    kinds.push_back(CombinerKindAttr::get(ctx, *kind));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseKind))
    return failure();
  result = ArrayAttr::get(ctx, kinds);
  return success();
}

static void printCombinerList(OpAsmPrinter &p, Operation *, ArrayAttr kinds) {
  p << '[';
  llvm::interleaveComma(kinds, p, [&](Attribute attr) {
    if (auto kind = dyn_cast<CombinerKindAttr>(attr))
      p << stringifyCombinerKind(kind.getValue());
    else
      p.printAttribute(attr);
  });
  p << ']';
}

static SmallVector<CombinerKind> toCombinerKinds(ArrayAttr kinds) {
  return llvm::map_to_vector(kinds, [](Attribute attr) {
    return cast<CombinerKindAttr>(attr).getValue();
  });
}

/// Checks that every `addexp` of `kinds` has a `max` before it to sum
/// relative to and every `sqdev` its sum and count right before it;
/// `where` names the list in the message.
static LogicalResult verifyPartners(Operation *op, ArrayAttr kinds,
                                    const Twine &where) {
  SmallVector<CombinerKind> list = toCombinerKinds(kinds);
  for (auto [k, kind] : llvm::enumerate(list)) {
    if (kind == CombinerKind::AddExp && !getExpPartner(list, k))
      return op->emitOpError()
             << "combiner 'addexp' #" << k << " of " << where
             << " needs a 'max' before it to sum relative to";
    if (kind == CombinerKind::SqDev &&
        (k < 2 || list[k - 2] != CombinerKind::Add ||
         list[k - 1] != CombinerKind::Add))
      return op->emitOpError()
             << "combiner 'sqdev' #" << k << " of " << where
             << " needs an 'add' sum and an 'add' count right before it";
  }
  return success();
}

/// Checks that `kinds` holds one #credit.combiner per value.
static LogicalResult verifyCombinerList(Operation *op, ArrayAttr kinds,
                                        size_t numValues) {
  if (!llvm::all_of(kinds, llvm::IsaPred<CombinerKindAttr>))
    return op->emitOpError("combiners must be #credit.combiner attributes");
  if (kinds.size() != numValues || numValues == 0)
    return op->emitOpError()
           << "expects one combiner per value and at least "
              "one value, found "
           << kinds.size() << " combiners for " << numValues << " values";
  return verifyPartners(op, kinds, "the combiners");
}

//===----------------------------------------------------------------------===//
// RowwiseOp: parsing and printing
//===----------------------------------------------------------------------===//

/// Parses `keyword ( %a, %b : type, type )` if `keyword` is next.
static ParseResult
parseOperandGroup(OpAsmParser &parser, StringRef keyword,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                  SmallVectorImpl<Type> &types) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLParen() || parser.parseOperandList(operands) ||
      parser.parseColonTypeList(types) || parser.parseRParen())
    return failure();
  if (operands.size() != types.size())
    return parser.emitError(loc)
           << "'" << keyword << "' lists " << operands.size()
           << " operands but " << types.size() << " types";
  return success();
}

/// Parses `( %arg: type, ... ) { body }` into `region`.
static ParseResult parseRegionWithArgs(OpAsmParser &parser, Region &region) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(region, args, /*enableNameShadowing=*/true))
    return failure();
  if (region.empty())
    return parser.emitError(loc, "expected a region with arguments and a body");
  return success();
}

ParseResult RowwiseOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  std::string workload;
  if (succeeded(parser.parseOptionalString(&workload)))
    result.addAttribute(getWorkloadAttrName(result.name),
                        StringAttr::get(ctx, workload));

  static constexpr StringLiteral groups[] = {
      "ins", "bcast", "scalars", "outs", "scalar_outs", "colsum_outs"};
  SmallVector<int32_t> segmentSizes;
  SmallVector<Type> outputTypes;
  for (StringRef keyword : groups) {
    SmallVector<OpAsmParser::UnresolvedOperand> operands;
    SmallVector<Type> types;
    if (parseOperandGroup(parser, keyword, operands, types) ||
        parser.resolveOperands(operands, types, parser.getCurrentLocation(),
                               result.operands))
      return failure();
    segmentSizes.push_back(operands.size());
    if (keyword.contains("outs"))
      llvm::append_range(outputTypes, types);
  }
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      DenseI32ArrayAttr::get(ctx, segmentSizes));

  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  // Without this check an inherent attribute of the wrong type (`tiling =
  // 5`) would be dropped silently when it becomes a property.
  if (failed(result.name.verifyInherentAttrs(
          result.attributes, [&] { return parser.emitError(attrLoc); })))
    return failure();

  // Reduction stages.
  SmallVector<Attribute> combiners;
  SmallVector<std::unique_ptr<Region>> stages;
  while (succeeded(parser.parseOptionalKeyword("reduce"))) {
    ArrayAttr kinds;
    stages.push_back(std::make_unique<Region>());
    if (parseCombinerList(parser, kinds) ||
        parseRegionWithArgs(parser, *stages.back()))
      return failure();
    combiners.push_back(kinds);
  }
  result.addAttribute(getCombinersAttrName(result.name),
                      ArrayAttr::get(ctx, combiners));

  Region *epilogue = result.addRegion();
  if (succeeded(parser.parseOptionalKeyword("epilogue")) &&
      parseRegionWithArgs(parser, *epilogue))
    return failure();
  Region *finalize = result.addRegion();
  if (succeeded(parser.parseOptionalKeyword("finalize")) &&
      parseRegionWithArgs(parser, *finalize))
    return failure();
  for (std::unique_ptr<Region> &stage : stages)
    result.addRegion(std::move(stage));

  // In destination-passing style every tensor output is also a result.
  for (Type type : outputTypes)
    if (isa<RankedTensorType>(type))
      result.addTypes(type);
  return success();
}

static void printOperandGroup(OpAsmPrinter &p, StringRef keyword,
                              OperandRange operands) {
  if (operands.empty())
    return;
  p << ' ' << keyword << '(' << operands << " : " << operands.getTypes() << ')';
}

static void printRegionWithArgs(OpAsmPrinter &p, Region &region) {
  p << " (";
  llvm::interleaveComma(region.getArguments(), p,
                        [&](BlockArgument arg) { p.printRegionArgument(arg); });
  p << ") ";
  p.printRegion(region, /*printEntryBlockArgs=*/false);
}

void RowwiseOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  ValueRange args = region.getArguments();
  auto nameGroup = [&](StringRef prefix, size_t count) {
    for (size_t i = 0; i < count && !args.empty(); ++i) {
      setNameFn(args.front(), (prefix + Twine(i)).str());
      args = args.drop_front();
    }
  };
  if (&region != &getFinalize()) {
    setNameFn(args.front(), "j");
    args = args.drop_front();
    nameGroup("in", getInputs().size());
    nameGroup("bc", getBroadcasts().size());
  }
  nameGroup("sc", getScalars().size());
  nameGroup("red", args.size());
}

void RowwiseOp::print(OpAsmPrinter &p) {
  if (std::optional<StringRef> workload = getWorkload())
    p << ' ' << '"' << *workload << '"';
  printOperandGroup(p, "ins", getInputs());
  printOperandGroup(p, "bcast", getBroadcasts());
  printOperandGroup(p, "scalars", getScalars());
  printOperandGroup(p, "outs", getOutputs());
  printOperandGroup(p, "scalar_outs", getScalarOutputs());
  printOperandGroup(p, "colsum_outs", getColumnSumOutputs());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getOperandSegmentSizesAttrName(),
                            getCombinersAttrName(), getWorkloadAttrName()});
  p.increaseIndent();
  for (auto [index, stage] : llvm::enumerate(getStages())) {
    p.printNewline();
    p << "reduce ";
    printCombinerList(p, *this, cast<ArrayAttr>(getCombiners()[index]));
    printRegionWithArgs(p, stage);
  }
  if (!getEpilogue().empty()) {
    p.printNewline();
    p << "epilogue";
    printRegionWithArgs(p, getEpilogue());
  }
  if (!getFinalize().empty()) {
    p.printNewline();
    p << "finalize";
    printRegionWithArgs(p, getFinalize());
  }
  p.decreaseIndent();
}

//===----------------------------------------------------------------------===//
// RowwiseOp: verification
//===----------------------------------------------------------------------===//

namespace {
/// The role of an operand of a rowwise op, used in diagnostics.
struct OperandGroup {
  StringRef name;
  OperandRange operands;
  bool isRowShaped; // [M, N] rather than [M] or [N]
};
} // namespace

/// Records the row count of `type` along `dim` in `rows`, or reports a
/// disagreement with the count seen before.
static LogicalResult checkRowCount(RowwiseOp op, ShapedType type, unsigned dim,
                                   StringRef what, unsigned index,
                                   std::optional<int64_t> &rows) {
  int64_t m = type.getDimSize(dim);
  if (ShapedType::isDynamic(m))
    return success();
  if (rows && *rows != m)
    return op.emitOpError() << what << " #" << index << " has " << m
                            << " rows, but an earlier operand has " << *rows;
  rows = m;
  return success();
}

/// Checks what any tiling of `op` must satisfy, whatever the chip: accesses
/// of at most 16 bytes that never straddle the row's end, a covered row,
/// and one row per CTA for column sums. Chip limits (shared memory,
/// threads, cluster size) are checked by buildPlan (Credit/Analysis/Plan.h).
static LogicalResult verifyTiling(RowwiseOp op, TilingAttr tiling,
                                  const Twine &what) {
  int64_t n = op.getRowLength();
  unsigned widestBits = 0;
  for (Value value : llvm::concat<Value>(op.getInputs(), op.getBroadcasts(),
                                         op.getOutputs()))
    widestBits = std::max(
        widestBits, cast<ShapedType>(value.getType()).getElementTypeBitWidth());
  if (tiling.getVector() * widestBits > 128)
    return op.emitOpError() << what << " vector width " << tiling.getVector()
                            << " exceeds 16 bytes for " << widestBits
                            << "-bit elements";
  if (n % tiling.getVector() != 0)
    return op.emitOpError() << what << " vector width " << tiling.getVector()
                            << " does not divide N = " << n
                            << ", so a vector would cross the row's end";
  int64_t covered = tiling.getSliceLength(n) * tiling.getCtasPerRow();
  if (covered < n)
    return op.emitOpError() << what << " covers " << covered
                            << " elements of a row, but N = " << n
                            << " (use more elements per thread, more threads, "
                               "a larger cluster, more clusters per row, or "
                               "shared or reread staging)";
  if (tiling.getRows() > 1 && !op.getColumnSumOutputs().empty())
    return op.emitOpError("column-sum outputs need a tiling with one row per "
                          "CTA");
  if (tiling.getStaging() == Staging::Mixed && op.getInputs().size() < 2)
    return op.emitOpError()
           << what
           << " has mixed staging, which keeps the last row input in "
              "registers and the others in shared memory, but the op has one "
              "row input (use registers or async staging)";
  return success();
}

LogicalResult RowwiseOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one row input in 'ins'");
  if (getOutputs().empty() && getScalarOutputs().empty() &&
      getColumnSumOutputs().empty())
    return emitOpError("expects at least one output in 'outs', "
                       "'scalar_outs' or 'colsum_outs'");
  if (std::optional<StringRef> workload = getWorkload();
      workload && (!isIdentifier(*workload) ||
                   workload->size() > kMaxWorkloadNameLength))
    return emitOpError() << "workload name \"" << *workload
                         << "\" must be an identifier ([A-Za-z_][A-Za-z0-9_]*) "
                            "of at most "
                         << kMaxWorkloadNameLength
                         << " characters: kernel symbols and file names are "
                            "made from it";
  if ((*this)->getParentOfType<gpu::GPUModuleOp>())
    return emitOpError("runs on the host: it may not be inside a gpu.module "
                       "(credit-cluster-tiling builds the kernels)");

  // All tensors or all memrefs.
  bool buffers = hasBufferSemantics();
  for (Value operand : getOperands())
    if (isa<MemRefType>(operand.getType()) != buffers)
      return emitOpError("expects all operands to be tensors or all to be "
                         "memrefs");

  int64_t n = getRowLength();
  if (ShapedType::isDynamic(n))
    return emitOpError("expects a static row length N");
  if (n < 1 || n > kMaxRowLength)
    return emitOpError() << "row length N = " << n << " is out of range: N "
                         << "must be between 1 and " << kMaxRowLength;

  std::optional<int64_t> rows;
  OperandGroup groups[] = {{"row input", getInputs(), true},
                           {"broadcast input", getBroadcasts(), false},
                           {"scalar input", getScalars(), false},
                           {"row output", getOutputs(), true},
                           {"scalar output", getScalarOutputs(), false},
                           {"column-sum output", getColumnSumOutputs(), true}};
  for (const OperandGroup &group : groups) {
    bool isBroadcast = group.name == "broadcast input";
    bool isColumnSum = group.name == "column-sum output";
    for (auto [index, value] : llvm::enumerate(group.operands)) {
      auto type = cast<ShapedType>(value.getType());
      // The length along N, where the operand has one.
      if (group.isRowShaped || isBroadcast) {
        int64_t length = type.getDimSize(group.isRowShaped ? 1 : 0);
        if (length != n)
          return emitOpError()
                 << group.name << " #" << index << " has row length "
                 << (ShapedType::isDynamic(length) ? std::string("?")
                                                   : std::to_string(length))
                 << ", expected N = " << n;
      }
      // The length along M, where the operand has one.
      if (!isBroadcast && !isColumnSum &&
          failed(checkRowCount(*this, type, 0, group.name, index, rows)))
        return failure();
      if (isColumnSum && type.getDimSize(0) == 0)
        return emitOpError() << "column-sum output #" << index
                             << " needs at least one row block";
      // Strided memrefs must keep elements of a row contiguous.
      if (auto memref = dyn_cast<MemRefType>(type)) {
        SmallVector<int64_t> strides;
        int64_t offset;
        if (failed(memref.getStridesAndOffset(strides, offset)) ||
            strides.back() != 1)
          return emitOpError() << group.name << " #" << index
                               << " must have a unit inner stride";
      }
    }
  }

  // One combiner list per stage, each non-empty.
  if (getCombiners().size() != getStages().size())
    return emitOpError() << "expects one combiner list per reduction stage, "
                            "found "
                         << getCombiners().size() << " lists for "
                         << getStages().size() << " stages";
  for (auto [index, attr] : llvm::enumerate(getCombiners())) {
    auto kinds = dyn_cast<ArrayAttr>(attr);
    if (!kinds || !llvm::all_of(kinds, llvm::IsaPred<CombinerKindAttr>))
      return emitOpError() << "combiner list of reduction stage #" << index
                           << " must be an array of #credit.combiner";
    if (kinds.empty())
      return emitOpError() << "reduction stage #" << index
                           << " needs at least one combiner";
    if (failed(verifyPartners(*this, kinds,
                                 "reduction stage #" + Twine(index))))
      return failure();
  }

  if (std::optional<TilingAttr> tiling = getTiling())
    if (failed(verifyTiling(*this, *tiling, "tiling")))
      return failure();
  if (std::optional<ArrayAttr> variants = getVariants()) {
    if (variants->empty())
      return emitOpError("variants must list at least one tiling");
    int64_t next = 1;
    for (auto [index, attr] : llvm::enumerate(*variants)) {
      auto variant = cast<VariantAttr>(attr);
      if (variant.getMinRows() != next)
        return emitOpError() << "variant #" << index << " starts at "
                             << variant.getMinRows()
                             << " rows, expected " << next
                             << " (variants must cover every row count "
                                "from 1 in order)";
      if (failed(verifyTiling(*this, variant.getTiling(),
                              "variant #" + Twine(index) + " tiling")))
        return failure();
      next = variant.getMaxRows() + 1;
      if (variant.getMaxRows() == 0 && index + 1 != variants->size())
        return emitOpError() << "variant #" << index
                             << " has no row bound but is not the last";
    }
    if (next != 1)
      return emitOpError("the last variant must have no row bound "
                         "(max_rows = 0)");
  }
  return success();
}

/// Whether a region of a rowwise op may compute on values of `type`.
static bool isRegionScalarType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return isa<IndexType, Float16Type, BFloat16Type, Float32Type, Float64Type>(
      type);
}

/// Checks that `op`, nested in a region of a rowwise op, is scalar code the
/// kernels can run: an arith, math or scf op (or the terminator) on scalar
/// values, without memory effects.
static LogicalResult verifyRegionOp(Operation *op) {
  if (!isMemoryEffectFree(op))
    return op->emitOpError("has memory effects, which a credit.rowwise region "
                           "may not have");
  StringRef dialect = op->getName().getDialectNamespace();
  if (!isa<YieldOp>(op) &&
      !llvm::is_contained({"arith", "math", "scf"}, dialect))
    return op->emitOpError("is not allowed in a credit.rowwise region, which "
                           "may only use arith, math and scf ops");
  auto checkTypes = [&](TypeRange types, StringRef what) -> LogicalResult {
    for (Type type : types)
      if (!isRegionScalarType(type))
        return op->emitOpError()
               << what << " of type " << type
               << ": credit.rowwise regions compute on integers, index, "
                  "f16, bf16, f32 and f64";
    return success();
  };
  // Block arguments of nested scf regions take their types from operands
  // and results, so these cover them.
  if (failed(checkTypes(op->getOperandTypes(), "has an operand")))
    return failure();
  return checkTypes(op->getResultTypes(), "has a result");
}

/// Checks that `region` has the argument types `argTypes` and yields
/// `yieldTypes`, and that its ops have no memory effects.
static LogicalResult verifyRegionSignature(RowwiseOp op, Region &region,
                                           const Twine &name,
                                           ArrayRef<Type> argTypes,
                                           ArrayRef<Type> yieldTypes) {
  if (!region.hasOneBlock())
    return op.emitOpError() << name << " must have exactly one block";
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op.emitOpError() << name << " expects " << argTypes.size()
                            << " arguments, found " << block.getNumArguments();
  for (auto [index, arg, expected] :
       llvm::enumerate(block.getArguments(), argTypes))
    if (arg.getType() != expected)
      return op.emitOpError() << name << " argument #" << index << " has type "
                              << arg.getType() << ", expected " << expected;

  auto yield = dyn_cast_or_null<YieldOp>(block.getTerminator());
  if (!yield)
    return op.emitOpError() << name << " must end with credit.yield";
  if (yield.getValues().size() != yieldTypes.size())
    return yield.emitOpError()
           << "yields " << yield.getValues().size() << " values, but the "
           << name << " produces " << yieldTypes.size();
  for (auto [index, value, expected] :
       llvm::enumerate(yield.getValues(), yieldTypes))
    if (value.getType() != expected)
      return yield.emitOpError()
             << "value #" << index << " has type " << value.getType()
             << ", but the " << name << " produces " << expected;

  WalkResult walk = region.walk([&](Operation *nested) {
    if (failed(verifyRegionOp(nested)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult RowwiseOp::verifyRegions() {
  Builder b(getContext());
  for (auto [index, stage] : llvm::enumerate(getStages())) {
    SmallVector<Type> yields(cast<ArrayAttr>(getCombiners()[index]).size(),
                             b.getF32Type());
    if (failed(verifyRegionSignature(*this, stage,
                                     "reduction stage #" + Twine(index),
                                     getElementRegionArgTypes(index), yields)))
      return failure();
    // A `sqdev` entry's sum adds the values it yields, its count adds 1.
    Operation *yield = stage.front().getTerminator();
    for (auto [k, kind] : llvm::enumerate(getStageCombiners(index))) {
      if (kind != CombinerKind::SqDev)
        continue;
      if (yield->getOperand(k) != yield->getOperand(k - 2))
        return yield->emitOpError()
               << "combiner 'sqdev' #" << k << " of reduction stage #" << index
               << " must yield the value its sum (#" << k - 2 << ") yields";
      if (!matchPattern(yield->getOperand(k - 1), m_OneFloat()))
        return yield->emitOpError()
               << "combiner 'sqdev' #" << k << " of reduction stage #" << index
               << " needs its count (#" << k - 1 << ") to yield 1.0";
    }
  }

  bool needsEpilogue = !getOutputs().empty() || !getColumnSumOutputs().empty();
  if (getEpilogue().empty()) {
    if (needsEpilogue)
      return emitOpError("expects an 'epilogue' region to compute its row and "
                         "column-sum outputs");
  } else if (failed(
                 verifyRegionSignature(*this, getEpilogue(), "epilogue",
                                       getElementRegionArgTypes(getNumStages()),
                                       getEpilogueYieldTypes()))) {
    return failure();
  }

  if (getFinalize().empty()) {
    if (!getScalarOutputs().empty())
      return emitOpError("expects a 'finalize' region to compute its scalar "
                         "outputs");
  } else if (failed(verifyRegionSignature(*this, getFinalize(), "finalize",
                                          getFinalizeArgTypes(),
                                          getFinalizeYieldTypes()))) {
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GlobalViewOp
//===----------------------------------------------------------------------===//

LogicalResult GlobalViewOp::verify() {
  auto type = getResult().getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Global)
    return emitOpError("result must be in #gpu.address_space<global>");
  if (!type.getLayout().isIdentity() || type.hasStaticShape())
    return emitOpError("result must be a dynamically sized memref with the "
                       "identity layout");
  if (cast<LLVM::LLVMPointerType>(getPointer().getType()).getAddressSpace() !=
      1)
    return emitOpError("pointer must be in the global address space (1)");
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncCopyOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyOp::verify() {
  auto inSpace = [](MemRefType type, gpu::AddressSpace space) {
    auto attr = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    return attr && attr.getValue() == space;
  };
  MemRefType source = getSource().getType(), target = getTarget().getType();
  if (!inSpace(source, gpu::AddressSpace::Global))
    return emitOpError("source must be in #gpu.address_space<global>");
  if (!inSpace(target, gpu::AddressSpace::Workgroup))
    return emitOpError("target must be in #gpu.address_space<workgroup>");
  // The addresses are the aligned pointers plus the index: no layout offset
  // or stride is applied.
  if (!source.getLayout().isIdentity() || !target.getLayout().isIdentity())
    return emitOpError("source and target must have the identity layout");
  Type element = source.getElementType();
  if (target.getElementType() != element)
    return emitOpError() << "source and target element types differ: "
                         << element << " and " << target.getElementType();
  int64_t bytes = element.isIntOrFloat()
                      ? int64_t(getElements()) *
                            llvm::divideCeil(element.getIntOrFloatBitWidth(), 8)
                      : 0;
  if (!isCopySize(bytes))
    return emitOpError() << "copies 4, 8 or 16 bytes, not " << getElements()
                         << " elements of " << element;
  return success();
}

//===----------------------------------------------------------------------===//
// DynamicSharedMemoryOp
//===----------------------------------------------------------------------===//

LogicalResult DynamicSharedMemoryOp::verify() {
  MemRefType type = getResult().getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return emitOpError("result must be in #gpu.address_space<workgroup>");
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return emitOpError("result must be statically sized with the identity "
                       "layout");
  return success();
}

//===----------------------------------------------------------------------===//
// BlockReduceOp and ClusterReduceOp
//===----------------------------------------------------------------------===//

/// Checks that `scratch` is a static 1-D f32 buffer in workgroup memory
/// with room for `needed` entries from `offset` (from 0 when the offset is
/// not a constant).
static LogicalResult verifyScratch(Operation *op, TypedValue<MemRefType> scratch,
                                   Value offset, int64_t needed) {
  MemRefType type = scratch.getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return op->emitOpError("scratch must be in #gpu.address_space<workgroup>");
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return op->emitOpError("scratch must be statically sized with the "
                           "identity layout");
  int64_t start = 0;
  if (std::optional<int64_t> constant = getConstantIntValue(offset)) {
    if (*constant < 0)
      return op->emitOpError() << "scratch offset " << *constant
                               << " is negative";
    start = *constant;
  }
  if (start + needed > type.getNumElements())
    return op->emitOpError()
           << "scratch of " << type.getNumElements() << " entries has no room "
           << "for the " << needed << " entries it needs from offset " << start;
  return success();
}

SmallVector<CombinerKind> BlockReduceOp::getCombinerKinds() {
  return toCombinerKinds(getCombiners());
}

LogicalResult BlockReduceOp::verify() {
  if (failed(verifyCombinerList(*this, getCombiners(), getValues().size())))
    return failure();
  uint32_t group = getGroupThreads();
  if (group % 32 != 0 || group > 1024)
    return emitOpError() << "group_threads must be a multiple of 32 up to "
                            "1024, got "
                         << group;
  if (group > 32 && !getScratch())
    return emitOpError("needs scratch when a group has more than one warp");
  // At least one group's warps, K values each (the CTA's other groups use
  // the entries after them; the CTA size is not known here).
  if (getScratch())
    return verifyScratch(*this, getScratch(), getOffset(),
                         int64_t(group / 32) * getValues().size());
  return success();
}

SmallVector<CombinerKind> ClusterReduceOp::getCombinerKinds() {
  return toCombinerKinds(getCombiners());
}

LogicalResult ClusterReduceOp::verify() {
  if (failed(verifyCombinerList(*this, getCombiners(), getValues().size())))
    return failure();
  if (!llvm::is_contained({2u, 4u, 8u, 16u}, getCluster()))
    return emitOpError() << "cluster must be 2, 4, 8 or 16, got "
                         << getCluster();
  if (TypedValue<MemRefType> barriers = getBarriers()) {
    MemRefType type = barriers.getType();
    auto space =
        dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
        !type.hasStaticShape() || !type.getLayout().isIdentity())
      return emitOpError("mbarriers must be a statically sized memref in "
                         "#gpu.address_space<workgroup> with the identity "
                         "layout");
    if (std::optional<int64_t> index = getConstantIntValue(getBarrierIndex()))
      if (*index < 0 || *index >= type.getNumElements())
        return emitOpError() << "mbarrier index " << *index
                             << " is outside the " << type.getNumElements()
                             << " mbarriers";
  }
  return verifyScratch(*this, getScratch(), getOffset(),
                       int64_t(getCluster()) * getValues().size());
}

SmallVector<CombinerKind> GridReduceOp::getCombinerKinds() {
  return toCombinerKinds(getCombiners());
}

LogicalResult GridReduceOp::verify() {
  if (failed(verifyCombinerList(*this, getCombiners(), getValues().size())))
    return failure();
  int64_t splits = getSplits();
  if (splits < 2 || splits > TilingAttr::kMaxSplits)
    return emitOpError() << "splits must be from 2 to "
                         << TilingAttr::kMaxSplits << ", got " << splits;
  if (getArrivals() < splits || getArrivals() % splits != 0)
    return emitOpError() << "arrivals must be a positive multiple of splits ("
                         << splits << "), got " << getArrivals();
  return verifyScratch(*this, getScratch(), getOffset(), getValues().size());
}

#define GET_OP_CLASSES
#include "Credit/Dialect/CreditOps.cpp.inc"
