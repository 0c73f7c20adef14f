// row_scale: y = x * s, one scale per row (the upstream gradient of a
// per-row loss applied to a gradient saved in the forward pass). No
// reduction stage: a row-wise map, one read and one write of the row.
func.func @row_scale(%x: tensor<?x${N}x${T}>, %s: tensor<?xf32>,
                     %y0: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %y = credit.rowwise "row_scale" ins(%x : tensor<?x${N}x${T}>)
      scalars(%s : tensor<?xf32>) outs(%y0 : tensor<?x${N}x${T}>)
    epilogue (%j: index, %v: f32, %c: f32) {
      %r = arith.mulf %v, %c : f32
      credit.yield %r : f32
    }
  return %y : tensor<?x${N}x${T}>
}
