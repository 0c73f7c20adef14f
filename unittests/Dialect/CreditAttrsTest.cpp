//===- CreditAttrsTest.cpp - credit attribute unit tests ------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditAttrs.h"
#include "Credit/Dialect/CreditDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::credit;

namespace {

class CreditAttrsTest : public ::testing::Test {
protected:
  CreditAttrsTest() { context.loadDialect<CreditDialect>(); }

  /// Collects the diagnostics emitted while `fn` runs.
  template <typename Fn> std::string diagnosticsOf(Fn fn) {
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      messages += diag.str();
      return success();
    });
    fn();
    return messages;
  }

  MLIRContext context;
};

TEST_F(CreditAttrsTest, TilingDerivedSizes) {
  auto tiling =
      TilingAttr::get(&context, /*cluster=*/4, /*threads=*/512,
                      /*vector=*/4, /*elems=*/16, /*rows=*/1, Staging::Shared,
                      /*splits=*/1, Exchange::Async);
  EXPECT_EQ(tiling.getThreadsPerRow(), 512u);
  EXPECT_EQ(tiling.getElementsPerCta(), 512 * 16);
  EXPECT_EQ(tiling.getCtasPerRow(), 4);

  auto multiRow =
      TilingAttr::get(&context, 1, 256, 8, 8, /*rows=*/4, Staging::Registers, 1,
                                Exchange::Async);
  EXPECT_EQ(multiRow.getThreadsPerRow(), 64u);
  EXPECT_EQ(multiRow.getElementsPerCta(), 64 * 8);
}

// The parser always pairs candidates with times; only C++ builders can get
// the two lists out of step.
TEST_F(CreditAttrsTest, CostEstimateNeedsOneTimePerCandidate) {
  auto tiling = TilingAttr::get(&context, 1, 256, 4, 4, 1, Staging::Registers, 1,
                                Exchange::Async);
  std::string messages = diagnosticsOf([&] {
    auto attr = CostEstimateAttr::getChecked(
        UnknownLoc::get(&context), &context, /*rows=*/int64_t(64), /*profitable=*/false,
        ArrayRef<TilingAttr>{tiling},
        DenseF64ArrayAttr::get(&context, {1.0, 2.0}));
    EXPECT_FALSE(attr);
  });
  EXPECT_NE(messages.find("one predicted time per candidate"),
            std::string::npos)
      << messages;
}

TEST_F(CreditAttrsTest, CostEstimateRejectsNaN) {
  auto tiling = TilingAttr::get(&context, 1, 256, 4, 4, 1, Staging::Registers, 1,
                                Exchange::Async);
  std::string messages = diagnosticsOf([&] {
    auto attr = CostEstimateAttr::getChecked(
        UnknownLoc::get(&context), &context, /*rows=*/int64_t(64), true,
        ArrayRef<TilingAttr>{tiling},
        DenseF64ArrayAttr::get(&context, {std::nan("")}));
    EXPECT_FALSE(attr);
  });
  EXPECT_NE(messages.find("finite and non-negative"), std::string::npos)
      << messages;
}

} // namespace
