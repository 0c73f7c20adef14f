// RUN: credit-opt %s --split-input-file --credit-raise-linalg=remarks=true --verify-diagnostics -mlir-print-op-on-diagnostic=false | FileCheck %s

// What credit-raise-linalg leaves alone, and the reason its remarks give.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// A column reduction: the wrong dimension.
func.func @column_mean(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<1024xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
// CHECK-LABEL: func.func @column_mean
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// A lone row sum: nothing reuses the row.
func.func @row_sum(%x: tensor<64x1024xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @below {{not raised to credit.rowwise: no row output of the chain reuses its reductions}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// The centred row feeds a matmul whose result comes back into the chain:
// the intermediate is used before the chain ends.
func.func @feedback(%x: tensor<64x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  // expected-remark @below {{not raised to credit.rowwise: its result is used by an op before the chain ends, which one rowwise op cannot feed}}
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %mm = linalg.matmul ins(%xc, %w : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%f2 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %mm : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
// CHECK-LABEL: func.func @feedback
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// A gather in the payload (as nll_loss lowers): not scalar code.
func.func @gather(%x: tensor<64x1024xf32>, %b: tensor<4xf32>) -> tensor<64x1024xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @below {{not raised to credit.rowwise: a reduction of the last dimension, but its payload has tensor.extract, which is not scalar arith or math code}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = tensor.extract %b[%c0] : tensor<4xf32>
    %p = arith.mulf %in, %t : f32
    %a = arith.addf %p, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.divf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
// CHECK-LABEL: func.func @gather
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// Branches may hold scalar code, but loops are not raised.
func.func @payload_loop(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @below {{not raised to credit.rowwise: a reduction of the last dimension, but its payload has scf.for, which is not scalar arith or math code}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.constant 0 : index
    %hi = arith.constant 3 : index
    %one = arith.constant 1 : index
    %v = scf.for %i = %lo to %hi step %one iter_args(%p = %in) -> (f32) {
      %q = arith.mulf %p, %p : f32
      scf.yield %q : f32
    }
    %a = arith.addf %v, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.divf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
// CHECK-LABEL: func.func @payload_loop
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// An f16 accumulator.
func.func @f16_sum(%x: tensor<64x1024xf16>) -> tensor<64x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e1 : tensor<64xf16>) -> tensor<64xf16>
  // expected-remark @below {{not raised to credit.rowwise: a reduction of the last dimension, but it reduces with something other than addf, maximumf, minimumf, maxnumf or minnumf into an f32 accumulator}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf16>) outs(%f : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %a = arith.addf %in, %out : f16
    linalg.yield %a : f16
  } -> tensor<64xf16>
  %e2 = tensor.empty() : tensor<64x1024xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf16>, tensor<64xf16>) outs(%e2 : tensor<64x1024xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %d = arith.divf %in, %m : f16
    linalg.yield %d : f16
  } -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
// CHECK-LABEL: func.func @f16_sum
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// A captured epsilon that is a function argument, not a constant.
func.func @captured_eps(%x: tensor<64x1024xf32>, %eps: f32) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @below {{not raised to credit.rowwise: no row output of the chain reuses its reductions; linalg.generic reads one but cannot join the chain: its payload reads a value from outside that is not a constant}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    %a = arith.addf %q, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %d = arith.mulf %in, %r : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
// CHECK-LABEL: func.func @captured_eps
// CHECK-NOT: credit.rowwise

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// linalg.index of the row dimension.
func.func @row_index(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @below {{not raised to credit.rowwise: no row output of the chain reuses its reductions; linalg.generic reads one but cannot join the chain: its payload reads the index of loop 0, a row dimension}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %d = arith.subf %in, %m : f32
    %r = arith.mulf %d, %fi : f32
    linalg.yield %r : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
// CHECK-LABEL: func.func @row_index
// CHECK-NOT: credit.rowwise

// -----

// Inside a kernel: credit.rowwise runs on the host.
// CHECK-LABEL: gpu.module @kernels
// CHECK: linalg.softmax
// CHECK-NOT: credit.rowwise
gpu.module @kernels {
  func.func @softmax(%x: tensor<4x1024xf32>, %o: tensor<4x1024xf32>) -> tensor<4x1024xf32> {
    %r = linalg.softmax dimension(1) ins(%x : tensor<4x1024xf32>) outs(%o : tensor<4x1024xf32>) -> tensor<4x1024xf32>
    return %r : tensor<4x1024xf32>
  }
}
