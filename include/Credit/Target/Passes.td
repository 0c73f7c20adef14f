//===- Passes.td - credit target and artifact passes -------*- tablegen -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TARGET_PASSES_TD
#define CREDIT_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def CreditCheckTarget : Pass<"credit-check-target", "::mlir::ModuleOp"> {
  let summary = "Rejects GPU targets the LLVM backend would abort on";
  let description = [{
    Checks the chip and features that the rest of the pipeline hands to the
    NVPTX backend before it sees them: the chip must be sm_90 or later (the
    kernels use thread-block clusters), and the features must name a PTX ISA
    version that the backend knows and that the chip needs (for example
    `+ptx78` or later for sm_90, `+ptx80` for sm_90a). The NVPTX backend
    aborts the whole process on a chip whose PTX version is too old; this
    pass reports an error instead. CREDIT's cluster kernels also need PTX
    ISA 8.1 for st.async. Without `features`, the chip's own version is
    used, and at least 8.1 (`+ptx81` for sm_90, `+ptx86` for sm_100,
    `+ptx87` for sm_120). A `toolkit` that is
    given must hold `nvvm/libdevice/libdevice.10.bc`, which the NVVM
    target links math functions from. With `format=bin` it also checks
    that `ptxas` can be found (the `toolkit` option, PATH, then CUDA_ROOT,
    CUDA_HOME and CUDA_PATH). Options given as text are checked when they are parsed,
    so a bad one is reported against the pass pipeline. With `require-ops`
    a module without any `credit.rowwise` op is an error: there is nothing
    to compile.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Target features with a PTX ISA version; empty: the chip's "
           "own, at least +ptx81">,
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "Output format: isa (PTX) or bin (PTX and cubin)">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root: bin/ptxas and nvvm/libdevice">,
    Option<"requireOps", "require-ops", "bool", /*default=*/"false",
           "Fail on a module without credit.rowwise ops">
  ];
}

def CreditWriteArtifacts : Pass<"credit-write-artifacts", "::mlir::ModuleOp"> {
  let summary = "Writes each kernel's PTX, cubin and JSON manifest";
  let description = [{
    For every `gpu.binary` that holds PTX (format isa) of a kernel that
    `credit-cluster-tiling` produced, writes `DIR/NAME.ptx`, with `ptxas`
    also `DIR/NAME.cubin`, and `DIR/NAME.json`: the launch contract recorded
    in the module attribute `credit.kernels` (entry name, parameters in
    launch order with types and roles, grid rule, block, cluster size,
    dynamic shared memory, element types, N, workload), plus the chip, the
    file names and, when ptxas ran, its register and spill report.
    `DIR/kernels.json` lists all kernels written. With `ptxas` set and no
    `dir`, the PTX is still assembled, to check it.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Directory to write the artifacts to (created if missing)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Chip to assemble for">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "Path of ptxas; empty writes PTX only">
  ];
}

#endif // CREDIT_TARGET_PASSES_TD
