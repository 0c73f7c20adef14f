

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
// LayerNorm with its mean and rstd returned: two stages (the variance is
// centred on the mean), both per-row values computed in finalize. M = N:
// the per-row [512] values and the [512] weights are told apart by how
// they are read.
// CHECK-LABEL: func.func @layernorm
// CHECK-SAME: (%[[X:.*]]: tensor<512x512xf32>, %[[G:.*]]: tensor<512xf32>, %[[B:.*]]: tensor<512xf32>)
// CHECK: %[[R:.*]]:3 = credit.rowwise "layernorm_0" ins(%[[X]] : tensor<512x512xf32>) bcast(%[[G]], %[[B]] : tensor<512xf32>, tensor<512xf32>) outs(%{{.*}} : tensor<512x512xf32>) scalar_outs(%{{.*}}, %{{.*}} : tensor<512xf32>, tensor<512xf32>)
// CHECK-NEXT: reduce [add]
// CHECK: reduce [add]
// CHECK: epilogue
// CHECK: finalize
// CHECK: math.rsqrt
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
// CHECK-NOT: linalg.
// LayerNorm (two passes: mean, then ceNtred variance); mean and rstd are
// returned too. M = N = 512 static: per-row [512] and the [512] weights
// are told apart by how they are read.
func.func @layernorm(%x: tensor<512x512xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>)
    -> (tensor<512x512xf32>, tensor<512xf32>, tensor<512xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x512xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<512xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%s : tensor<512xf32>) outs(%e1 : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  } -> tensor<512xf32>
  %e2 = tensor.empty() : tensor<512x512xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", 2147483648]}
      ins(%x, %mean : tensor<512x512xf32>, tensor<512xf32>) outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<512x512xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<512x512xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    %a = arith.addf %q, %out : f32
    linalg.yield %a : f32
  } -> tensor<512xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%ss : tensor<512xf32>) outs(%e1 : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %rstd, %g, %b : tensor<512x512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>)
      outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %r: f32, %gi: f32, %bi: f32, %out: f32):
    %t = arith.mulf %in, %r : f32
    %u = arith.mulf %t, %gi : f32
    %w = arith.addf %u, %bi : f32
    linalg.yield %w : f32
  } -> tensor<512x512xf32>
  return %y, %mean, %rstd : tensor<512x512xf32>, tensor<512xf32>, tensor<512xf32>
}

// Cross-entropy written as a chain: per-row loss and the gradient, the
// target picked with linalg.index.

