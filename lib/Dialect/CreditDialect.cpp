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

LogicalResult CreditDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
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
