//===- Pipelines.h - credit pass pipelines ----------------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_PIPELINES_PIPELINES_H
#define CREDIT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class PassManager;
class OpPassManager;
namespace credit {

/// Options of the `credit-to-ptx` pipeline.
struct CreditToPTXOptions : public PassPipelineOptions<CreditToPTXOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip"), llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Target features, with a PTX ISA version; empty: the "
                     "chip's own, at least +ptx81"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("Calibrated chip profile (JSON); empty: the chip's "
                     "built-in one"),
      llvm::cl::init("")};
  PassOptions::Option<bool> explain{
      *this, "explain",
      llvm::cl::desc("Annotate each op with the cost model's predictions "
                     "and explain the choice in a remark"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> raiseLinalg{
      *this, "raise-linalg",
      llvm::cl::desc("Raise linalg reduction-reuse computations to "
                     "credit.rowwise first (credit-raise-linalg)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> onlineSoftmax{
      *this, "online-softmax",
      llvm::cl::desc("Merge a row maximum and its sums of exponentials into "
                     "one stage (credit-online-softmax)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> onlineVariance{
      *this, "online-variance",
      llvm::cl::desc("Merge a row sum and its squared deviations into one "
                     "stage (credit-online-variance)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> splitPart{
      *this, "split-part",
      llvm::cl::desc("Compile one part of each op split at its reduction "
                     "stage for rows sharded across devices: partial or "
                     "combine (credit-split-stages); empty: the whole op"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> splitShards{
      *this, "split-shards",
      llvm::cl::desc("Shards whose partials the combine part takes"),
      llvm::cl::init(1)};
  PassOptions::Option<unsigned> clusterSize{
      *this, "cluster-size",
      llvm::cl::desc("CTAs per row: 0 lets the compiler choose; 1, 2, 4, 8 "
                     "or 16 forces it"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> keepHost{
      *this, "keep-host",
      llvm::cl::desc("Keep the host code and replace each credit.rowwise op "
                     "by gpu.launch_func ops of its kernels"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> artifactsDir{
      *this, "artifacts-dir",
      llvm::cl::desc("Directory for each kernel's PTX, cubin and manifest"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa: PTX; bin: PTX and cubin through ptxas"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("CUDA toolkit root (for ptxas)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level"),
      llvm::cl::init(3)};
};

/// What is wrong with `options` (the target, the cluster size, the opt
/// level, the profile), or an empty string.
std::string checkCreditToPTXOptions(const CreditToPTXOptions &options);

/// Builds the pipeline that takes a module with credit.rowwise ops (or
/// linalg it raises) to one gpu.binary of PTX per kernel (and the
/// artifacts): raising, target checks, the cost model's tilings, cluster
/// kernels, their lowering to NVVM, and serialization. The host code is
/// dropped, or with `keepHost` kept with each op replaced by launches.
void buildCreditToPTXPipeline(OpPassManager &pm,
                              const CreditToPTXOptions &options);

/// Registers `credit-to-ptx`.
void registerCreditPipelines();

/// Makes `pm` report, as an error at the op it ran on, any pass that fails
/// without reporting why (some upstream passes signal failure silently:
/// convert-gpu-to-nvvm when its greedy rewrites do not converge). Only
/// where no error has been reported in `pm`'s context while it runs, so a
/// pass that explained itself, and the pipelines around a failed pass, add
/// nothing. credit-opt does this for every pipeline it runs; compilers that
/// run CREDIT's passes with their own PassManager call it (C API:
/// mlirCreditPassManagerReportSilentFailures).
void reportSilentPassFailures(PassManager &pm);

} // namespace credit
} // namespace mlir

#endif // CREDIT_PIPELINES_PIPELINES_H
