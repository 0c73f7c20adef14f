//===- Passes.td - credit transformation passes ------------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_PASSES_TD
#define CREDIT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CreditChooseTiling : Pass<"credit-choose-tiling"> {
  let summary = "Attaches a tiling to credit.rowwise ops that have none";
  let description = [{
    Gives every `credit.rowwise` op without a `tiling` attribute a sound
    default chosen from N, the element types and the number of row inputs:
    the vector width is the widest access of at most 16 bytes that divides
    N; the smallest cluster whose CTAs can hold the row in registers (with a
    register budget that leaves each thread room for the rest of the kernel)
    wins; if no cluster can, the row is staged in shared memory across 16
    CTAs, and if it does not fit there either, 16 CTAs reread it.

    With `cluster-size` set, every op gets a tiling for that cluster size
    (replacing one it had), staged in registers, shared memory or rereads,
    whichever fits first. The cost model replaces these defaults later.
  }];
  let options = [
    Option<"clusterSize", "cluster-size", "unsigned", /*default=*/"0",
           "Cluster size to force (1, 2, 4, 8 or 16); 0 lets the pass choose">
  ];
}

def CreditClusterTiling : Pass<"credit-cluster-tiling", "::mlir::ModuleOp"> {
  let summary = "Turns each credit.rowwise op into a cluster kernel";
  let description = [{
    Outlines every `credit.rowwise` op into a `gpu.func` kernel (an op
    without a `tiling` first gets the default of `credit-choose-tiling`), in a `gpu.module` of its own, with the op's cluster
    size in `known_cluster_size`. The kernel takes bare pointers and 64-bit
    row strides (the launch ABI recorded in the manifest), loops over the
    rows of its cluster, and for each row: loads its CTA's slice with
    16-byte vector accesses (staged in registers, shared memory or reread),
    runs each reduction stage on the slice, combines the partial values with
    `credit.block_reduce` and, across the cluster, `credit.cluster_reduce`,
    then runs the epilogue over the slice and stores the outputs. Elementwise
    region code is cloned onto vectors of the access width.

    The kernel's launch contract (parameters, grid rule, block, cluster,
    shared memory, types) is recorded in the module attribute
    `credit.kernels`, which `credit-write-artifacts` writes out as JSON.
    With `erase-host`, everything but the kernels is removed from the
    module; otherwise each op is tagged with the name of its kernel.
  }];
  let options = [
    Option<"eraseHost", "erase-host", "bool", /*default=*/"false",
           "Remove everything but the generated gpu.modules">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // CREDIT_TRANSFORMS_PASSES_TD
