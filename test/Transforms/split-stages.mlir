// RUN: credit-opt %s --split-input-file --credit-split-stages=part=partial --verify-diagnostics | FileCheck %s --check-prefix=PARTIAL
// RUN: credit-opt %s --split-input-file --credit-split-stages="part=combine shards=2" --verify-diagnostics | FileCheck %s --check-prefix=COMBINE
// RUN: credit-opt %s --split-input-file --credit-split-stages="part=combine shards=1" --verify-diagnostics | FileCheck %s --check-prefix=ONE
// The options are checked where they are parsed.
// RUN: not credit-opt %s --credit-split-stages=part=both 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not credit-opt %s --credit-split-stages="part=combine shards=65" 2>&1 | FileCheck %s --check-prefix=SHARDS
// RUN: not credit-opt %s --credit-split-stages="part=partial shards=2" 2>&1 | FileCheck %s --check-prefix=PSHARDS
// PART: error: credit-split-stages: part must be 'partial' or 'combine', got 'both'
// SHARDS: error: credit-split-stages: shards must be from 1 to 64, got 65
// PSHARDS: error: credit-split-stages: shards is an option of the combine part

// Online softmax, one stage: the partial part writes the stage's values
// and returns them; the combine part takes two shards' pairs and combines
// them (max first, each sum rescaled to the combined maximum) before the
// original epilogue.

// PARTIAL-LABEL: func.func @softmax
// PARTIAL-SAME: (%[[X:.*]]: tensor<?x64xf32>, %{{.*}}: tensor<?x64xf32>, %[[M:.*]]: tensor<?xf32>, %[[S:.*]]: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
// PARTIAL: %[[R:.*]]:2 = credit.rowwise "softmax_partial" ins(%[[X]] : tensor<?x64xf32>) scalar_outs(%[[M]], %[[S]] : tensor<?xf32>, tensor<?xf32>)
// PARTIAL-NEXT: reduce [max, addexp]
// PARTIAL: finalize (%[[A:.*]]: f32, %[[B:.*]]: f32) {
// PARTIAL-NEXT: credit.yield %[[A]], %[[B]] : f32, f32
// PARTIAL-NOT: epilogue
// PARTIAL: return %[[R]]#0, %[[R]]#1 : tensor<?xf32>, tensor<?xf32>

// COMBINE-LABEL: func.func @softmax
// COMBINE-SAME: (%[[X:.*]]: tensor<?x64xf32>, %[[O:.*]]: tensor<?x64xf32>, %[[M0:.*]]: tensor<?xf32>, %[[S0:.*]]: tensor<?xf32>, %[[M1:.*]]: tensor<?xf32>, %[[S1:.*]]: tensor<?xf32>) -> tensor<?x64xf32>
// COMBINE: %[[R:.*]] = credit.rowwise "softmax_combine" ins(%[[X]] : tensor<?x64xf32>) scalars(%[[M0]], %[[S0]], %[[M1]], %[[S1]] : {{.*}}) outs(%[[O]] : tensor<?x64xf32>)
// COMBINE-NOT: reduce
// COMBINE-NEXT: epilogue (%{{.*}}: index, %[[V:.*]]: f32, %[[A0:.*]]: f32, %[[B0:.*]]: f32, %[[A1:.*]]: f32, %[[B1:.*]]: f32) {
// COMBINE-NEXT: %[[MAX:.*]] = arith.maximumf %[[A0]], %[[A1]] : f32
// COMBINE: %[[EMPTY:.*]] = arith.cmpf oeq, %[[MAX]]
// COMBINE: %[[SHIFT:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[MAX]] : f32
// COMBINE: %[[D0:.*]] = arith.subf %[[A0]], %[[SHIFT]] : f32
// COMBINE: %[[E0:.*]] = math.exp %[[D0]] : f32
// COMBINE: %[[D1:.*]] = arith.subf %[[A1]], %[[SHIFT]] : f32
// COMBINE: %[[E1:.*]] = math.exp %[[D1]] : f32
// COMBINE: %[[T0:.*]] = arith.mulf %[[B0]], %[[E0]] : f32
// COMBINE: %[[T1:.*]] = arith.mulf %[[B1]], %[[E1]] : f32
// COMBINE: %[[SUM:.*]] = arith.addf %[[T0]], %[[T1]] : f32
// COMBINE: arith.subf %[[V]], %[[MAX]] : f32
// COMBINE: arith.divf %{{.*}}, %[[SUM]] : f32
// COMBINE: return %[[R]] : tensor<?x64xf32>

// With one shard the combination is the identity up to exp(0) = 1.
// ONE-LABEL: func.func @softmax
// ONE: credit.rowwise "softmax_combine" {{.*}} scalars(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xf32>)
func.func @softmax(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise "softmax" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x64xf32>
}

// -----

// Scalar inputs stay first, the partials follow them; a finalize region
// sees the combined values too; add entries combine by addition. Memrefs:
// the partial part writes into new destination arguments.

// PARTIAL-LABEL: func.func @picked
// PARTIAL-SAME: (%[[X:.*]]: memref<8x32xbf16>, %[[T:.*]]: memref<8xi64>, %{{.*}}: memref<8xf32>, %[[P0:.*]]: memref<8xf32>, %[[P1:.*]]: memref<8xf32>)
// PARTIAL-NOT: ->
// PARTIAL: credit.rowwise "picked_partial" ins(%[[X]] : memref<8x32xbf16>) scalars(%[[T]] : memref<8xi64>) scalar_outs(%[[P0]], %[[P1]] : memref<8xf32>, memref<8xf32>)
// PARTIAL: finalize (%{{.*}}: i64, %[[A:.*]]: f32, %[[B:.*]]: f32) {
// PARTIAL-NEXT: credit.yield %[[A]], %[[B]]

// COMBINE-LABEL: func.func @picked
// COMBINE: credit.rowwise "picked_combine" ins(%{{.*}} : memref<8x32xbf16>) scalars(%[[T:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<8xi64>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) scalar_outs
// COMBINE-NEXT: finalize (%{{.*}}: i64, %[[M0:.*]]: f32, %[[X0:.*]]: f32, %[[M1:.*]]: f32, %[[X1:.*]]: f32) {
// COMBINE-NEXT: %[[M:.*]] = arith.maximumf %[[M0]], %[[M1]] : f32
// COMBINE-NEXT: %[[X:.*]] = arith.addf %[[X0]], %[[X1]] : f32
// COMBINE-NEXT: %[[D:.*]] = arith.subf %[[M]], %[[X]] : f32
// COMBINE-NEXT: credit.yield %[[D]] : f32
func.func @picked(%x: memref<8x32xbf16>, %t: memref<8xi64>, %l: memref<8xf32>) {
  credit.rowwise "picked" ins(%x : memref<8x32xbf16>) scalars(%t : memref<8xi64>) scalar_outs(%l : memref<8xf32>)
    reduce [max, add] (%j: index, %v: f32, %ti: i64) {
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %ti : i64
      %zero = arith.constant 0.0 : f32
      %p = arith.select %hit, %v, %zero : f32
      credit.yield %v, %p : f32, f32
    }
    finalize (%ti: i64, %m: f32, %xt: f32) {
      %d = arith.subf %m, %xt : f32
      credit.yield %d : f32
    }
  return
}

// -----

// Two stages: the second needs the first's row-wide result before it can
// start, so a shard cannot reduce alone.
func.func @two_stages(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{credit-split-stages: a row split across shards must have exactly one reduction stage (the shards' partials meet once), this op has 2}}
  %r = credit.rowwise "layernorm" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %s: f32) {
      %d = arith.subf %v, %s : f32
      credit.yield %d : f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %q: f32) { credit.yield %q : f32 }
  return %r : tensor<?x64xf32>
}

// -----

// The partials become arguments of the function, visible in all of its
// blocks; an op in another kind of function cannot get them.
// COMBINE-LABEL: func.func @later_block
// COMBINE-SAME: %{{.*}}: tensor<?xf32>, %{{.*}}: tensor<?xf32>)
// COMBINE: ^bb1:
// COMBINE-NEXT: credit.rowwise "rowwise_combine"
func.func @later_block(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  cf.br ^next
^next:
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

shape.func @not_func(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{credit-split-stages: the op must be inside a func.func}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  shape.return %r : tensor<?x64xf32>
}
