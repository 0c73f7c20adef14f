// How the model prices a cluster kernel's launch at many row groups per
// resident cluster: with the profile's rule (row-group-profile.json: from
// 2 row groups per resident cluster, at one CTA per SM or more) as a
// cluster per row group, without it (profile.json) as one persistent wave.
// RUN: credit-opt %s --credit-cost-model=profile=%S/Inputs/row-group-profile.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: credit-opt %s --credit-cost-model=profile=%S/Inputs/profile.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAVE
// RUN: not credit-opt %s --credit-cost-model=profile=%S/Inputs/bad-row-group-profile.json 2>&1 | FileCheck %s --check-prefix=BAD

// RULE: remark: credit-cost-model: at M = 512, fastest of {{[0-9]+}} candidates: #credit.tiling<cluster = 4, {{[^>]*}}>: {{[0-9.]+}} us, bound by bandwidth ({{[^;]*}}; {{[0-9]+}} waves of {{[0-9]+}} clusters, launched as a cluster per row group); runner-up
// WAVE: remark: credit-cost-model: at M = 512
// WAVE-NOT: launched as a cluster per row group
// BAD: error: credit-cost-model: profile '{{.*}}bad-row-group-profile.json': 'row_group_launch': missing 'min_ctas_per_sm'
func.func @many_long_rows(%x: tensor<512x32768xf32>, %o: tensor<512x32768xf32>) -> tensor<512x32768xf32> {
  %r = credit.rowwise ins(%x : tensor<512x32768xf32>) outs(%o : tensor<512x32768xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<512x32768xf32>
}
