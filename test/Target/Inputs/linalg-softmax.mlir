// A softmax as front ends write it, in linalg: not credit input.
func.func @softmax(%x: tensor<4x1024xf32>, %o: tensor<4x1024xf32>) -> tensor<4x1024xf32> {
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x1024xf32>) outs(%o : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  return %r : tensor<4x1024xf32>
}
