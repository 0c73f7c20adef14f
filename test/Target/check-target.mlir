// The checks that keep the NVPTX backend from aborting, and the ptxas search.
// RUN: credit-opt %s --credit-check-target | FileCheck %s --check-prefix=OK
// RUN: credit-opt %s --credit-check-target="chip=sm_90a features=+ptx80" | FileCheck %s --check-prefix=OK
// RUN: credit-opt %s --credit-check-target="chip=sm_100 features=+ptx86" | FileCheck %s --check-prefix=OK
// RUN: not credit-opt %s --credit-check-target="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not credit-opt %s --credit-check-target="chip=sm_900" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not credit-opt %s --credit-check-target="features=+sm_90" 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not credit-opt %s --credit-check-target="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not credit-opt %s --credit-check-target="features=+ptx70" 2>&1 | FileCheck %s --check-prefix=TOOOLD
// RUN: not credit-opt %s --credit-check-target="chip=sm_90a features=+ptx78" 2>&1 | FileCheck %s --check-prefix=TOOOLD90A
// RUN: not credit-opt %s --credit-check-target="format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not credit-opt %s --credit-check-target="toolkit=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=NOTOOLKIT
// RUN: rm -rf %t.tk && mkdir -p %t.tk/bin %t.tk/nvvm/libdevice && touch %t.tk/nvvm/libdevice/libdevice.10.bc
// RUN: credit-opt %s --credit-check-target="toolkit=%t.tk" | FileCheck %s --check-prefix=OK
// RUN: not credit-opt %s --credit-check-target="format=bin toolkit=%t.tk" 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not env PATH=%t.nowhere CUDA_ROOT= CUDA_HOME= CUDA_PATH= %credit_opt_path %s --credit-check-target="format=bin" 2>&1 | FileCheck %s --check-prefix=NOPTXAS-ENV

// OK: module
// OLD: error: unsupported chip '{{sm_80|sm_900}}': CREDIT kernels use thread-block clusters, which need sm_90 or later
// NOPTX: error: features '{{.*}}' must name a PTX ISA version the backend knows (+ptx32 ... +ptx88, +ptx90); without one the NVPTX backend aborts for sm_90
// TOOOLD: error: sm_90 needs PTX ISA 7.8 or later (+ptx78), but features give +ptx70; the NVPTX backend would abort
// TOOOLD90A: error: sm_90a needs PTX ISA 8.0 or later (+ptx80), but features give +ptx78
// FORMAT: error: format must be 'isa' (PTX) or 'bin' (PTX and cubin), got 'cubin'
// NOTOOLKIT: error: toolkit '{{.*}}.nowhere' is not a CUDA toolkit: '{{.*}}.nowhere/nvvm/libdevice/libdevice.10.bc' does not exist
// NOPTXAS: error: format=bin needs ptxas, which was not found in '{{.*}}.tk/bin'; pass toolkit=<CUDA toolkit root> or use format=isa
// NOPTXAS-ENV: error: format=bin needs ptxas, which was not found on PATH or under CUDA_ROOT, CUDA_HOME or CUDA_PATH; pass toolkit=<CUDA toolkit root> or use format=isa
module {
}
