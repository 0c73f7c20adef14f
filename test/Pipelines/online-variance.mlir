// credit-to-ptx merges layer norm's mean and variance stages
// (credit-online-variance): one exchange per row instead of two, as the
// manifests' plans say; online-variance=false keeps the textbook form.
// RUN: rm -rf %t && mkdir -p %t
// RUN: credit-opt %S/../../examples/layernorm.mlir -o /dev/null --pass-pipeline='builtin.module(credit-to-ptx{cluster-size=2 artifacts-dir=%t/on})'
// RUN: credit-opt %S/../../examples/layernorm.mlir -o /dev/null --pass-pipeline='builtin.module(credit-to-ptx{cluster-size=2 online-variance=false artifacts-dir=%t/off})'
// RUN: cat %t/on/layernorm_*.json | FileCheck %s --check-prefix=ON
// RUN: cat %t/off/layernorm_*.json | FileCheck %s --check-prefix=OFF

// ON: "exchange_rounds": 1
// ON-NOT: "exchange_rounds": 2
// OFF: "exchange_rounds": 2
// OFF-NOT: "exchange_rounds": 1
