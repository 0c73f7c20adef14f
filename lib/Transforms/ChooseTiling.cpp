//===- ChooseTiling.cpp - attach default tilings --------------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditOps.h"
#include "Credit/Transforms/DefaultTiling.h"
#include "Credit/Transforms/Passes.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITCHOOSETILING
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

namespace {
struct ChooseTilingPass
    : public credit::impl::CreditChooseTilingBase<ChooseTilingPass> {
  using Base::Base;

  void runOnOperation() override {
    if (!llvm::is_contained({0u, 1u, 2u, 4u, 8u, 16u}, clusterSize)) {
      getOperation()->emitError()
          << "credit-choose-tiling: cluster-size must be 0 (choose), 1, 2, 4, "
             "8 or 16, got "
          << static_cast<unsigned>(clusterSize);
      return signalPassFailure();
    }
    WalkResult result = getOperation()->walk([&](RowwiseOp op) {
      if (op.getTiling() && clusterSize == 0)
        return WalkResult::advance();
      TilingAttr tiling = getDefaultTiling(op, clusterSize);
      op.setTilingAttr(tiling);
      // The default must satisfy the op's own rules; report it if not.
      if (failed(op.verify())) {
        op.emitError() << "credit-choose-tiling: no valid tiling with "
                       << (clusterSize ? std::to_string(unsigned(clusterSize))
                                       : std::string("any"))
                       << " CTAs per row";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
