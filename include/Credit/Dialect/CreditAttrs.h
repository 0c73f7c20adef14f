//===- CreditAttrs.h - credit attributes and enums --------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_CREDITATTRS_H
#define CREDIT_DIALECT_CREDITATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "Credit/Dialect/CreditEnums.h.inc"

namespace mlir::credit {
/// Parses a count of a #credit.tiling: an integer from 0 to 2^32 - 1,
/// reported as written when it is out of range.
FailureOr<unsigned> parseTilingCount(AsmParser &parser);
} // namespace mlir::credit

#define GET_ATTRDEF_CLASSES
#include "Credit/Dialect/CreditAttrs.h.inc"

#endif // CREDIT_DIALECT_CREDITATTRS_H
