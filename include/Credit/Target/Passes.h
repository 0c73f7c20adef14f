//===- Passes.h - credit target and artifact passes -------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TARGET_PASSES_H
#define CREDIT_TARGET_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <optional>
#include <string>

namespace mlir {
namespace credit {

#define GEN_PASS_DECL
#include "Credit/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Credit/Target/Passes.h.inc"

/// The smallest PTX ISA version (as 10 * major + minor) that `chip` needs,
/// for the chips with thread-block clusters (sm_90 and later) that the LLVM
/// backend knows; std::nullopt for any other chip.
std::optional<unsigned> getMinimumPTXVersion(llvm::StringRef chip);

/// The oldest PTX ISA version CREDIT's kernels accept, whatever the chip:
/// the asynchronous cluster exchange uses st.async (PTX ISA 8.1).
constexpr unsigned kAsyncExchangePTXVersion = 81;

/// The PTX ISA version named in `features` ("+ptx80" gives 80), if any.
std::optional<unsigned> getPTXVersionFeature(llvm::StringRef features);

/// The target features for `chip`: `features` where given, else the PTX ISA
/// version the chip needs, and at least kAsyncExchangePTXVersion ("+ptx81"
/// for sm_90, "+ptx86" for sm_100, "+ptx87" for sm_120).
std::string getTargetFeatures(llvm::StringRef chip, llvm::StringRef features);

/// Checks the target options of credit-check-target (and credit-to-ptx):
/// the chip has clusters, the features (getTargetFeatures) name a PTX ISA
/// version the backend knows and the chip accepts (and at least
/// kAsyncExchangePTXVersion), the format is isa or bin, a named toolkit holds
/// libdevice, and format=bin finds ptxas. Returns what is wrong, or an empty
/// string.
std::string checkTargetOptions(llvm::StringRef chip, llvm::StringRef features,
                               llvm::StringRef format, llvm::StringRef toolkit);

/// Finds ptxas: in `toolkit`/bin if given, then on PATH, then under
/// CUDA_ROOT, CUDA_HOME and CUDA_PATH. Empty if it is nowhere.
std::string findPtxas(llvm::StringRef toolkit);

} // namespace credit
} // namespace mlir

#endif // CREDIT_TARGET_PASSES_H
