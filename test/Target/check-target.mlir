// The checks that keep the NVPTX backend from aborting, and the ptxas search.
// RUN: credit-opt %s --credit-check-target | FileCheck %s --check-prefix=OK
// RUN: credit-opt %s --credit-check-target="chip=sm_90a features=+ptx81" | FileCheck %s --check-prefix=OK
// RUN: credit-opt %s --credit-check-target="chip=sm_100 features=+ptx86" | FileCheck %s --check-prefix=OK
// Without features the chip's own version: sm_100 and sm_120 pass alone.
// RUN: credit-opt %s --credit-check-target="chip=sm_100" | FileCheck %s --check-prefix=OK
// RUN: credit-opt %s --credit-check-target="chip=sm_120a" | FileCheck %s --check-prefix=OK
// RUN: not credit-opt %s --credit-check-target="chip=sm_100 features=+ptx81" 2>&1 | FileCheck %s --check-prefix=TOOOLD100
// RUN: not credit-opt %s --credit-check-target="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not credit-opt %s --credit-check-target="chip=sm_900" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not credit-opt %s --credit-check-target="features=+sm_90" 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not credit-opt %s --credit-check-target="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not credit-opt %s --credit-check-target="features=+ptx70" 2>&1 | FileCheck %s --check-prefix=TOOOLD
// RUN: not credit-opt %s --credit-check-target="chip=sm_90a features=+ptx78" 2>&1 | FileCheck %s --check-prefix=TOOOLD90A
// RUN: not credit-opt %s --credit-check-target="features=+ptx80" 2>&1 | FileCheck %s --check-prefix=NOASYNC
// RUN: not credit-opt %s --credit-check-target="chip=sm_90a features=+ptx80" 2>&1 | FileCheck %s --check-prefix=NOASYNC
// RUN: not credit-opt %s --credit-check-target="format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not credit-opt %s --credit-check-target="toolkit=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=NOTOOLKIT
// RUN: rm -rf %t.tk && mkdir -p %t.tk/bin %t.tk/nvvm/libdevice && touch %t.tk/nvvm/libdevice/libdevice.10.bc
// RUN: credit-opt %s --credit-check-target="toolkit=%t.tk" | FileCheck %s --check-prefix=OK
// RUN: not credit-opt %s --credit-check-target="format=bin toolkit=%t.tk" 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// Options given as text are checked where the pipeline is parsed: the error
// names the pass and neither points into the input nor prints the module.
// RUN: not credit-opt %s --pass-pipeline="builtin.module(credit-check-target{chip=sm_80})" 2>&1 | FileCheck %s --check-prefix=PARSED
// A module without credit.rowwise ops is nothing to compile when asked.
// RUN: not credit-opt %s --credit-check-target=require-ops=true 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not credit-opt %S/Inputs/linalg-unraisable.mlir --credit-check-target=require-ops=true 2>&1 | FileCheck %s --check-prefix=LINALG
// RUN: not credit-opt %S/Inputs/linalg-column-sum.mlir --credit-to-ptx 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: not env PATH=%t.nowhere CUDA_ROOT= CUDA_HOME= CUDA_PATH= %credit_opt_path %s --credit-check-target="format=bin" 2>&1 | FileCheck %s --check-prefix=NOPTXAS-ENV

// OK: module
// OLD: error: credit-check-target: unsupported chip '{{sm_80|sm_900}}': CREDIT kernels use thread-block clusters, which need sm_90 or later
// NOPTX: error: credit-check-target: features '{{.*}}' must name a PTX ISA version the backend knows (+ptx32 ... +ptx88, +ptx90); without one the NVPTX backend aborts for sm_90
// TOOOLD: error: credit-check-target: sm_90 needs PTX ISA 7.8 or later (+ptx78), but features give +ptx70; the NVPTX backend would abort
// TOOOLD90A: error: credit-check-target: sm_90a needs PTX ISA 8.0 or later (+ptx80), but features give +ptx78
// TOOOLD100: error: credit-check-target: sm_100 needs PTX ISA 8.6 or later (+ptx86), but features give +ptx81; the NVPTX backend would abort
// NOASYNC: error: credit-check-target: CREDIT's cluster kernels exchange partial values with st.async, which needs PTX ISA 8.1 or later (+ptx81), but features give +ptx80
// FORMAT: error: credit-check-target: format must be 'isa' (PTX) or 'bin' (PTX and cubin), got 'cubin'
// NOTOOLKIT: error: credit-check-target: toolkit '{{.*}}.nowhere' is not a CUDA toolkit: '{{.*}}.nowhere/nvvm/libdevice/libdevice.10.bc' does not exist
// NOPTXAS: error: credit-check-target: format=bin needs ptxas, which was not found in '{{.*}}.tk/bin'; pass toolkit=<CUDA toolkit root> or use format=isa
// NOPTXAS-ENV: error: credit-check-target: format=bin needs ptxas, which was not found on PATH or under CUDA_ROOT, CUDA_HOME or CUDA_PATH; pass toolkit=<CUDA toolkit root> or use format=isa
// PARSED: <unknown>:0: error: credit-check-target: unsupported chip 'sm_80'
// PARSED-NOT: check-target.mlir
// PARSED-NOT: see current operation
// NOTHING: check-target.mlir:{{[0-9]+}}:1: error: nothing to compile: the module has no credit.rowwise op
// NOTHING-NOT: linalg
// NOTHING-NOT: see current operation
// REDUCE: linalg-column-sum.mlir:8:8: error: nothing to compile: the module has no credit.rowwise op; linalg.reduce is not raised to credit.rowwise
// LINALG: linalg-unraisable.mlir:4:8: error: nothing to compile: the module has no credit.rowwise op; linalg.softmax is not raised to credit.rowwise (credit-raise-linalg takes reduction-reuse computations along the last dimension; its remarks say why it left an op alone)
module {
}
