// RUN: credit-opt %s --split-input-file --credit-online-variance | FileCheck %s

// Layer norm: the sum's stage takes a count and the squared deviations as
// sqdev; the epilogue and finalize read sum((v - S/N)^2) as
// Q + n * (S/n - S/N)^2, with S/N recomputed there.
// CHECK-LABEL: func.func @layernorm
// CHECK: reduce [add, add, sqdev] (%j: index, %in0: f32) {
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: credit.yield %in0, %[[ONE]], %in0 : f32, f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: epilogue (%j: index, %in0: f32, %red0: f32, %red1: f32, %red2: f32) {
// CHECK-NEXT: %[[N:.*]] = arith.constant 1.024000e+03 : f32
// CHECK-NEXT: %[[K:.*]] = arith.divf %red0, %[[N]] : f32
// CHECK-NEXT: %[[MEAN:.*]] = arith.divf %red0, %red1 : f32
// CHECK-NEXT: %[[OFF:.*]] = arith.subf %[[MEAN]], %[[K]] : f32
// CHECK-NEXT: %[[OFF2:.*]] = arith.mulf %[[OFF]], %[[OFF]] : f32
// CHECK-NEXT: %[[CORR:.*]] = arith.mulf %red1, %[[OFF2]] : f32
// CHECK-NEXT: %[[SQ:.*]] = arith.addf %red2, %[[CORR]] : f32
// CHECK: arith.divf %[[SQ]],
// CHECK: finalize (%red0: f32, %red1: f32, %red2: f32) {
// CHECK: %[[FSQ:.*]] = arith.addf %red2,
// CHECK: credit.yield %[[FSQ]] : f32
// CHECK-NOT: reduce
func.func @layernorm(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>, %q0: tensor<?xf32>) -> (tensor<?x1024xf32>, tensor<?xf32>) {
  %r, %q = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>) scalar_outs(%q0 : tensor<?xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %s: f32) {
      %n = arith.constant 1024.0 : f32
      %mean = arith.divf %s, %n : f32
      %d = arith.subf %v, %mean : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %sq: f32) {
      %n = arith.constant 1024.0 : f32
      %var = arith.divf %sq, %n : f32
      %y = arith.mulf %v, %var : f32
      credit.yield %y : f32
    }
    finalize (%s: f32, %sq: f32) { credit.yield %sq : f32 }
  return %r, %q : tensor<?x1024xf32>, tensor<?xf32>
}

// -----

// The general shape: the sum is not the earlier stage's last entry (it
// moves last, the other entry keeps its place), the deviation is written
// K - a', its element expression is recomputed (x * 2), K uses an earlier
// stage's result too, the later stage has an entry of its own, and a third
// stage reads the merged results in their new order.
// CHECK-LABEL: func.func @general
// CHECK: reduce [min] (%j: index, %in0: f32) {
// CHECK: reduce [max, add, add, sqdev, add] (%j: index, %in0: f32, %red0: f32) {
// CHECK: %[[X2:.*]] = arith.mulf %in0, %{{.*}} : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: credit.yield %in0, %[[X2]], %[[ONE]], %[[X2]], %in0 : f32, f32, f32, f32, f32
// CHECK: reduce [add] (%j: index, %in0: f32, %red0: f32, %red1: f32, %red2: f32, %red3: f32, %red4: f32, %red5: f32) {
// CHECK: %[[K:.*]] = arith.addf %red2, %red0 : f32
// CHECK: %[[MEAN:.*]] = arith.divf %red2, %red3 : f32
// CHECK: arith.subf %[[MEAN]], %[[K]] : f32
// CHECK: %[[SQ:.*]] = arith.addf %red4,
// CHECK: %[[T:.*]] = arith.mulf %red1, %[[SQ]] : f32
// CHECK: %[[U:.*]] = arith.addf %[[T]], %red5 : f32
// CHECK: credit.yield %[[U]] : f32
func.func @general(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [min] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add, max] (%j: index, %v: f32, %lo: f32) {
      %c = arith.constant 2.0 : f32
      %x2 = arith.mulf %v, %c : f32
      credit.yield %x2, %v : f32, f32
    }
    reduce [add, add] (%j: index, %v: f32, %lo: f32, %s: f32, %hi: f32) {
      %plain = arith.addf %v, %v : f32
      %c = arith.constant 2.0 : f32
      %x2 = arith.mulf %v, %c : f32
      %k = arith.addf %s, %lo : f32
      %d = arith.subf %k, %x2 : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2, %v : f32, f32
    }
    reduce [add] (%j: index, %v: f32, %lo: f32, %s: f32, %hi: f32, %sq: f32, %t: f32) {
      %a = arith.mulf %hi, %sq : f32
      %b = arith.addf %a, %t : f32
      credit.yield %b : f32
    }
    epilogue (%j: index, %v: f32, %lo: f32, %s: f32, %hi: f32, %sq: f32, %t: f32, %u: f32) {
      credit.yield %u : f32
    }
  return %r : tensor<?x1024xf32>
}

// -----

// Left alone: the center depends on the element (v - S/N * j), the square
// is of two different values, the deviation is from another expression than
// the sum's, and the later stage uses the sum other than in a deviation.
// CHECK-LABEL: func.func @element_center
// CHECK: reduce [add] (
// CHECK: reduce [add] (
// CHECK-LABEL: func.func @not_square
// CHECK: reduce [add] (
// CHECK: reduce [add] (
// CHECK-LABEL: func.func @other_expression
// CHECK: reduce [add] (
// CHECK: reduce [add] (
// CHECK-LABEL: func.func @other_use
// CHECK: reduce [add] (
// CHECK: reduce [add, add] (
// CHECK-NOT: sqdev
func.func @element_center(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %s: f32) {
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %k = arith.mulf %s, %jf : f32
      %d = arith.subf %v, %k : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %sq: f32) { credit.yield %sq : f32 }
  return %r : tensor<?x1024xf32>
}
func.func @not_square(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %s: f32) {
      %d = arith.subf %v, %s : f32
      %e = arith.subf %s, %v : f32
      %d2 = arith.mulf %d, %e : f32
      credit.yield %d2 : f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %sq: f32) { credit.yield %sq : f32 }
  return %r : tensor<?x1024xf32>
}
func.func @other_expression(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %s: f32) {
      %a = math.absf %v : f32
      %d = arith.subf %a, %s : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %sq: f32) { credit.yield %sq : f32 }
  return %r : tensor<?x1024xf32>
}
func.func @other_use(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add, add] (%j: index, %v: f32, %s: f32) {
      %d = arith.subf %v, %s : f32
      %d2 = arith.mulf %d, %d : f32
      %w = arith.mulf %v, %s : f32
      credit.yield %d2, %w : f32, f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %sq: f32, %w: f32) { credit.yield %sq : f32 }
  return %r : tensor<?x1024xf32>
}

// -----

// Left alone: the earlier stage's entry is a max, not a sum.
// CHECK-LABEL: func.func @max_center
// CHECK: reduce [max] (
// CHECK: reduce [add] (
func.func @max_center(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %sq: f32) { credit.yield %sq : f32 }
  return %r : tensor<?x1024xf32>
}
