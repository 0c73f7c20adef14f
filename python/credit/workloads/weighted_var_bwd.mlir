// weighted_var_bwd (the paper's workload 2):
//   sw = sum(w), isw = 1 / (sw + 1e-5), mean = sum(w * x) * isw, d = x - mean,
//   var = sum(w * d * d) * isw, rstd = rsqrt(var + 1e-5)
//   dx = rstd * (dy - w * isw * sum(dy) - w * d * rstd^2 * isw * sum(dy * d))
// torch: sw = w.sum(-1, True); isw = 1 / (sw + 1e-5); mean = (w * x).sum(-1, True) * isw
//        d = x - mean; rstd = torch.rsqrt((w * d * d).sum(-1, True) * isw + 1e-5)
//        dx = rstd * (dy - w * isw * dy.sum(-1, True) - w * d * rstd**2 * isw * (dy * d).sum(-1, True))
func.func @weighted_var_bwd(%x: tensor<?x${N}x${T}>, %w: tensor<?x${N}x${T}>, %dy: tensor<?x${N}x${T}>,
                            %dx0: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %dx = credit.rowwise "weighted_var_bwd"
      ins(%x, %w, %dy : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
      outs(%dx0 : tensor<?x${N}x${T}>)
    reduce [add, add] (%j: index, %xv: f32, %wv: f32, %dyv: f32) {
      %wx = arith.mulf %wv, %xv : f32
      credit.yield %wv, %wx : f32, f32
    }
    reduce [add, add, add] (%j: index, %xv: f32, %wv: f32, %dyv: f32, %sw: f32, %swx: f32) {
      %eps = arith.constant 1.0e-05 : f32
      %swe = arith.addf %sw, %eps : f32
      %mean = arith.divf %swx, %swe : f32
      %d = arith.subf %xv, %mean : f32
      %wd = arith.mulf %wv, %d : f32
      %wdd = arith.mulf %wd, %d : f32
      %dyd = arith.mulf %dyv, %d : f32
      credit.yield %wdd, %dyv, %dyd : f32, f32, f32
    }
    epilogue (%j: index, %xv: f32, %wv: f32, %dyv: f32, %sw: f32, %swx: f32,
              %swdd: f32, %sdy: f32, %sdyd: f32) {
      %one = arith.constant 1.0 : f32
      %eps = arith.constant 1.0e-05 : f32
      %swe = arith.addf %sw, %eps : f32
      %isw = arith.divf %one, %swe : f32
      %mean = arith.mulf %swx, %isw : f32
      %d = arith.subf %xv, %mean : f32
      %var = arith.mulf %swdd, %isw : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      %wi = arith.mulf %wv, %isw : f32
      %t1 = arith.mulf %wi, %sdy : f32
      %r2 = arith.mulf %rstd, %rstd : f32
      %wd = arith.mulf %wi, %d : f32
      %t2a = arith.mulf %wd, %r2 : f32
      %t2 = arith.mulf %t2a, %sdyd : f32
      %u0 = arith.subf %dyv, %t1 : f32
      %u1 = arith.subf %u0, %t2 : f32
      %r = arith.mulf %rstd, %u1 : f32
      credit.yield %r : f32
    }
  return %dx : tensor<?x${N}x${T}>
}
