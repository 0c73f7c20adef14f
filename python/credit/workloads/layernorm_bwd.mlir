// layernorm_bwd (the paper's workload 1): with mean, rstd = rsqrt(var + 1e-5)
// recomputed from x, xhat = (x - mean) * rstd and dyg = dy * gamma,
//   dx = (dyg - mean(dyg) - xhat * mean(dyg * xhat)) * rstd
// (torch: torch.autograd.grad(F.layer_norm(x, (N,), gamma, None, 1e-5), x, dy)).
func.func @layernorm_bwd(%x: tensor<?x${N}x${T}>, %dy: tensor<?x${N}x${T}>, %gamma: tensor<${N}x${T}>,
                         %dx0: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %dx = credit.rowwise "layernorm_bwd" ins(%x, %dy : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
      bcast(%gamma : tensor<${N}x${T}>) outs(%dx0 : tensor<?x${N}x${T}>)
    reduce [add] (%j: index, %xv: f32, %dyv: f32, %g: f32) {
      credit.yield %xv : f32
    }
    reduce [add] (%j: index, %xv: f32, %dyv: f32, %g: f32, %sum: f32) {
      %n = arith.constant ${NF} : f32
      %mean = arith.divf %sum, %n : f32
      %d = arith.subf %xv, %mean : f32
      %d2 = arith.mulf %d, %d : f32
      credit.yield %d2 : f32
    }
    reduce [add, add] (%j: index, %xv: f32, %dyv: f32, %g: f32, %sum: f32, %sq: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant ${EPS} : f32
      %mean = arith.divf %sum, %n : f32
      %var = arith.divf %sq, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      %d = arith.subf %xv, %mean : f32
      %xhat = arith.mulf %d, %rstd : f32
      %dyg = arith.mulf %dyv, %g : f32
      %p = arith.mulf %dyg, %xhat : f32
      credit.yield %dyg, %p : f32, f32
    }
    epilogue (%j: index, %xv: f32, %dyv: f32, %g: f32, %sum: f32, %sq: f32, %sdyg: f32, %sdygx: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant ${EPS} : f32
      %mean = arith.divf %sum, %n : f32
      %var = arith.divf %sq, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      %d = arith.subf %xv, %mean : f32
      %xhat = arith.mulf %d, %rstd : f32
      %dyg = arith.mulf %dyv, %g : f32
      %a = arith.divf %sdyg, %n : f32
      %b = arith.divf %sdygx, %n : f32
      %t0 = arith.subf %dyg, %a : f32
      %t1 = arith.mulf %xhat, %b : f32
      %t2 = arith.subf %t0, %t1 : f32
      %r = arith.mulf %t2, %rstd : f32
      credit.yield %r : f32
    }
  return %dx : tensor<?x${N}x${T}>
}
