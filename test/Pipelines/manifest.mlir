// The manifest and the PTX of one kernel, end to end.
// The op's tiling is given, so the kernel is known.
// RUN: rm -rf %t && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t})' | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=JSON < %t/rmsnorm_bf16_n4096_c2t256e8.json
// RUN: FileCheck %s --check-prefix=PTX < %t/rmsnorm_bf16_n4096_c2t256e8.ptx
// RUN: FileCheck %s --check-prefix=INDEX < %t/kernels.json
// RUN: rm -rf %t.switch && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t.switch profile=%S/../Transforms/Inputs/row-group-profile.json})' -o /dev/null
// RUN: FileCheck %s --check-prefix=SWITCH < %t.switch/rmsnorm_bf16_n4096_c2t256e8.json
// RUN: rm -rf %t.wave && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t.wave profile=%S/../Transforms/Inputs/profile.json})' -o /dev/null
// RUN: FileCheck %s --check-prefix=WAVE < %t.wave/rmsnorm_bf16_n4096_c2t256e8.json
// Compiling a second kernel into the same directory keeps the first listed.
// RUN: credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{cluster-size=4 artifacts-dir=%t})' -o /dev/null
// RUN: FileCheck %s --check-prefix=INDEX2 < %t/kernels.json

// IR: gpu.binary @rmsnorm_bf16_n4096_c2t256e8 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">, {{.*}}assembly = "
// IR-NOT: func.func

// Keys come sorted.
// JSON: "block": [
// JSON-NEXT: 256,
// JSON: "broadcast_dtypes": [
// JSON-NEXT: "bf16"
// JSON: "chip": "sm_90",
// JSON: "cluster": [
// JSON-NEXT: 2,
// The kernel waits for the grid before it: the runtime may launch it with
// programmatic stream serialization.
// JSON: "dependent_launch": true,
// JSON: "dynamic_shared_memory": 0,
// JSON: "entry": "rmsnorm_bf16_n4096_c2t256e8",
// JSON: "grid": {
// JSON-NEXT: "clusters": "ceil(m / rows_per_cluster) * clusters_per_row",
// JSON-NEXT: "clusters_per_row": 1,
// JSON-NEXT: "ctas_per_cluster": 2,
// JSON-NEXT: "grid_x": "clusters * ctas_per_cluster",
// JSON-NEXT: "policy": "one_wave",
// The launch rule of the profile: the built-in H200 one switches a kernel
// of 2 or more CTAs per SM to a cluster per row group from 6 row groups
// per resident cluster, a test profile's from 2; without a rule, always
// one wave.
// JSON-NEXT: "row_group_launch_share": 6,
// JSON-NEXT: "rows_per_cluster": "rows_per_cta from row_group_launch_share
// JSON: "rows_per_cta": 1
// SWITCH: "row_group_launch_share": 2,
// SWITCH-NEXT: "rows_per_cluster": "rows_per_cta from row_group_launch_share
// WAVE: "row_group_launch_share": 0,
// WAVE-NEXT: "rows_per_cluster": "ceil(m / floor(active clusters / clusters_per_row)), a multiple of rows_per_cta",
// JSON: "input_dtypes": [
// JSON-NEXT: "bf16"
// JSON: "n": 4096,
// JSON: "params": [
// JSON: "name": "in0",
// JSON: "name": "in0_stride",
// JSON: "name": "bcast0",
// JSON: "name": "out0",
// JSON: "name": "out0_stride",
// JSON: "name": "scalar_out0",
// JSON: "name": "m",
// JSON: "name": "rows_per_cluster",
// The plan the kernel was built from.
// JSON: "plan": {
// JSON: "compulsory_bytes_per_row": 16388,
// JSON: "dsmem_bytes_per_row": 16,
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
// JSON: "exchange": "async",
// JSON: "workload": "rmsnorm"

// PTX: .version 8.1
// PTX: .target sm_90
// PTX: .entry rmsnorm_bf16_n4096_c2t256e8(
// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// The asynchronous exchange: mbarriers initialized before the start arrive,
// the start wait before the first push, st.async into the peer completing
// on its mbarrier, and a wait for this CTA's own bytes, without a cluster
// barrier per exchange.
// PTX: mbarrier.init.shared.b64
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.relaxed
// Programmatic dependent launch: the wait before the first global load.
// PTX: griddepcontrol.wait;
// PTX-NEXT: griddepcontrol.launch_dependents;
// PTX: ld.global.v4
// PTX: barrier.cluster.wait;
// PTX: mapa.shared::cluster
// PTX: st.async.shared::cluster.mbarrier::complete_tx::bytes.b32
// PTX: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{%rd[0-9]+}}], {{%r[0-9]+}};
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PTX-NOT: barrier.cluster.arrive;
// PTX: rsqrt.approx.ftz.f32
// PTX: st.global.v4

// INDEX: "kernels": [
// INDEX-NEXT: "rmsnorm_bf16_n4096_c2t256e8.json"
// INDEX-NEXT: ]
// INDEX2: "rmsnorm_bf16_n4096_c2t256e8.json",
// INDEX2-NEXT: "rmsnorm_bf16_n4096_c4t{{.*}}.json"

func.func @rmsnorm(%x: tensor<?x4096xbf16>, %w: tensor<4096xbf16>, %y0: tensor<?x4096xbf16>, %r0: tensor<?xf32>)
    -> (tensor<?x4096xbf16>, tensor<?xf32>) {
  %y, %rstd = credit.rowwise "rmsnorm" ins(%x : tensor<?x4096xbf16>) bcast(%w : tensor<4096xbf16>)
      outs(%y0 : tensor<?x4096xbf16>) scalar_outs(%r0 : tensor<?xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 8, elems = 8>}
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
