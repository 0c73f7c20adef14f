// Clusters that stack within GPCs: with a measured table that fits one
// cluster of each size at one CTA per SM (stacked-profile.json, where
// splitting rows over clusters is also made slow), one row fits and 8 rows
// of a cluster kernel put two CTAs on the busiest SM, which the remark says;
// the SMs as one pool (profile.json) fit 8 clusters at one CTA per SM.
// RUN: credit-opt %s --split-input-file --credit-cost-model=profile=%S/Inputs/stacked-profile.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=STACKED
// RUN: credit-opt %s --split-input-file --credit-cost-model=profile=%S/Inputs/profile.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=POOL

// STACKED: remark: credit-cost-model: at M = 1, fastest of {{[0-9]+}} candidates: #credit.tiling<cluster = {{(2|4|8|16)}},
// STACKED-NOT: stacked
// STACKED: remark: credit-cost-model: at M = 8, fastest of {{[0-9]+}} candidates: #credit.tiling<cluster = {{(2|4|8|16)}}, {{[^>]*}}>: {{[0-9.]+}} us, bound by {{[a-z]+}} ({{[^;]*}}; 1 wave of 8 clusters, stacked in GPCs to 2 CTAs on the busiest SM)
// POOL: remark: credit-cost-model: at M = 1
// POOL-NOT: stacked
func.func @one_long_row(%x: tensor<1x32768xf32>, %o: tensor<1x32768xf32>) -> tensor<1x32768xf32> {
  %r = credit.rowwise ins(%x : tensor<1x32768xf32>) outs(%o : tensor<1x32768xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<1x32768xf32>
}

// -----

func.func @few_long_rows(%x: tensor<8x32768xf32>, %o: tensor<8x32768xf32>) -> tensor<8x32768xf32> {
  %r = credit.rowwise ins(%x : tensor<8x32768xf32>) outs(%o : tensor<8x32768xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<8x32768xf32>
}
