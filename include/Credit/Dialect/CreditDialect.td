//===- CreditDialect.td - credit dialect definition --------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_CREDITDIALECT_TD
#define CREDIT_DIALECT_CREDITDIALECT_TD

include "mlir/IR/OpBase.td"

def Credit_Dialect : Dialect {
  let name = "credit";
  let cppNamespace = "::mlir::credit";
  let summary = "Row-wise reduction-reuse computations for thread-block clusters";
  let description = [{
    The credit dialect expresses row-wise *reduction-reuse* computations:
    a row of an [M, N] tensor is reduced (sums, maxima, norms, dot products)
    in one or more ordered stages, and the same row is then read again,
    together with the reduced values, to produce the outputs. Softmax, the
    normalizations and their backward passes, optimizer updates and
    quantization all have this shape.

    The workload-level op, `credit.rowwise`, carries the whole computation
    in regions that operate on one element (or one row) at a time. Later
    passes choose a tiling (how many CTAs of a cluster share a row) and lower
    the op to a single-pass GPU kernel that combines partial reductions in
    distributed shared memory.
  }];
  let useDefaultAttributePrinterParser = 1;
  // `credit.kernels`: the manifests on a module, the kernels of an op;
  // `credit.registers`: ptxas's counts on an op.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute credit-cluster-tiling sets: on the module,
    /// a dictionary from kernel symbol to manifest; on each rowwise op, the
    /// symbols of its kernels.
    static constexpr ::llvm::StringLiteral kKernelsAttrName = "credit.kernels";

    /// The discardable attribute a build driver sets on a rowwise op after
    /// assembling its kernels: `[[#credit.tiling<...>, registers], ...]`,
    /// ptxas's register count per tiling, which the plan uses in place of
    /// its estimate where the kernel is built without a register cap.
    static constexpr ::llvm::StringLiteral kRegistersAttrName =
        "credit.registers";

    /// Registers the attributes of the dialect (in CreditAttrs.cpp, where
    /// their storage classes are defined).
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect"];
}

class Credit_Op<string mnemonic, list<Trait> traits = []>
    : Op<Credit_Dialect, mnemonic, traits>;

#endif // CREDIT_DIALECT_CREDITDIALECT_TD
