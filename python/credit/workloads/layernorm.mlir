// layernorm: y = F.layer_norm(x, (N,), gamma, beta, eps=1e-5), also returning
// the per-row mean and rstd = rsqrt(var + 1e-5) (biased variance) that the
// backward pass saves.
// torch: y = F.layer_norm(x, (N,), gamma, beta, 1e-5)
//        mean = x.float().mean(-1); rstd = torch.rsqrt(x.float().var(-1, unbiased=False) + 1e-5)
func.func @layernorm(%x: tensor<?x${N}x${T}>, %gamma: tensor<${N}x${T}>, %beta: tensor<${N}x${T}>,
                     %y0: tensor<?x${N}x${T}>, %mean0: tensor<?xf32>, %rstd0: tensor<?xf32>)
    -> (tensor<?x${N}x${T}>, tensor<?xf32>, tensor<?xf32>) {
  %y, %mean, %rstd = credit.rowwise "layernorm" ins(%x : tensor<?x${N}x${T}>)
      bcast(%gamma, %beta : tensor<${N}x${T}>, tensor<${N}x${T}>)
      outs(%y0 : tensor<?x${N}x${T}>) scalar_outs(%mean0, %rstd0 : tensor<?xf32>, tensor<?xf32>)
    reduce [add] (%j: index, %v: f32, %g: f32, %b: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %g: f32, %b: f32, %sum: f32) {
      %n = arith.constant ${NF} : f32
      %mean = arith.divf %sum, %n : f32
      %d = arith.subf %v, %mean : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    epilogue (%j: index, %v: f32, %g: f32, %b: f32, %sum: f32, %sq: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant ${EPS} : f32
      %mean = arith.divf %sum, %n : f32
      %var = arith.divf %sq, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      %d = arith.subf %v, %mean : f32
      %xhat = arith.mulf %d, %rstd : f32
      %s = arith.mulf %xhat, %g : f32
      %r = arith.addf %s, %b : f32
      credit.yield %r : f32
    }
    finalize (%sum: f32, %sq: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant ${EPS} : f32
      %mean = arith.divf %sum, %n : f32
      %var = arith.divf %sq, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      credit.yield %mean, %rstd : f32, f32
    }
  return %y, %mean, %rstd : tensor<?x${N}x${T}>, tensor<?xf32>, tensor<?xf32>
}
