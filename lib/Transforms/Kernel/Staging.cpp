//===- Staging.cpp - where a CTA's slice of the row lives -----------------===//
//
// Part of the CREDIT project.
//
// Chunk positions, vector loads and stores, and the stagings of a plan: the
// slice in registers (loaded once per row), in shared memory (loaded by the
// first stage and read back by the others, or copied in asynchronously when
// the row begins and read back by every stage), or reread from global
// memory by every region that uses it.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "Credit/Transforms/ElementwiseCloning.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

void KernelEmitter::emitIf(Value condition, function_ref<void()> body) {
  if (!condition)
    return body();
  scf::IfOp::create(b, loc, condition, [&](OpBuilder &builder, Location l) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(builder.getInsertionBlock(),
                        builder.getInsertionPoint());
    body();
    scf::YieldOp::create(b, l);
  });
}

void KernelEmitter::createStagedViews() {
  if (plan.stagedInputOffsets.empty())
    return;
  auto workgroup = gpu::AddressSpaceAttr::get(op.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Value dynamic = DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({plan.dynamicSharedBytes}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  // The staged inputs are the leading ones.
  for (auto [offset, input] :
       llvm::zip_first(plan.stagedInputOffsets, op.getInputs())) {
    auto type = MemRefType::get({ShapedType::kDynamic}, elementTypeOf(input),
                                MemRefLayoutAttrInterface(), workgroup);
    stagedViews.push_back(
        memref::ViewOp::create(b, loc, type, dynamic, index(offset),
                               ValueRange{index(plan.rows * plan.slice)}));
  }
}

ChunkPosition KernelEmitter::getChunkPosition(Value sweep, int64_t chunk,
                                              Value rowValid) {
  // Chunk c of sweep w of thread t: elements
  //   w * (threadsPerRow * elems) + (c * threadsPerRow + t) * vector + [0, v)
  // so a warp's accesses are consecutive vectors. N is a multiple of the
  // vector width, so a chunk lies wholly inside the row or wholly outside.
  Value inSweep = mul(add(index(chunk * plan.threadsPerRow), threadInRow),
                      index(plan.vector));
  Value sweepBase = mul(sweep, index(plan.threadsPerRow * plan.elems));
  Value local = add(sweepBase, inSweep);
  Value column = add(sliceBase, local);
  // The same column with the chunk's part as a constant, for the element
  // regions (see foldColumnCompares); built where a region uses it.
  auto columnBase = [=, this] {
    return add(sliceBase, add(sweepBase, mul(threadInRow, index(plan.vector))));
  };
  int64_t offset = chunk * plan.threadsPerRow * plan.vector;
  Value inRange;
  if (plan.ctasPerRow * plan.slice != plan.n)
    inRange = cmp(arith::CmpIPredicate::slt, column, index(plan.n));
  return {local, column, columnBase, offset, inRange, andOf(rowValid, inRange)};
}

Value KernelEmitter::loadVector(Value view, Value position, Type element,
                                Value valid, Masking masking) {
  VectorType type = vectorOf(element);
  int64_t align = alignmentOf(element);
  auto load = [&](OpBuilder &builder, Location l) -> Value {
    return vector::LoadOp::create(builder, l, type, view, ValueRange{position},
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(align));
  };
  auto zero = [&](OpBuilder &builder, Location l) -> Value {
    return arith::ConstantOp::create(builder, l, type,
                                     builder.getZeroAttr(type));
  };
  if (!valid)
    return load(b, loc);
  if (masking == Masking::Select && plan.integerMasks) {
    position = selectValid(valid, position, index(0));
    return selectValid(valid, load(b, loc), zero(b, loc));
  }
  auto ifOp = scf::IfOp::create(
      b, loc, valid,
      [&](OpBuilder &builder, Location l) {
        scf::YieldOp::create(builder, l, load(builder, l));
      },
      [&](OpBuilder &builder, Location l) {
        scf::YieldOp::create(builder, l, zero(builder, l));
      });
  return ifOp.getResult(0);
}

Value KernelEmitter::selectValid(Value valid, Value onTrue, Value onFalse) {
  if (!plan.integerMasks)
    return arith::SelectOp::create(b, loc, valid, onTrue, onFalse);
  // All ones where valid: 0 - zext(valid), negated in inline assembly that
  // LLVM cannot look through.
  Value one = arith::ExtUIOp::create(b, loc, b.getI32Type(), valid);
  Value mask =
      LLVM::InlineAsmOp::create(
          b, loc, b.getI32Type(), ValueRange{one}, "neg.s32 $0, $1;", "=r,r",
          /*has_side_effects=*/false, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  Type type = onTrue.getType();
  if (type.isIndex()) {
    Value wide = arith::IndexCastOp::create(b, loc, type, mask);
    Value kept = arith::AndIOp::create(b, loc, onTrue, wide);
    Value other = arith::AndIOp::create(
        b, loc, onFalse,
        arith::XOrIOp::create(b, loc, wide,
                              arith::ConstantIndexOp::create(b, loc, -1)));
    return arith::OrIOp::create(b, loc, kept, other);
  }
  // The value's bits as words of 32 bits, or of 16 for one 16-bit float.
  auto vector = dyn_cast<VectorType>(type);
  Type element = vector ? vector.getElementType() : type;
  int64_t bits =
      (vector ? vector.getNumElements() : 1) * element.getIntOrFloatBitWidth();
  Type word = bits % 32 == 0 ? b.getI32Type() : b.getI16Type();
  int64_t words = bits / word.getIntOrFloatBitWidth();
  Type wordsType =
      vector || words > 1 ? Type(VectorType::get({words}, word)) : word;
  auto asWords = [&](Value value) -> Value {
    if (vector)
      return vector::BitCastOp::create(b, loc, cast<VectorType>(wordsType),
                                       value);
    return arith::BitcastOp::create(b, loc, wordsType, value);
  };
  if (!word.isInteger(32))
    mask = arith::TruncIOp::create(b, loc, word, mask);
  Value ones =
      arith::ConstantOp::create(b, loc, word, b.getIntegerAttr(word, -1));
  Value notMask = arith::XOrIOp::create(b, loc, mask, ones);
  if (auto wordsVector = dyn_cast<VectorType>(wordsType)) {
    mask = vector::BroadcastOp::create(b, loc, wordsVector, mask);
    notMask = vector::BroadcastOp::create(b, loc, wordsVector, notMask);
  }
  Value picked = arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, asWords(onTrue), mask),
      arith::AndIOp::create(b, loc, asWords(onFalse), notMask));
  if (vector)
    return vector::BitCastOp::create(b, loc, vector, picked);
  return arith::BitcastOp::create(b, loc, type, picked);
}

void KernelEmitter::storeVector(Value value, Value view, Value position,
                                Value valid) {
  int64_t align =
      alignmentOf(cast<VectorType>(value.getType()).getElementType());
  emitIf(valid, [&] {
    vector::StoreOp::create(b, loc, value, view, ValueRange{position},
                            /*nontemporal=*/false, llvm::MaybeAlign(align));
  });
}

Value KernelEmitter::toComputeType(Value value) {
  auto type = cast<VectorType>(value.getType());
  if (!isa<FloatType>(type.getElementType()) || type.getElementType().isF32())
    return value;
  if (!type.getElementType().isBF16() || plan.vector % 2 != 0)
    return arith::ExtFOp::create(b, loc, vectorOf(b.getF32Type()), value);
  // A bf16 is the upper half of the f32 it extends to. Per 32-bit word of
  // two bf16 (the first in the low half): the first is the word shifted
  // left by 16, the second the word with its low half cleared. One integer
  // instruction per element, where the conversion's unpacking takes two for
  // every upper half.
  int64_t words = plan.vector / 2;
  auto wordType = VectorType::get({words}, b.getI32Type());
  Value packed = vector::BitCastOp::create(b, loc, wordType, value);
  auto splat = [&](uint32_t bits) -> Value {
    return arith::ConstantOp::create(
        b, loc, wordType,
        DenseElementsAttr::get(wordType, b.getI32IntegerAttr(bits)));
  };
  Value first = arith::ShLIOp::create(b, loc, packed, splat(16));
  Value second = arith::AndIOp::create(b, loc, packed, splat(0xFFFF0000u));
  SmallVector<int64_t> interleave;
  for (int64_t word = 0; word < words; ++word)
    interleave.append({word, words + word});
  Value bits = vector::ShuffleOp::create(b, loc, first, second, interleave);
  return arith::BitcastOp::create(b, loc, vectorOf(b.getF32Type()), bits);
}

void KernelEmitter::beginPass(RowState &state, unsigned pass) {
  // Also where a region uses the column: its folded compares take the
  // zero (foldColumnCompares).
  auto usesColumn = [](Region &region) {
    return !region.empty() && !region.getArgument(0).use_empty();
  };
  if (!plan.packedRegisters && !llvm::any_of(op.getStages(), usesColumn) &&
      !usesColumn(op.getEpilogue())) {
    state.opaqueZero = Value();
    return;
  }
  state.opaqueZero = createOpaqueZero(pass);
}

Value KernelEmitter::createOpaqueZero(unsigned pass) {
  // The sign of m (never negative) shifted left by the pass number: zero,
  // but neither LLVM nor ptxas can know it, and each pass's zero is a
  // value of its own.
  Value m64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), m);
  std::string text = llvm::formatv("{ .reg .b64 t; shr.u64 t, $1, 63; "
                                   "cvt.u32.u64 $0, t; shl.b32 $0, $0, {0}; }",
                                   pass);
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI32Type(), ValueRange{m64}, text, "=r,l",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

void KernelEmitter::hideSelectedConstants(Value value, Value zero) {
  auto select = value.getDefiningOp<arith::SelectOp>();
  if (!select)
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(select);
  for (OpOperand *arm :
       {&select.getTrueValueMutable(), &select.getFalseValueMutable()}) {
    Value constant = arm->get();
    if (auto broadcast = constant.getDefiningOp<vector::BroadcastOp>())
      constant = broadcast.getSource();
    FloatAttr scalar;
    DenseFPElementsAttr splat;
    if (matchPattern(constant, m_Constant(&splat)) && splat.isSplat())
      scalar = FloatAttr::get(splat.getElementType(),
                              splat.getSplatValue<APFloat>());
    else if (!matchPattern(constant, m_Constant(&scalar)))
      continue;
    if (!scalar.getType().isF32())
      continue;
    // The constant's bits xor the opaque zero.
    Value bits = arith::ConstantIntOp::create(
        b, loc, b.getI32Type(),
        scalar.getValue().bitcastToAPInt().getZExtValue());
    Value hidden = arith::BitcastOp::create(
        b, loc, b.getF32Type(), arith::XOrIOp::create(b, loc, bits, zero));
    if (auto type = dyn_cast<VectorType>(arm->get().getType()))
      hidden = vector::BroadcastOp::create(b, loc, type, hidden);
    arm->set(hidden);
  }
}

Value KernelEmitter::keepInRegisters(Value raw) {
  return plan.packedRegisters ? raw : toComputeType(raw);
}

Value KernelEmitter::widenStaged(RowState &state, Value kept, bool reuse) {
  if (!plan.packedRegisters)
    return kept;
  auto type = cast<VectorType>(kept.getType());
  if (reuse && !type.getElementType().isF32()) {
    assert(state.opaqueZero && "widening again before beginPass");
    // The raw bits xor the pass's zero: whole 32-bit words where the vector
    // has them, else one 16-bit half.
    int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
    Type word = bits % 32 == 0 ? b.getI32Type() : b.getI16Type();
    auto wordsType =
        VectorType::get({bits / word.getIntOrFloatBitWidth()}, word);
    Value zero = state.opaqueZero;
    if (!word.isInteger(32))
      zero = arith::TruncIOp::create(b, loc, word, zero);
    Value words = arith::XOrIOp::create(
        b, loc, vector::BitCastOp::create(b, loc, wordsType, kept),
        vector::BroadcastOp::create(b, loc, wordsType, zero));
    kept = vector::BitCastOp::create(b, loc, type, words);
  }
  return toComputeType(kept);
}

void KernelEmitter::loadBroadcastRegisters() {
  if (!plan.broadcastsInRegisters)
    return;
  for (auto [i, input] : llvm::enumerate(op.getBroadcasts())) {
    SmallVector<Value> loaded;
    for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
      ChunkPosition pos = getChunkPosition(index(0), chunk, Value());
      Value raw = loadVector(broadcastViews[i], pos.column,
                             elementTypeOf(input), pos.valid, Masking::Branch);
      loaded.push_back(keepInRegisters(raw));
    }
    broadcastRegisters.push_back(loaded);
  }
}

void KernelEmitter::loadRowRegisters(RowState &state) {
  if (!plan.tiling.isOneSweep())
    return;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    SmallVector<Value> loaded;
    if (!plan.isInputInRegisters(i)) {
      state.registers.push_back(loaded);
      continue;
    }
    for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
      ChunkPosition pos = getChunkPosition(index(0), chunk, state.rowValid);
      Value raw = loadVector(inputViews[i],
                             add(state.inputOffsets[i], pos.column),
                             elementTypeOf(input), pos.valid);
      loaded.push_back(keepInRegisters(raw));
    }
    state.registers.push_back(loaded);
  }
}

void KernelEmitter::copyRowToShared(RowState &state) {
  if (plan.staging != Staging::Async && plan.staging != Staging::Mixed)
    return;
  // The previous row's reads of these positions were this thread's own,
  // earlier in program order, so the copies cannot overtake them.
  Value always = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  forEachSweep({}, [&](Value sweep, SmallVector<Value>) {
    for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
      ChunkPosition pos = getChunkPosition(sweep, chunk, state.rowValid);
      for (auto [i, view] : llvm::enumerate(
               ArrayRef<Value>(inputViews).take_front(stagedViews.size())))
        AsyncCopyOp::create(
            b, loc, view, add(state.inputOffsets[i], pos.column),
            stagedViews[i], stagedIndex(pos), pos.valid ? pos.valid : always,
            b.getI32IntegerAttr(plan.vector));
    }
    return SmallVector<Value>();
  });
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  NVVM::CpAsyncWaitGroupOp::create(b, loc, /*n=*/0);
}

Value KernelEmitter::stagedIndex(const ChunkPosition &pos) {
  return plan.rows > 1 ? add(mul(rowInCta, index(plan.slice)), pos.local)
                       : pos.local;
}

Value KernelEmitter::getInput(RowState &state, unsigned input, unsigned chunk,
                              const ChunkPosition &pos, unsigned stage) {
  Type element = elementTypeOf(op.getInputs()[input]);
  if (plan.isInputInRegisters(input))
    return widenStaged(state, state.registers[input][chunk],
                       stage > 0 || state.again);
  switch (plan.staging) {
  case Staging::Registers:
    llvm_unreachable("registers staging holds every input in registers");
  case Staging::Async:
  case Staging::Mixed: {
    Value local = stagedIndex(pos);
    // Read again in the same pass: at an index that neither LLVM nor
    // ptxas can see is the same, else they keep the first read's values.
    if (state.again)
      local = add(local, arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                                      state.opaqueZero));
    return toComputeType(
        loadVector(stagedViews[input], local, element, Value()));
  }
  case Staging::Shared: {
    Value staged = stagedViews[input];
    Value local = stagedIndex(pos);
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

Value KernelEmitter::getBroadcast(RowState &state, unsigned input,
                                  unsigned chunk, const ChunkPosition &pos) {
  if (plan.broadcastsInRegisters)
    return widenStaged(state, broadcastRegisters[input][chunk],
                       /*reuse=*/true);
  return toComputeType(loadBroadcast(input, pos, Value()));
}

Value KernelEmitter::loadBroadcast(unsigned input, const ChunkPosition &pos,
                                   Value valid, Masking masking) {
  return loadVector(broadcastViews[input], pos.column,
                    elementTypeOf(op.getBroadcasts()[input]),
                    andOf(pos.inRange, valid), masking);
}

SmallVector<Value> KernelEmitter::loadPrefetched(const ChunkPosition &pos,
                                                 Value valid) {
  unsigned inputs = op.getInputs().size();
  return llvm::map_to_vector(getPrefetchedArgs(op, plan), [&](unsigned arg) {
    // Loaded a sweep ahead of their use (or before the loop): branched.
    return loadBroadcast(arg - 1 - inputs, pos, valid, Masking::Branch);
  });
}

SmallVector<Value>
KernelEmitter::getElementArgs(Block &block, RowState &state, unsigned chunk,
                              const ChunkPosition &pos, unsigned stage,
                              ValueRange results, ArrayRef<Value> loaded) {
  auto given = [&](unsigned arg) {
    return arg < loaded.size() ? loaded[arg] : Value();
  };
  SmallVector<Value> args;
  // The column index, as a vector only when the region uses it.
  if (block.getArgument(0).use_empty()) {
    args.push_back(pos.column);
  } else {
    VectorType type = vectorOf(b.getIndexType());
    SmallVector<int64_t> steps = llvm::to_vector(
        llvm::seq<int64_t>(pos.columnOffset, pos.columnOffset + plan.vector));
    Value lanes = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<int64_t>(steps)));
    Value columnBase = pos.columnBase();
    Value base = vector::BroadcastOp::create(b, loc, type, columnBase);
    Value columns = arith::AddIOp::create(b, loc, base, lanes);
    columnVectors.push_back({columns, columnBase, state.opaqueZero});
    args.push_back(columns);
  }
  unsigned argIndex = 1;
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i, ++argIndex) {
    // Unused inputs need no load except where the slice is being staged.
    bool staged = plan.staging == Staging::Shared && stage == 0;
    if (block.getArgument(argIndex).use_empty() && !staged &&
        plan.staging != Staging::Registers)
      args.push_back(arith::ConstantOp::create(b, loc, b.getF32Type(),
                                               b.getF32FloatAttr(0.0)));
    else
      args.push_back(getInput(state, i, chunk, pos, stage));
  }
  for (unsigned i = 0, e = op.getBroadcasts().size(); i < e; ++i, ++argIndex) {
    if (block.getArgument(argIndex).use_empty())
      args.push_back(arith::ConstantOp::create(b, loc, b.getF32Type(),
                                               b.getF32FloatAttr(0.0)));
    else if (Value raw = given(argIndex))
      args.push_back(toComputeType(raw));
    else
      args.push_back(getBroadcast(state, i, chunk, pos));
  }
  llvm::append_range(args, state.scalars);
  llvm::append_range(args, results);
  return args;
}

Value KernelEmitter::getRowUniformArg(RowState &state, Block &block,
                                      unsigned arg, ValueRange results) {
  unsigned elementArgs = op.getNumElementArgs();
  assert(arg >= elementArgs && arg < block.getNumArguments() &&
         "not a row-uniform argument");
  arg -= elementArgs;
  return arg < state.scalars.size() ? state.scalars[arg]
                                    : results[arg - state.scalars.size()];
}

Value KernelEmitter::emitColumnTestValue(RowState &state, Block &block,
                                         Value column, ValueRange results) {
  Value value = cloneSlice(b, block, column, [&](unsigned arg) {
    return getRowUniformArg(state, block, arg, results);
  });
  // Sign-extended: a negative value is no column.
  if (!value.getType().isIndex())
    value = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  return value;
}

SmallVector<Value> KernelEmitter::forEachSweep(
    ValueRange init,
    function_ref<SmallVector<Value>(Value, SmallVector<Value>)> body) {
  // Sweeps that one iteration covers are emitted one after the other. The
  // loop covers the whole iterations when there are at least two; the
  // sweeps after them (all of them without a loop) follow.
  int64_t per = plan.sweepsPerIteration;
  int64_t looped = plan.sweeps / per * per;
  if (looped <= per)
    looped = 0;
  SmallVector<Value> values = llvm::to_vector(init);
  if (looped) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(looped), index(per), values,
        [&](OpBuilder &builder, Location l, Value sweep, ValueRange iterArgs) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(builder.getInsertionBlock(),
                              builder.getInsertionPoint());
          SmallVector<Value> next = llvm::to_vector(iterArgs);
          for (int64_t k = 0; k < per; ++k)
            next = body(k ? add(sweep, index(k)) : sweep, std::move(next));
          scf::YieldOp::create(b, l, next);
        });
    values.assign(loop.getResults().begin(), loop.getResults().end());
  }
  for (int64_t sweep = looped; sweep < plan.sweeps; ++sweep)
    values = body(index(sweep), std::move(values));
  return values;
}

void KernelEmitter::foldColumnCompares() {
  // A column j = x + c (x the thread's base, c >= 0 the constant lanes, j
  // under 2^31) compared with t, in K bits after an optional index cast
  // (isFoldableColumnCompare):
  //   j == t  <=>  c == t - x   (mod 2^K, so for any t; likewise !=)
  //   j P t   <=>  c P max(t, -1) - x   for signed P and K >= 32: j >= 0
  //   behaves the same against every t below 0, and nothing overflows.
  // Unsigned compares stay as they are.
  auto fold = [&](arith::CmpIOp compare, Value column, Value base, Value zero,
                  DenseIntElementsAttr lanes) {
    arith::CmpIPredicate predicate = compare.getPredicate();
    auto type = cast<VectorType>(column.getType());
    Type element = type.getElementType();
    unsigned bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
    if (!isFoldableColumnCompare(predicate, bits))
      return;
    bool isSigned = predicate != arith::CmpIPredicate::eq &&
                    predicate != arith::CmpIPredicate::ne;
    bool columnLeft = compare.getLhs() == column;
    Value other = columnLeft ? compare.getRhs() : compare.getLhs();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(compare);
    // x plus the pass's zero: each pass compares anew, where LLVM would
    // keep every chunk's predicates of the first pass live for the others.
    Value x = base;
    if (!element.isIndex())
      x = arith::IndexCastUIOp::create(b, loc, element, x);
    assert(zero && "a region uses the column, so its pass has a zero");
    if (element.isIndex())
      zero = arith::IndexCastUIOp::create(b, loc, element, zero);
    else if (bits > 32)
      zero = arith::ExtUIOp::create(b, loc, element, zero);
    else if (bits < 32)
      zero = arith::TruncIOp::create(b, loc, element, zero);
    x = arith::AddIOp::create(b, loc, x, zero);
    // The difference once per thread when t is the same for every lane.
    auto splat = other.getDefiningOp<vector::BroadcastOp>();
    bool uniform = splat && splat.getSource().getType() == element;
    Value t = uniform ? splat.getSource() : other;
    if (isSigned) {
      TypedAttr minusOne = b.getIntegerAttr(element, -1);
      if (auto vector = dyn_cast<VectorType>(t.getType()))
        minusOne = DenseElementsAttr::get(vector, minusOne);
      t = arith::MaxSIOp::create(b, loc, t,
                                 arith::ConstantOp::create(b, loc, minusOne));
    }
    Value difference =
        uniform ? Value(vector::BroadcastOp::create(
                      b, loc, type, arith::SubIOp::create(b, loc, t, x)))
                : Value(arith::SubIOp::create(
                      b, loc, t, vector::BroadcastOp::create(b, loc, type, x)));
    SmallVector<APInt> values =
        llvm::map_to_vector(lanes.getValues<APInt>(), [&](const APInt &lane) {
          return lane.sextOrTrunc(bits);
        });
    Value constant = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, values));
    Value folded = arith::CmpIOp::create(b, loc, predicate,
                                         columnLeft ? constant : difference,
                                         columnLeft ? difference : constant);
    compare.replaceAllUsesWith(folded);
    compare.erase();
  };

  for (auto [columns, base, zero] : columnVectors) {
    auto add = columns.getDefiningOp<arith::AddIOp>();
    DenseIntElementsAttr lanes;
    if (!add || !matchPattern(add.getRhs(), m_Constant(&lanes)))
      continue;
    SmallVector<std::pair<arith::CmpIOp, Value>> compares;
    collectColumnCompares(columns, compares);
    for (auto [compare, column] : compares)
      fold(compare, column, base, zero, lanes);
  }
  columnVectors.clear();
}
