// pearson_bwd (the paper's workload 3), two row outputs: with xc, yc the
// centred rows, vx = sum(xc^2), vy = sum(yc^2), c = sum(xc * yc),
// ix = rsqrt(vx + 1e-6), iy = rsqrt(vy + 1e-6) and g the per-row upstream
// gradient,
//   dx = g * (yc * ix * iy - xc * c * ix^3 * iy)
//   dy = g * (xc * ix * iy - yc * c * ix * iy^3)
// torch: xc = x - x.mean(-1, True); yc = y - y.mean(-1, True)
//        ix = torch.rsqrt((xc * xc).sum(-1, True) + 1e-6); iy = torch.rsqrt((yc * yc).sum(-1, True) + 1e-6)
//        c = (xc * yc).sum(-1, True); g = g.view(-1, 1)
//        dx = g * (yc * ix * iy - xc * c * ix**3 * iy); dy = g * (xc * ix * iy - yc * c * ix * iy**3)
func.func @pearson_bwd(%x: tensor<?x${N}x${T}>, %y: tensor<?x${N}x${T}>, %g: tensor<?xf32>,
                       %dx0: tensor<?x${N}x${T}>, %dy0: tensor<?x${N}x${T}>)
    -> (tensor<?x${N}x${T}>, tensor<?x${N}x${T}>) {
  %dx, %dy = credit.rowwise "pearson_bwd" ins(%x, %y : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
      scalars(%g : tensor<?xf32>)
      outs(%dx0, %dy0 : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
    reduce [add, add] (%j: index, %xv: f32, %yv: f32, %gv: f32) {
      credit.yield %xv, %yv : f32, f32
    }
    reduce [add, add, add] (%j: index, %xv: f32, %yv: f32, %gv: f32, %sx: f32, %sy: f32) {
      %n = arith.constant ${NF} : f32
      %mx = arith.divf %sx, %n : f32
      %my = arith.divf %sy, %n : f32
      %xc = arith.subf %xv, %mx : f32
      %yc = arith.subf %yv, %my : f32
      %xx = arith.mulf %xc, %xc : f32
      %yy = arith.mulf %yc, %yc : f32
      %xy = arith.mulf %xc, %yc : f32
      credit.yield %xx, %yy, %xy : f32, f32, f32
    }
    epilogue (%j: index, %xv: f32, %yv: f32, %gv: f32, %sx: f32, %sy: f32,
              %vx: f32, %vy: f32, %c: f32) {
      %n = arith.constant ${NF} : f32
      %eps = arith.constant 1.0e-06 : f32
      %mx = arith.divf %sx, %n : f32
      %my = arith.divf %sy, %n : f32
      %xc = arith.subf %xv, %mx : f32
      %yc = arith.subf %yv, %my : f32
      %vxe = arith.addf %vx, %eps : f32
      %vye = arith.addf %vy, %eps : f32
      %ix = math.rsqrt %vxe : f32
      %iy = math.rsqrt %vye : f32
      %ixy = arith.mulf %ix, %iy : f32
      %ix2 = arith.mulf %ix, %ix : f32
      %iy2 = arith.mulf %iy, %iy : f32
      %cixy = arith.mulf %c, %ixy : f32
      // dx = g * (yc * ixy - xc * c * ixy * ix^2)
      %a0 = arith.mulf %yc, %ixy : f32
      %a1 = arith.mulf %cixy, %ix2 : f32
      %a2 = arith.mulf %xc, %a1 : f32
      %a3 = arith.subf %a0, %a2 : f32
      %dxv = arith.mulf %gv, %a3 : f32
      // dy = g * (xc * ixy - yc * c * ixy * iy^2)
      %b0 = arith.mulf %xc, %ixy : f32
      %b1 = arith.mulf %cixy, %iy2 : f32
      %b2 = arith.mulf %yc, %b1 : f32
      %b3 = arith.subf %b0, %b2 : f32
      %dyv = arith.mulf %gv, %b3 : f32
      credit.yield %dxv, %dyv : f32, f32
    }
  return %dx, %dy : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>
}
