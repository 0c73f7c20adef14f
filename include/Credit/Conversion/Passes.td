//===- Passes.td - credit conversion passes ----------------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_CONVERSION_PASSES_TD
#define CREDIT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertCreditToNVVM : Pass<"convert-credit-to-nvvm"> {
  let summary = "Lowers the tiled credit ops to GPU, NVVM, LLVM and memref ops";
  let description = [{
    Lowers what `credit-cluster-tiling` leaves in a kernel:

    - `credit.global_view` becomes a memref descriptor built from the bare
      pointer (memory views, `populateCreditMemoryToLLVMPatterns`);
    - `credit.block_reduce` becomes butterfly `gpu.shuffle`s, a shared-memory
      exchange between warps and `gpu.barrier`; `credit.cluster_reduce`
      becomes `nvvm.mapa` with stores into peers' shared memory (the
      shared_cluster address space), `nvvm.cluster.arrive` (release) and
      `nvvm.cluster.wait` (acquire), and local loads combined in rank order
      (reductions, `populateCreditReductionToNVVMPatterns`);
    - f32 `math` ops become the GPU's approximate instructions (`ex2`,
      `lg2`, `rsqrt`) or exact LLVM intrinsics (`sqrt`, `fabs`, `roundeven`,
      ...), so kernels need no libdevice (math,
      `populateCreditMathToNVVMPatterns`).

    The upstream GPU-to-NVVM conversion then finishes the job.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // CREDIT_CONVERSION_PASSES_TD
