//===- CreditDialect.cpp - credit dialect registration --------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditDialect.h"
#include "Credit/Dialect/CreditAttrs.h"
#include "Credit/Dialect/CreditOps.h"

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
