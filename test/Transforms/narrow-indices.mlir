// RUN: credit-opt %s --split-input-file --credit-narrow-indices | FileCheck %s

// Cross-entropy's one-hot: the label (a scalar) is clamped into [-1, N] and
// truncated once; the column compares as i32, in both the stage and the
// epilogue. The compare of the label with -100 is not a column compare.
// CHECK-LABEL: func.func @one_hot
// CHECK: reduce [max] (%j: index, %in0: f32, %sc0: i64) {
// CHECK-NEXT: credit.yield %in0
// CHECK: reduce [add] (%j: index, %in0: f32, %sc0: i64, %red0: f32) {
// CHECK-NOT: arith.index_cast %j : index to i64
// CHECK-NEXT: %[[J:.*]] = arith.index_castui %j : index to i32
// CHECK-NEXT: %[[MINUS1:.*]] = arith.constant -1 : i64
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %sc0, %[[MINUS1]] : i64
// CHECK-NEXT: %[[N:.*]] = arith.constant 1000 : i64
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[LO]], %[[N]] : i64
// CHECK: %[[T:.*]] = arith.trunci %[[HI]] : i64 to i32
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[J]], %[[T]] : i32
// CHECK: arith.select %[[HIT]], %in0
// CHECK: epilogue
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi eq, %sc0, %{{.*}} : i64
func.func @one_hot(%x: tensor<?x1000xf32>, %t: tensor<?xi64>, %o: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1000xf32>) scalars(%t : tensor<?xi64>)
      outs(%o : tensor<?x1000xf32>)
    reduce [max] (%j: index, %v: f32, %tv: i64) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %tv: i64, %m: f32) {
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %tv : i64
      %zero = arith.constant 0.0 : f32
      %picked = arith.select %hit, %v, %zero : f32
      credit.yield %picked : f32
    }
    epilogue (%j: index, %v: f32, %tv: i64, %m: f32, %p: f32) {
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %tv : i64
      %ignore = arith.constant -100 : i64
      %ignored = arith.cmpi eq, %tv, %ignore : i64
      %both = arith.ori %hit, %ignored : i1
      %zero = arith.constant 0.0 : f32
      %r = arith.select %both, %zero, %v : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x1000xf32>
}

// -----

// The column on the right, unsigned casts and predicates, an index compare
// with a per-row value computed in the region, and a constant bound (folded
// to its clamped i32 value).
// CHECK-LABEL: func.func @forms
// CHECK: epilogue
// CHECK-NEXT: %[[J:.*]] = arith.index_castui %j : index to i32
// CHECK: arith.cmpi ult, %{{.*}}, %[[J]] : i32
// CHECK: arith.index_cast %{{.*}} : index to i32
// CHECK: arith.cmpi slt, %[[J]], %{{.*}} : i32
// CHECK-NEXT: %[[C4096:.*]] = arith.constant 4096 : i32
// CHECK-NEXT: arith.cmpi sle, %[[J]], %[[C4096]] : i32
// CHECK-NOT: : i64
// CHECK-NOT: arith.cmpi {{.*}} : index
// CHECK: credit.yield
func.func @forms(%x: tensor<?x4096xf32>, %t: tensor<?xi64>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) scalars(%t : tensor<?xi64>)
      outs(%o : tensor<?x4096xf32>)
    reduce [add] (%j: index, %v: f32, %tv: i64) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %tv: i64, %s: f32) {
      %ju = arith.index_castui %j : index to i64
      %a = arith.cmpi ult, %tv, %ju : i64
      %k = arith.fptosi %s : f32 to i64
      %ki = arith.index_cast %k : i64 to index
      %b = arith.cmpi slt, %j, %ki : index
      %c5000 = arith.constant 5000 : i64
      %c = arith.cmpi sle, %ju, %c5000 : i64
      %ab = arith.andi %a, %b : i1
      %abc = arith.andi %ab, %c : i1
      %zero = arith.constant 0.0 : f32
      %r = arith.select %abc, %v, %zero : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// Left alone: a compare with a value that varies along the row, a column
// already cast to i32, and a compare nested in an scf.if.
// CHECK-LABEL: func.func @negative
// CHECK: %[[JI:.*]] = arith.index_cast %j : index to i64
// CHECK: %[[VI:.*]] = arith.fptosi %in0 : f32 to i64
// CHECK: arith.cmpi eq, %[[JI]], %[[VI]] : i64
// CHECK: %[[J32:.*]] = arith.index_cast %j : index to i32
// CHECK: arith.cmpi eq, %[[J32]], %{{.*}} : i32
// CHECK: scf.if
// CHECK: arith.cmpi slt, %[[JI]], %sc0 : i64
// CHECK-NOT: arith.index_castui
func.func @negative(%x: tensor<?x1000xf32>, %t: tensor<?xi64>, %u: tensor<?xi32>, %o: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %r = credit.rowwise ins(%x : tensor<?x1000xf32>) scalars(%t, %u : tensor<?xi64>, tensor<?xi32>)
      outs(%o : tensor<?x1000xf32>)
    reduce [add] (%j: index, %v: f32, %tv: i64, %uv: i32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %tv: i64, %uv: i32, %s: f32) {
      %ji = arith.index_cast %j : index to i64
      %vi = arith.fptosi %v : f32 to i64
      %a = arith.cmpi eq, %ji, %vi : i64
      %j32 = arith.index_cast %j : index to i32
      %b = arith.cmpi eq, %j32, %uv : i32
      %ab = arith.andi %a, %b : i1
      %r = scf.if %ab -> (f32) {
        %c = arith.cmpi slt, %ji, %tv : i64
        %y = arith.select %c, %v, %s : f32
        scf.yield %y : f32
      } else {
        scf.yield %s : f32
      }
      credit.yield %r : f32
    }
  return %r : tensor<?x1000xf32>
}
