// RUN: credit-opt %s --split-input-file --credit-online-softmax --credit-cluster-tiling | FileCheck %s

// credit.registers: ptxas's register count per tiling, which a build driver
// (python/credit/compiler.py) sets after assembling the kernels. The plan
// uses it in place of its estimate where the kernel is built without a
// register cap (registers staging, no split rows), so the occupancy and
// the clusters at once that the cost model prices are the GPU's. The
// attribute survives credit-online-softmax, which rebuilds the op.

// ptxas's 96 registers: 5 CTAs of 128 threads per SM, 35 clusters of 16.
// CHECK: co_resident_clusters = 35
// CHECK-SAME: ctas_per_sm = 5
// CHECK-SAME: estimated_registers = 96
// CHECK-SAME: register_budget = 96
// CHECK: func.func @measured
func.func @measured(%x: tensor<?x131072xbf16>, %init: tensor<?x131072xbf16>) -> tensor<?x131072xbf16> {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x131072xbf16>) outs(%init : tensor<?x131072xbf16>)
      attributes {tiling = #credit.tiling<cluster = 16, threads = 128, vector = 8, elems = 64>, credit.registers = [[#credit.tiling<cluster = 16, threads = 128, vector = 8, elems = 64>, 96]]}
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %max: f32, %sum: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      credit.yield %p : f32
    }
  return %y : tensor<?x131072xbf16>
}

// -----

// Without it, the estimate: 121 registers, 4 CTAs per SM, 28 clusters.
// CHECK: co_resident_clusters = 28
// CHECK-SAME: ctas_per_sm = 4
// CHECK-SAME: estimated_registers = 121
// CHECK: func.func @estimated
func.func @estimated(%x: tensor<?x131072xbf16>, %init: tensor<?x131072xbf16>) -> tensor<?x131072xbf16> {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x131072xbf16>) outs(%init : tensor<?x131072xbf16>)
      attributes {tiling = #credit.tiling<cluster = 16, threads = 128, vector = 8, elems = 64>}
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %max: f32, %sum: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      credit.yield %p : f32
    }
  return %y : tensor<?x131072xbf16>
}

// -----

// A count for another tiling says nothing about this kernel.
// CHECK: estimated_registers = 121
// CHECK: func.func @other_tiling
func.func @other_tiling(%x: tensor<?x131072xbf16>, %init: tensor<?x131072xbf16>) -> tensor<?x131072xbf16> {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x131072xbf16>) outs(%init : tensor<?x131072xbf16>)
      attributes {tiling = #credit.tiling<cluster = 16, threads = 128, vector = 8, elems = 64>, credit.registers = [[#credit.tiling<cluster = 16, threads = 256, vector = 8, elems = 16, staging = shared>, 40]]}
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %max: f32, %sum: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      credit.yield %p : f32
    }
  return %y : tensor<?x131072xbf16>
}

// -----

// Shared staging is built to the plan's budget (.maxnreg), so a count does
// not change it.
// CHECK: ctas_per_sm = 5
// CHECK-SAME: estimated_registers = 48
// CHECK: func.func @capped
func.func @capped(%x: tensor<?x131072xbf16>, %init: tensor<?x131072xbf16>) -> tensor<?x131072xbf16> {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x131072xbf16>) outs(%init : tensor<?x131072xbf16>)
      attributes {tiling = #credit.tiling<cluster = 16, threads = 256, vector = 8, elems = 16, staging = shared>, credit.registers = [[#credit.tiling<cluster = 16, threads = 256, vector = 8, elems = 16, staging = shared>, 30]]}
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %max: f32, %sum: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      credit.yield %p : f32
    }
  return %y : tensor<?x131072xbf16>
}
