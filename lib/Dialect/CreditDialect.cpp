//===- CreditDialect.cpp - credit dialect registration --------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditDialect.h"
#include "Credit/Dialect/CreditAttrs.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::credit;

#include "Credit/Dialect/CreditOpsDialect.cpp.inc"

void CreditDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Credit/Dialect/CreditOps.cpp.inc"
      >();
  registerAttributes();
}

bool mlir::credit::isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name.front()) || name.front() == '_') &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// `credit.registers`: on a rowwise op, pairs of a tiling and ptxas's
/// register count for its kernel (1 to 255, each tiling once).
static LogicalResult verifyRegistersAttr(Operation *op, Attribute value) {
  auto describe = [&]() {
    return op->emitError() << "'" << CreditDialect::kRegistersAttrName << "' ";
  };
  if (!isa<RowwiseOp>(op))
    return describe() << "belongs on a credit.rowwise op";
  auto pairs = dyn_cast<ArrayAttr>(value);
  if (!pairs)
    return describe() << "must be an array of [tiling, registers] pairs";
  llvm::SmallPtrSet<Attribute, 8> seen;
  for (Attribute pair : pairs) {
    auto entry = dyn_cast<ArrayAttr>(pair);
    if (!entry || entry.size() != 2 || !isa<TilingAttr>(entry[0]) ||
        !isa<IntegerAttr>(entry[1]))
      return describe() << "must be an array of [tiling, registers] pairs, "
                           "got "
                        << pair;
    int64_t registers = cast<IntegerAttr>(entry[1]).getInt();
    if (registers < 1 || registers > 255)
      return describe() << "counts must be from 1 to 255 registers, got "
                        << registers;
    if (!seen.insert(entry[0]).second)
      return describe() << "names " << entry[0] << " twice";
  }
  return success();
}

LogicalResult CreditDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == kRegistersAttrName)
    return verifyRegistersAttr(op, attr.getValue());
  if (attr.getName() != kKernelsAttrName)
    return op->emitError() << "unknown credit attribute '"
                           << attr.getName().getValue() << "'";
  if (isa<ModuleOp>(op)) {
    auto manifests = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!manifests)
      return op->emitError() << "'" << kKernelsAttrName
                             << "' on a module must be a dictionary from "
                                "kernel name to manifest";
    for (NamedAttribute entry : manifests)
      if (!isIdentifier(entry.getName().getValue()) ||
          !isa<DictionaryAttr>(entry.getValue()))
        return op->emitError()
               << "'" << kKernelsAttrName << "' entry \""
               << entry.getName().getValue()
               << "\" must be an identifier naming a manifest dictionary";
    return success();
  }
  if (isa<RowwiseOp>(op)) {
    auto kernels = dyn_cast<ArrayAttr>(attr.getValue());
    if (!kernels || !llvm::all_of(kernels, llvm::IsaPred<SymbolRefAttr>))
      return op->emitError() << "'" << kKernelsAttrName
                             << "' on a rowwise op must be an array of kernel "
                                "symbols";
    return success();
  }
  return op->emitError() << "'" << kKernelsAttrName
                         << "' belongs on a module or a credit.rowwise op";
}
