//===- TargetOptions.h - passes with chip and profile options ---*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The passes that plan for a chip (credit-cost-model, credit-choose-tiling,
// credit-cluster-tiling) share the `chip` and `profile` options. Their
// options check asks whether the pair names a target; their run loads it
// once, and a profile that became unreadable since the check (removed or
// rewritten by another process) is an error at the module, not a silent
// pass failure.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_TARGETOPTIONS_H
#define CREDIT_TRANSFORMS_TARGETOPTIONS_H

#include "Credit/Analysis/Profile.h"
#include "Credit/Support/CheckedOptions.h"

#include <optional>
#include <string>

namespace mlir {
namespace credit {

template <typename BaseT> class TargetOptions : public CheckedOptions<BaseT> {
public:
  using CheckedOptions<BaseT>::CheckedOptions;

protected:
  /// What is wrong with the chip and profile options, or an empty string.
  std::string checkTarget() const {
    std::string error;
    loadTarget(this->chip, this->profile, &error);
    return error;
  }

  /// For runOnOperation: the target and its profile once every option is
  /// valid; nothing (error emitted, pass failed) otherwise.
  std::optional<TargetInfo> loadTargetForRun(ChipProfile &profile) {
    if (!this->optionsAreValid())
      return std::nullopt;
    std::string error;
    std::optional<TargetInfo> target =
        loadTarget(this->chip, this->profile, &error, &profile);
    if (!target)
      this->failOnOptions(error);
    return target;
  }
};

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_TARGETOPTIONS_H
