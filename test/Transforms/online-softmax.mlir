// RUN: credit-opt %s --split-input-file --credit-online-softmax | FileCheck %s

// Softmax: the maximum's stage takes the sum of exponentials as addexp with
// weight 1; the epilogue sees the same values.
// CHECK-LABEL: func.func @softmax
// CHECK: reduce [max, addexp] (%j: index, %in0: f32) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: credit.yield %in0, %[[ONE]] : f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: epilogue (%j: index, %in0: f32, %red0: f32, %red1: f32) {
// CHECK-NEXT: arith.subf %in0, %red0
// CHECK-NOT: reduce
func.func @softmax(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x1024xf32>
}

// -----

// Cross-entropy's shape: an entry independent of the maximum (the target
// logit) joins the stage as it is; weighted sums (either operand order) keep
// their weight; the exponent may be any expression the max also reduces.
// CHECK-LABEL: func.func @weighted
// CHECK: reduce [max, addexp, add, addexp, addexp] (%j: index, %in0: f32, %in1: f32, %sc0: i64) {
// CHECK: %[[SCALED:.*]] = arith.mulf %in0, %{{.*}} : f32
// CHECK: %[[PICKED:.*]] = arith.select
// CHECK: credit.yield %[[SCALED]], %{{.*}}, %[[PICKED]], %in1, %in1 : f32, f32, f32, f32, f32
// CHECK-NOT: math.exp
// CHECK: epilogue
func.func @weighted(%x: tensor<?x1024xbf16>, %w: tensor<?x1024xbf16>, %t: tensor<?xi64>, %o: tensor<?x1024xbf16>) -> tensor<?x1024xbf16> {
  %r = credit.rowwise ins(%x, %w : tensor<?x1024xbf16>, tensor<?x1024xbf16>) scalars(%t : tensor<?xi64>)
      outs(%o : tensor<?x1024xbf16>)
    reduce [max] (%j: index, %v: f32, %wv: f32, %tv: i64) {
      %c = arith.constant 0.5 : f32
      %s = arith.mulf %v, %c : f32
      credit.yield %s : f32
    }
    reduce [add, add, add, add] (%j: index, %v: f32, %wv: f32, %tv: i64, %m: f32) {
      %c = arith.constant 0.5 : f32
      %s = arith.mulf %v, %c : f32
      %d = arith.subf %s, %m : f32
      %e = math.exp %d : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %tv : i64
      %zero = arith.constant 0.0 : f32
      %picked = arith.select %hit, %v, %zero : f32
      %ew = arith.mulf %e, %wv : f32
      %we = arith.mulf %wv, %e : f32
      credit.yield %e, %picked, %ew, %we : f32, f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %wv: f32, %tv: i64, %m: f32, %s: f32, %p: f32, %a: f32, %b: f32) {
      %q = arith.addf %a, %b : f32
      credit.yield %q : f32
    }
  return %r : tensor<?x1024xbf16>
}

// -----

// Three stages: the first two merge; the third, which divides by the sum,
// stays a stage of its own, and its arguments keep their order.
// CHECK-LABEL: func.func @three_stages
// CHECK: reduce [max, addexp] (%j: index, %in0: f32, %in1: f32) {
// CHECK: reduce [add] (%j: index, %in0: f32, %in1: f32, %red0: f32, %red1: f32) {
// CHECK: epilogue (%j: index, %in0: f32, %in1: f32, %red0: f32, %red1: f32, %red2: f32) {
func.func @three_stages(%l: tensor<?x1024xf32>, %dy: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%l, %dy : tensor<?x1024xf32>, tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32, %g: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %g: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    reduce [add] (%j: index, %v: f32, %g: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      %pg = arith.mulf %p, %g : f32
      credit.yield %pg : f32
    }
    epilogue (%j: index, %v: f32, %g: f32, %m: f32, %s: f32, %dot: f32) {
      credit.yield %dot : f32
    }
  return %r : tensor<?x1024xf32>
}

// -----

// Left alone: the exponent is not what the max reduces (|v| against v).
// CHECK-LABEL: func.func @other_exponent
// CHECK: reduce [max] (
// CHECK: reduce [add] (
func.func @other_exponent(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) {
      %a = math.absf %v : f32
      credit.yield %a : f32
    }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1024xf32>
}

// -----

// Left alone: the maximum is used other than in exp(v - m) (a shifted sum),
// or the later stage reduces a maximum of values that use it.
// CHECK-LABEL: func.func @other_use
// CHECK: reduce [max] (
// CHECK: reduce [add, add] (
// CHECK-LABEL: func.func @max_of_shifted
// CHECK: reduce [max] (
// CHECK: reduce [max] (
func.func @other_use(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add, add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e, %d : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32, %t: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1024xf32>
}
func.func @max_of_shifted(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [max] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1024xf32>
}

// -----

// Left alone: no max in the earlier stage; a max of the later stage comes
// before the sum (it would pair with that one); fast-math flags on the exp.
// CHECK-LABEL: func.func @no_max
// CHECK: reduce [min] (
// CHECK: reduce [add] (
// CHECK-LABEL: func.func @own_max_first
// CHECK: reduce [max] (
// CHECK: reduce [max, add] (
// CHECK-LABEL: func.func @fast_exp
// CHECK: reduce [max] (
// CHECK: reduce [add] (
func.func @no_max(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [min] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1024xf32>
}
func.func @own_max_first(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [max, add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %v, %e : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %m2: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1024xf32>
}
func.func @fast_exp(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1024xf32>) outs(%o : tensor<?x1024xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d fastmath<afn> : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1024xf32>
}
