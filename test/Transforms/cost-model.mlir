// RUN: credit-opt %s --split-input-file --verify-diagnostics --credit-cost-model=profile=%S/Inputs/profile.json | FileCheck %s
// RUN: credit-opt %s --split-input-file --credit-cost-model="profile=%S/Inputs/profile.json rows=16 remarks=false" | FileCheck %s --check-prefix=ROWS
// RUN: not credit-opt %s --credit-cost-model=profile=%t.missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not credit-opt %s --credit-cost-model=profile=%S/Inputs/truncated-profile.json 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not credit-opt %s --credit-cost-model=profile=%S/Inputs/bad-overlap-profile.json 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not credit-opt %s --credit-cost-model=profile=%S/Inputs/sm100-profile.json 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not credit-opt %s --credit-cost-model=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not credit-opt %s --credit-cost-model="profile=%S/Inputs/profile.json rows=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: credit-opt %s --split-input-file --credit-cost-model="remarks=false" | FileCheck %s --check-prefix=BUILTIN
// RUN: credit-opt %s --split-input-file --credit-cost-model="profile=%S/Inputs/profile.json remarks=false" | FileCheck %s --check-prefix=SPLITCTA
// RUN: credit-opt %s --split-input-file --credit-cost-model="profile=%S/Inputs/profile.json remarks=false" | FileCheck %s --check-prefix=FEWER

// Every candidate with its predicted time, fastest first, at the op's M;
// a remark names the choice, what bounds it, the runner-up and the best
// tiling of the other kind.

// Few long rows: several CTAs per row pay (a cluster, or rows split over
// clusters).
// CHECK-LABEL: func.func @long_rows
// CHECK: cost = #credit.cost<rows = 64, profitable = true, candidates = [#credit.tiling<{{[^>]*(cluster = (2|4|8|16)|splits = )[^>]*}}> = {{[0-9.e+]+}}, #credit.tiling<
// Split rows are not offered on CTAs of fewer than 128 threads (never
// the fastest in the evaluation, underestimated by the model).
// SPLITCTA-LABEL: func.func @long_rows
// SPLITCTA: cost = #credit.cost<rows = 64, profitable = true, candidates = [
// SPLITCTA-NOT: threads = {{(32|64)}},{{[^>]*}}splits =
// SPLITCTA: return
// A 16-bit slice that one sweep of 1024 threads covers is also offered in
// shared memory on CTAs of 512 and 256 threads that sweep it several times.
// FEWER-LABEL: func.func @long_rows
// FEWER: #credit.tiling<cluster = 16, threads = 256, vector = 8, elems = 16, staging = shared> =
// ROWS-LABEL: func.func @long_rows
// ROWS: cost = #credit.cost<rows = 64,
// BUILTIN: cost = #credit.cost<rows = 64,
// MISSING: error: credit-cost-model: cannot read profile '{{.*}}missing.json'
// TRUNCATED: error: credit-cost-model: profile '{{.*}}truncated-profile.json': not valid JSON
// OVERLAP: error: credit-cost-model: profile '{{.*}}bad-overlap-profile.json': 'overlap' must be at least 1, got 0.5
// CHIP: error: credit-cost-model: profile '{{.*}}sm100-profile.json' describes sm_100, but the target chip is sm_90
// SM80: error: credit-cost-model: unsupported chip 'sm_80'
// ZERO: error: credit-cost-model: rows must be at least 1, got 0
func.func @long_rows(%x: tensor<64x262144xbf16>, %o: tensor<64x262144xbf16>) -> tensor<64x262144xbf16> {
  // expected-remark @+1 {{credit-cost-model: at M = 64, fastest of}}
  %r = credit.rowwise ins(%x : tensor<64x262144xbf16>) outs(%o : tensor<64x262144xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<64x262144xbf16>
}

// -----

// Many short rows: one CTA per row is fastest and the remark says what the
// best cluster would cost.
// CHECK-LABEL: func.func @short_rows
// CHECK: cost = #credit.cost<rows = 32768, profitable = false, candidates = [#credit.tiling<cluster = 1,
func.func @short_rows(%x: tensor<32768x4096xbf16>, %o: tensor<32768x4096xbf16>) -> tensor<32768x4096xbf16> {
  // expected-remark-re @+1 {{credit-cost-model: at M = 32768, fastest of {{[0-9]+}} candidates: #credit.tiling<cluster = 1, {{.*}} us, bound by bandwidth {{.*}}; best with several CTAs #credit.tiling<{{.*}}% slower; sharing a row between CTAs does not pay}}
  %r = credit.rowwise ins(%x : tensor<32768x4096xbf16>) outs(%o : tensor<32768x4096xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<32768x4096xbf16>
}

// -----

// Not a 32-bit one (never more than 1% faster, and underestimated).
// FEWER-LABEL: func.func @long_rows_f32
// FEWER-NOT: #credit.tiling<cluster = 16, threads = {{256|512}}, vector = 4, elems = 16, staging = shared>
// FEWER: return
func.func @long_rows_f32(%x: tensor<64x262144xf32>, %o: tensor<64x262144xf32>) -> tensor<64x262144xf32> {
  // expected-remark @+1 {{credit-cost-model: at M = 64, fastest of}}
  %r = credit.rowwise ins(%x : tensor<64x262144xf32>) outs(%o : tensor<64x262144xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<64x262144xf32>
}

// -----

// A dynamic M is reported at `rows` (4096 unless given).
// CHECK-LABEL: func.func @dynamic
// CHECK: cost = #credit.cost<rows = 4096,
// ROWS-LABEL: func.func @dynamic
// ROWS: cost = #credit.cost<rows = 16,
func.func @dynamic(%x: tensor<?x8192xf32>, %o: tensor<?x8192xf32>) -> tensor<?x8192xf32> {
  // expected-remark @+1 {{credit-cost-model: at M = 4096}}
  %r = credit.rowwise ins(%x : tensor<?x8192xf32>) outs(%o : tensor<?x8192xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x8192xf32>
}
