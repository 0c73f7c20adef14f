// credit-write-artifacts on hand-made binaries: what it refuses to write and
// how it keeps the directory's index sound.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not credit-opt %s --split-input-file --credit-write-artifacts=dir=%t/a -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
//
// A ptxas that succeeds without writing a cubin.
// RUN: printf '#!/bin/sh\nexit 0\n' > %t/fake-ptxas && chmod +x %t/fake-ptxas
// RUN: not credit-opt %S/Inputs/one-kernel.mlir --credit-write-artifacts="dir=%t/b ptxas=%t/fake-ptxas" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCUBIN
// RUN: not ls %t/b/k.json
//
// A damaged index is rebuilt: a truncated one from the manifests in the
// directory; from a readable one, entries that are not manifests of this
// directory are dropped. The new kernel is added.
// RUN: mkdir -p %t/c && printf '{"kernels": ["old.json", "../escape.json", "gone.json", 7' > %t/c/kernels.json
// RUN: echo '{}' > %t/c/old.json
// RUN: credit-opt %S/Inputs/one-kernel.mlir --credit-write-artifacts=dir=%t/c -o /dev/null
// RUN: FileCheck %s --check-prefix=REBUILT < %t/c/kernels.json
// RUN: mkdir -p %t/d && printf '{"kernels": ["old.json", "../escape.json", "gone.json", 7]}' > %t/d/kernels.json
// RUN: echo '{}' > %t/d/old.json
// RUN: credit-opt %S/Inputs/one-kernel.mlir --credit-write-artifacts=dir=%t/d -o /dev/null
// RUN: FileCheck %s --check-prefix=KEPT < %t/d/kernels.json
// No temporary file is left behind.
// RUN: ls -A %t/d | FileCheck %s --check-prefix=FILES

// ERR: error: the PTX of 'k' calls functions it does not define (__nv_tanf, __nv_void): libdevice was not linked; pass toolkit=<CUDA toolkit root>
module attributes {credit.kernels = {k = {n = 4 : i64}}, gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A.address_size 64\0A.extern .func  (.param .b32 func_retval0) __nv_tanf\0A(\0A.param .b32 p\0A)\0A;\0A.extern .func __nv_void\0A(\0A)\0A;\0A">]
}

// -----

// ERR: error: credit-write-artifacts expects PTX (format isa)
module attributes {credit.kernels = {k = {n = 4 : i64}}, gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF">]
}

// NOCUBIN: error: ptxas succeeded but wrote no cubin at '{{.*}}k.cubin'

// REBUILT: "kernels": [
// REBUILT-NEXT: "k.json",
// REBUILT-NEXT: "old.json"
// REBUILT-NEXT: ]

// KEPT: "kernels": [
// KEPT-NEXT: "old.json",
// KEPT-NEXT: "k.json"
// KEPT-NEXT: ]

// FILES: .kernels.json.lock
// FILES-NEXT: k.json
// FILES-NEXT: k.ptx
// FILES-NEXT: kernels.json
// FILES-NEXT: old.json
// FILES-NOT: tmp
