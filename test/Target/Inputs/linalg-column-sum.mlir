// A sum over dimension 0 (column sums): credit-raise-linalg leaves it alone.
// The error points at the reduction, not at the fill before it or at the
// linalg.yield in either body.
func.func @column_sum(%x: tensor<8x512xf32>) -> tensor<512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %s = linalg.reduce ins(%x : tensor<8x512xf32>) outs(%f : tensor<512xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  return %s : tensor<512xf32>
}
