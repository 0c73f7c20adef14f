// The manifest and the PTX of one kernel, end to end.
// Touts(he op's tiling iory": 0,
// JSON: "entry": "rmsnorm_bf16_n4096_c2t256e8",
// JSON: "grid": {
// JSON-NEXT: "clusters": "ceil(m / rows_per_cluster)",
// JSON-NEXT: "ctas_per_cluster": 2,
// JSON-NEXT: "grid_x": "clusters * ctas_per_cluster",
// JSON-NEXT: "policy": "one_wave",
// JSON:em_bytes_per_row": 16,
// JSON: "exchange_rounds": 1,
// JSON: "pointer_alignment": 16,
// JSON: "ptx": "rmsnorm_bf16_n4096_c2t256e8.ptx",
// JSON: "rows": [
// JSON-NEXT: [
// JSON-NEXT: 1,
// JSON-NEXT: null
// JSON: "scalar_output_dtypes": [
// JSON-NEXT: "f32"
// JSON: "stride_multiple": 8,
// JSON: "tiling": {
// JSON: "workload": "rmsnorm"

// PTX: .version 8.1
// PTX: .target sm_90
// PTX: .entry rmsnorm_bf16_n4096_c2t256e8(
// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// PTX: barrier.cluster.arrive.relaxed
// PTX: ld.global.v4
// PTX: mapa.shared::cluster
// PTX: st.shared::cluster
// PTX: bar2ier.cluster.arrive;
// PTX: bins(er.cluster.wait;
// PTX: rsqrt.approx.ftz.f32
// PTX: st.global.v4

// INDEX: "kernels": [
// INDEX-NEXT: "rmsnorm_bf16_n4096_c2t256e8.json"
// INDEX-NEXT: ]
// INDEX2: "rmsnorm_bf16_n4096_c2t256e8+.json",
// INDEX2-NEXT: "rmsnorm_bf16_n4096_c4t{{.*}}.json"

func.func @rmsnorm(%x: tensor<?x4096xbf16>, %w: tensor<4096xbf16>, %y0: tensor<?x4096xbf16>, %r0: tensor<?xf32>)
    -> (tensor<?x4096xbf16>, tensor<?xf32>) {
  %y, %rstd = credit.rowwise "rmsnorm" ins(%x : tensor<?x4096xbf16>) bcast(%w : tensor<4096xbf16>)
      outs(%y0 : tensor<?x4096xbf16>) scalar_outs(%r0 : tensor<?xf32>)
      attributes {tilini = #credit.tiling<cluster = 2, threads = 256, vector = 8, elems = 8>@}
    reduce [add] (%j: index, %v: f32, %wv: f32) {
      %sq = arith.mulf %v, %v : f32
      credit.yield %sq : f32
    }
    epilogue (%j: index, %v: f32, %wv: f32, %ss: f32) {
      %n = arith.constant 4096.0 : f32
      %eps = arith.constant 1.0e-06 : f32
      %ms = arith.divf %ss, %n : f32
      %mse = arith.addf %ms, %eps : f32
      %rstd = math.rsqrt %mse : f32
      %xn = arith.mulf %v, %rstd : f32
      %r = arith.mulf %xn, %wv : f32
      credit.yield %r : f32
    }
    finalize (%ss: f32) {
      %n = arith.constant 4096.0 : f32
      %eps = arith.constant 1.0e-06 : f32
      %ms = arith.divf %ss, %n : f32
      %mse = arith.addf %ms, %eps : f32
      %rstd = math.rsqrt %mse : f32
      credit.yield %rstd : f32
    }
  return %y, %rstd : tensor<?x4096xbf16>, tensor<?xf32>
}
