// rmsnorm_bwd: the backward pass of y = x * rstd * w with the forward's saved
// rstd = rsqrt(mean(x^2) + eps):
//   xhat = x * rstd, dyw = dy * w
//   dx = rstd * (dyw - xhat * mean(dyw * xhat))
//   dw_partial[p, :] = sum over the rows of block p of dy * xhat, for
//   P = ${P} blocks of ceil(M / P) consecutive rows
// (torch: dx, dw = torch.autograd.grad(F.rms_norm(x, (N,), w, eps), (x, w), dy);
// dw = dw_partial.sum(0)).
func.func @rmsnorm_bwd(%x: tensor<?x${N}x${T}>, %dy: tensor<?x${N}x${T}>, %w: tensor<${N}x${T}>,
                       %rstd: tensor<?xf32>, %dx0: tensor<?x${N}x${T}>, %dw0: tensor<${P}x${N}xf32>)
    -> (tensor<?x${N}x${T}>, tensor<${P}x${N}xf32>) {
  %dx, %dw = credit.rowwise "rmsnorm_bwd" ins(%x, %dy : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
      bcast(%w : tensor<${N}x${T}>) scalars(%rstd : tensor<?xf32>)
      outs(%dx0 : tensor<?x${N}x${T}>) colsum_outs(%dw0 : tensor<${P}x${N}xf32>)
    reduce [add] (%j: index, %xv: f32, %dyv: f32, %wv: f32, %r: f32) {
      %xhat = arith.mulf %xv, %r : f32
      %dyw = arith.mulf %dyv, %wv : f32
      %p = arith.mulf %dyw, %xhat : f32
      credit.yield %p : f32
    }
    epilogue (%j: index, %xv: f32, %dyv: f32, %wv: f32, %r: f32, %dot: f32) {
      %n = arith.constant ${NF} : f32
      %c = arith.divf %dot, %n : f32
      %xhat = arith.mulf %xv, %r : f32
      %dyw = arith.mulf %dyv, %wv : f32
      %t = arith.mulf %xhat, %c : f32
      %u = arith.subf %dyw, %t : f32
      %dxv = arith.mulf %u, %r : f32
      %dwv = arith.mulf %dyv, %xhat : f32
      credit.yield %dxv, %dwv : f32, f32
    }
  return %dx, %dw : tensor<?x${N}x${T}>, tensor<${P}x${N}xf32>
}
