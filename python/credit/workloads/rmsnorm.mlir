// rmsnorm: y = F.rms_norm(x, (N,), w, eps=1e-6), also returning
// rstd = rsqrt(mean(x^2) + 1e-6) for the backward pass.
// torch: y = F.rms_norm(x, (N,), w, 1e-6); rstd = torch.rsqrt(x.float().pow(2).mean(-1) + 1e-6)
func.func @rmsnorm(%x: tensor<?x${N}x${T}>, %w: tensor<${N}x${T}>,
                   %y0: tensor<?x${N}x${T}>, %rstd0: tensor<?xf32>)
    -> (tensor<?x${N}x${T}>, tensor<?xf32>) {
  %y, %rstd = credit.rowwise "rmsnorm" ins(%x : tensor<?x${N}x${T}>) bcast(%w : tensor<${N}x${T}>)
      outs(%y0 : tensor<?x${N}x${T}>) scalar_outs(%rstd0 : tensor<?xf32>)
    reduce [add] (%j: index, %v: f32, %wv: f32) {
      %sq = arith.mulf %v, %v : f32
      credit.yield %sq : f32
    }
    epilogue (%j: index, %v: f32, %wv: f32, %ss: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant ${EPS} : f32
      %ms = arith.divf %ss, %n : f32
      %mse = arith.addf %ms, %eps : f32
      %rstd = math.rsqrt %mse : f32
      %xn = arith.mulf %v, %rstd : f32
      %r = arith.mulf %xn, %wv : f32
      credit.yield %r : f32
    }
    finalize (%ss: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant ${EPS} : f32
      %ms = arith.divf %ss, %n : f32
      %mse = arith.addf %ms, %eps : f32
      %rstd = math.rsqrt %mse : f32
      credit.yield %rstd : f32
    }
  return %y, %rstd : tensor<?x${N}x${T}>, tensor<?xf32>
}
