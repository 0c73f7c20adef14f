// RUN: credit-opt %s --credit-split-stages=part=partial --verify-diagnostics
// RUN: credit-opt %s --credit-split-stages="part=combine shards=2" | FileCheck %s --check-prefix=COMBINE

// The partial part does not compute the op's results: a use other than
// the return is an error (the combine part replaces them one for one).
// COMBINE-LABEL: func.func @used
// COMBINE: %[[R:.*]] = credit.rowwise "rowwise_combine"
// COMBINE: %[[C:.*]] = tensor.cast %[[R]]
// COMBINE: return %[[C]]
func.func @used(%x: tensor<4x64xf32>, %o: tensor<4x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{credit-split-stages: the partial part does not compute the op's results, so they may only be returned; one is used by 'tensor.cast'}}
  %r = credit.rowwise ins(%x : tensor<4x64xf32>) outs(%o : tensor<4x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  %c = tensor.cast %r : tensor<4x64xf32> to tensor<?x64xf32>
  return %c : tensor<?x64xf32>
}
