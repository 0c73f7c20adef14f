// l2_normalize: y = F.normalize(x, p=2, dim=-1, eps=1e-12)
//             = x / max(||x||_2, 1e-12)
// torch: y = F.normalize(x, p=2.0, dim=-1, eps=1e-12)
func.func @l2_normalize(%x: tensor<?x${N}x${T}>, %init: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %y = credit.rowwise "l2_normalize" ins(%x : tensor<?x${N}x${T}>) outs(%init : tensor<?x${N}x${T}>)
    reduce [add] (%j: index, %v: f32) {
      %sq = arith.mulf %v, %v : f32
      credit.yield %sq : f32
    }
    epilogue (%j: index, %v: f32, %ss: f32) {
      %eps = arith.constant ${EPS} : f32
      %norm = math.sqrt %ss : f32
      %den = arith.maximumf %norm, %eps : f32
      %r = arith.divf %v, %den : f32
      credit.yield %r : f32
    }
  return %y : tensor<?x${N}x${T}>
}
