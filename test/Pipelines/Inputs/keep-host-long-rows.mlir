// Few long rows, for which the cost model would split rows over clusters.
func.func @long(%x: tensor<?x1048576xbf16>, %o: tensor<?x1048576xbf16>) -> tensor<?x1048576xbf16> {
  %r = credit.rowwise ins(%x : tensor<?x1048576xbf16>) outs(%o : tensor<?x1048576xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x1048576xbf16>
}
