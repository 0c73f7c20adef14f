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

#define GET_ATTRDEF_CLASSES
#include "Credit/Dialect/CreditAttrs.h.inc"

#endif // CREDIT_DIALECT_CREDITATTRS_H
