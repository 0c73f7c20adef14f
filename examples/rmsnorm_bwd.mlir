// rmsnorm_bwd: the backward pass of y = x * rstd * w with the forward's saved
// rstd = rsqrt(mean(x^2) + eps):
//   xhat = x * rstd, dyw = dy * w
//   dx = rstd * (dyw - xhat * mean(dyw * xhat))
//   dw_partial[p, :] = sum over the rows of block p of dy * xhat, for
//   P = 64 blocks of ceil(M / P) consecutive rows
// (torch: dx, dw = torch.autograd.grad(F.rms_norm(x, (N,), w, eps), (x, w), dy);
// dw = dw_partial.sum(0)).
func.func @rmsnorm_bwd(%x: tensor<?x8192xbf16>, %dy: tensor<?x8192xbf16>, %w: tensor<8192xbf16>,
                       %rstd: tensor<?xf32>, %dx0: tensor<?x8192xbf16>, %dw0: tensor<64x8192xf32>)
    -> (tensor<?x8192xbf16>, tensor<64x8192xf32>) {
  %dx, %dw = credit.rowwise "rmsnorm_bwd" ins(%x, %dy : tensor<?x8192xbf16>, tensor<?x8192xbf16>)
      bcast(%w : tensor<8192xbf16>) scalars(%rstd : tensor<?xf32>)
      outs(%dx0 : tensor<?x8192xbf16>) colsum_outs(%dw0 : tensor<64x8192xf32>)
    reduce [add] (%j: index, %xv: f32, %dyv: f32, %wv: f32, %r: f32) {
      %xhat = arith.mulf %xv, %r : f32
      %dyw = arith.mulf %dyv, %wv : f32
      %p = arith.mulf %dyw, %xhat : f32
      credit.yield %p : f32
    }
    epilogue (%j: index, %xv: f32, %dyv: f32, %wv: f32, %r: f32, %dot: f32) {
      %n = arith.constant 8192.0 : f32
      %c = arith.divf %dot, %n : f32
      %xhat = arith.mulf %xv, %r : f32
      %dyw = arith.mulf %dyv, %wv : f32
      %t = arith.mulf %xhat, %c : f32
      %u = arith.subf %dyw, %t : f32
      %dxv = arith.mulf %u, %r : f32
      %dwv = arith.mulf %dyv, %xhat : f32
      credit.yield %dxv, %dwv : f32, f32
    }
  return %dx, %dw : tensor<?x8192xbf16>, tensor<64x8192xf32>
}
