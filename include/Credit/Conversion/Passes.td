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
      `nvvm.cluster.wait` (acquire), and local loads of a rank per lane
      combined with shuffles (reductions,
      `populateCreditReductionToNVVMPatterns`);
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

def ConvertCreditToGPULaunch : Pass<"convert-credit-to-gpu-launch",
                                    "::mlir::ModuleOp"> {
  let summary = "Replaces outlined credit.rowwise ops by launches of their "
                "kernels";
  let description = [{
    The host side of `credit-to-ptx{keep-host=true}`. Each `credit.rowwise`
    op that `credit-cluster-tiling` outlined (its `credit.kernels` names the
    kernels, the module's `credit.kernels` holds their manifests) becomes
    `gpu.launch_func` ops built from the manifests, the launch contract the
    Python runtime follows too: the kernel whose row range holds the call's
    M (an `scf.if` chain over the variants), bare pointers and 64-bit row
    strides in the manifest's parameter order, the grid rule, the block,
    the cluster size and the dynamic shared memory. Rows are read through
    `bufferization.to_buffer`; each output is a fresh `memref.alloc`
    returned through `bufferization.to_tensor`. A one-wave grid uses the
    co-resident clusters of the plan (the chip's profile).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // CREDIT_CONVERSION_PASSES_TD
