//===- CreditAttrs.cpp - credit attributes
//---------------------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditAttrs.h"
#include "Credit/Dialect/CreditDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::credit;

#include "Credit/Dialect/CreditEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Credit/Dialect/CreditAttrs.cpp.inc"

void CreditDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Credit/Dialect/CreditAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TilingAttr
//===----------------------------------------------------------------------===//

FailureOr<unsigned> mlir::credit::parseTilingCount(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  APInt value;
  if (parser.parseInteger(value))
    return failure();
  if (value.isNegative() || value.getSignificantBits() > 33)
    return parser.emitError(loc) << "expected a count from 0 to 4294967295, "
                                    "got "
                                 << llvm::toString(value, 10, /*Signed=*/true);
  return static_cast<unsigned>(value.getZExtValue());
}

LogicalResult TilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned cluster, unsigned threads,
                                 unsigned vector, unsigned elems, unsigned rows,
                                 Staging staging, unsigned splits,
                                 Exchange exchange) {
  if (!llvm::is_contained({1u, 2u, 4u, 8u, 16u}, cluster))
    return emitError() << "cluster size must be 1, 2, 4, 8 or 16, got "
                       << cluster;
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitError() << "threads per CTA must be a multiple of 32 between "
                          "32 and 1024, got "
                       << threads;
  if (!llvm::is_contained({1u, 2u, 4u, 8u, 16u}, vector))
    return emitError() << "vector width must be 1, 2, 4, 8 or 16, got "
                       << vector;
  if (elems == 0 || elems > kMaxElems || elems % vector != 0)
    return emitError() << "elements per thread (" << elems
                       << ") must be a multiple of the vector width ("
                       << vector << ") from " << vector << " to " << kMaxElems;
  if (rows == 0 || threads % rows != 0 || (threads / rows) % 32 != 0)
    return emitError() << "rows per CTA (" << rows << ") must split the CTA's "
                       << threads << " threads into whole warps";
  if (rows > 1 && cluster != 1)
    return emitError() << "more than one row per CTA needs cluster size 1";
  if (splits == 0 || splits > kMaxSplits)
    return emitError() << "clusters per row (splits) must be from 1 to "
                       << kMaxSplits << ", got " << splits;
  if (splits > 1 && rows > 1)
    return emitError() << "a row split over " << splits
                       << " clusters needs one row per CTA, got " << rows;
  if (exchange != Exchange::Async && cluster == 1)
    return emitError() << "exchange = " << stringifyExchange(exchange)
                       << " says how the CTAs of a cluster exchange partial "
                          "values; it needs a cluster of more than one CTA";
  return success();
}

//===----------------------------------------------------------------------===//
// VariantAttr
//===----------------------------------------------------------------------===//

LogicalResult VariantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  TilingAttr tiling, int64_t minRows,
                                  int64_t maxRows) {
  if (!tiling)
    return emitError() << "variant needs a tiling";
  if (minRows < 1)
    return emitError() << "variant min_rows must be at least 1, got "
                       << minRows;
  if (maxRows != 0 && maxRows < minRows)
    return emitError() << "variant max_rows (" << maxRows
                       << ") must be 0 (no bound) or at least min_rows ("
                       << minRows << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// CostEstimateAttr
//===----------------------------------------------------------------------===//

LogicalResult
CostEstimateAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t rows, bool profitable,
                         ArrayRef<TilingAttr> candidates,
                         DenseF64ArrayAttr predictedMicrosAttr) {
  ArrayRef<double> predictedMicros = predictedMicrosAttr.asArrayRef();
  if (rows < 1)
    return emitError() << "cost estimate rows must be at least 1, got "
                       << rows;
  if (candidates.empty())
    return emitError() << "cost estimate needs at least one candidate";
  if (candidates.size() != predictedMicros.size())
    return emitError() << "cost estimate needs one predicted time per "
                          "candidate";
  for (double micros : predictedMicros)
    if (!std::isfinite(micros) || micros < 0.0)
      return emitError() << "predicted time must be finite and non-negative, "
                            "got "
                         << micros;
  return success();
}

// #credit.cost<rows = INT, profitable = BOOL,
//              candidates = [TILING = FLOAT, ...]>
// (a `:` after a dialect attribute would be read as its type).
Attribute CostEstimateAttr::parse(AsmParser &parser, Type) {
  int64_t rows = 0;
  bool profitable = false;
  SmallVector<TilingAttr> candidates;
  SmallVector<double> predicted;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword("rows") ||
      parser.parseEqual() || parser.parseInteger(rows) ||
      parser.parseComma() || parser.parseKeyword("profitable") ||
      parser.parseEqual())
    return {};
  if (succeeded(parser.parseOptionalKeyword("true"))) {
    profitable = true;
  } else if (failed(parser.parseOptionalKeyword("false"))) {
    parser.emitError(parser.getCurrentLocation(), "expected 'true' or 'false'");
    return {};
  }
  auto parseCandidate = [&]() -> ParseResult {
    TilingAttr tiling;
    double micros = 0.0;
    if (parser.parseAttribute(tiling) || parser.parseEqual() ||
        parser.parseFloat(micros))
      return failure();
    candidates.push_back(tiling);
    predicted.push_back(micros);
    return success();
  };
  if (parser.parseComma() || parser.parseKeyword("candidates") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseCandidate) ||
      parser.parseGreater())
    return {};
  MLIRContext *ctx = parser.getContext();
  return parser.getChecked<CostEstimateAttr>(
      loc, ctx, rows, profitable, candidates,
      DenseF64ArrayAttr::get(ctx, predicted));
}

void CostEstimateAttr::print(AsmPrinter &printer) const {
  printer << "<rows = " << getRows()
          << ", profitable = " << (getProfitable() ? "true" : "false")
          << ", candidates = [";
  llvm::interleaveComma(
      llvm::zip_equal(getCandidates(), getPredictedMicros().asArrayRef()),
      printer, [&](auto pair) {
        printer.printAttribute(std::get<0>(pair));
        printer << " = ";
        printer.printFloat(llvm::APFloat(std::get<1>(pair)));
      });
  printer << "]>";
}
