// lars_momentum (the paper's workload 5), two row outputs:
//   u = 0.9 * m + grad + 0.01 * w
//   trust = 0.02 * ||w|| / (||u|| + 1e-6)
//   w' = w - 1e-3 * trust * u;  outputs w', u
// torch: u = 0.9 * m + grad + 0.01 * w
//        trust = 0.02 * w.norm(dim=-1, keepdim=True) / (u.norm(dim=-1, keepdim=True) + 1e-6)
//        w_new = w - 1e-3 * trust * u
func.func @lars_momentum(%w: tensor<?x${N}x${T}>, %grad: tensor<?x${N}x${T}>, %m: tensor<?x${N}x${T}>,
                         %w0: tensor<?x${N}x${T}>, %u0: tensor<?x${N}x${T}>)
    -> (tensor<?x${N}x${T}>, tensor<?x${N}x${T}>) {
  %wn, %u = credit.rowwise "lars_momentum"
      ins(%w, %grad, %m : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
      outs(%w0, %u0 : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
    reduce [add, add] (%j: index, %wv: f32, %gv: f32, %mv: f32) {
      %mom = arith.constant 0.9 : f32
      %wd = arith.constant 0.01 : f32
      %a = arith.mulf %mom, %mv : f32
      %b = arith.addf %a, %gv : f32
      %c = arith.mulf %wd, %wv : f32
      %uv = arith.addf %b, %c : f32
      %ww = arith.mulf %wv, %wv : f32
      %uu = arith.mulf %uv, %uv : f32
      credit.yield %ww, %uu : f32, f32
    }
    epilogue (%j: index, %wv: f32, %gv: f32, %mv: f32, %sww: f32, %suu: f32) {
      %mom = arith.constant 0.9 : f32
      %wd = arith.constant 0.01 : f32
      %eta = arith.constant 0.02 : f32
      %eps = arith.constant 1.0e-06 : f32
      %lr = arith.constant 1.0e-03 : f32
      %a = arith.mulf %mom, %mv : f32
      %b = arith.addf %a, %gv : f32
      %c = arith.mulf %wd, %wv : f32
      %uv = arith.addf %b, %c : f32
      %wnorm = math.sqrt %sww : f32
      %unorm = math.sqrt %suu : f32
      %den = arith.addf %unorm, %eps : f32
      %num = arith.mulf %eta, %wnorm : f32
      %trust = arith.divf %num, %den : f32
      %step0 = arith.mulf %lr, %trust : f32
      %step = arith.mulf %step0, %uv : f32
      %wnew = arith.subf %wv, %step : f32
      credit.yield %wnew, %uv : f32, f32
    }
  return %wn, %u : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>
}
