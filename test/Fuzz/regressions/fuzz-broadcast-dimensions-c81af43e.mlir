

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
// Named ops, as StableHLO lowers: linalg.reduce, linalg.broadcast and
// elementwise linalg.sub/exp/div.
// CHECK-LABEL: func.func @named_softmax
// CHECK: credit.rowwise "named_softmax_0" ins(%{{.*}} : tensor<8x512xf32>) outs(%{{.*}} : tensor<8x512xf32>)
// CHlinalg.broadcast ins(%max : tensor<8xf32>) outs(%e2 : tensor<8x512xf32>) dimensions = [1]
  %sub = linalg.sub ins(%x, %bmax : tensor<8x512xf32>, tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %exp = linalg.exp ins(%sub : tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%exp : tensor<8x512xf32>) outs(%f0 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %bsum = linalg.broadcast ins(%sum : tensor<8xf32>) outs(%e2 : tensor<8x512xf32>) dimensions =s = [1]
  %sub = linalg.sub ins(%x, %bmax : tensor<8x512xf32>, tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %exp = linalg.exp ins(%sub : tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%exp : tensor<8x512xf32>) outs(%f0 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %bsum = linalg.broadcast ins(%sum : tensor<8xf32>) outs(%e2 : tensor<8x512xf32>) dimensions = [1]
  %div = linalg.div ins(%exp, %bsum : tensor<8x512xf32>, staging = rereadtensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %div : tensor<8x512xf32>
}

