// A chunk past the row's end is masked without a predicate per chunk: at
// N = 57520 over 8 CTAs of 256 threads with 32 f32 each (slices of 8192),
// every one of a thread's 8 chunks may lie past the end in the last CTA.
// As branches around the loads and selects on the chunks' conditions, the
// 8 conditions became predicate registers live across the row loop (a
// thread has 7), and ptxas issued the row's loads one memory round trip
// after another (1.8x slower on an H100 and an H200). The row's loads are
// unconditional (a masked chunk reads the first vector) and the masks are
// bitwise, on a value from inline assembly.
// With at most five masked chunks (KernelPlan::integerMasks), loads stay
// branched and reductions select: 512 threads with 16 f32 each leave four
// chunks that may lie past the end, and the masks would cost more than the
// predicates.
// RUN: rm -rf %t && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t})' -o /dev/null
// RUN: FileCheck %s < %t/masked_f32_n57520_c8t256e32.ptx
// RUN: FileCheck %s --check-prefix=BRANCHED < %t/branched_f32_n57520_c8t512e16.ptx
// RUN: FileCheck %s --check-prefix=PLAN8 < %t/masked_f32_n57520_c8t256e32.json
// RUN: FileCheck %s --check-prefix=PLAN4 < %t/branched_f32_n57520_c8t512e16.json

// CHECK: .visible .entry masked_f32_n57520_c8t256e32(
// The masks, made once.
// CHECK: neg.s32
// The row loop's eight chunks: no branch and no predicated select from the
// first load to the last.
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK-NOT: bra
// CHECK-NOT: selp.f32
// CHECK: ld.global.v4.b32
// CHECK: and.b32
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @masked(%x: tensor<?x57520xf32>, %w: tensor<57520xf32>,
                  %y0: tensor<?x57520xf32>) -> tensor<?x57520xf32> {
  %y = credit.rowwise "masked" ins(%x : tensor<?x57520xf32>) bcast(%w : tensor<57520xf32>)
      outs(%y0 : tensor<?x57520xf32>)
      attributes {tiling = #credit.tiling<cluster = 8, threads = 256, vector = 4, elems = 32>}
    reduce [add] (%j: index, %v: f32, %wv: f32) {
      %sq = arith.mulf %v, %v : f32
      credit.yield %sq : f32
    }
    epilogue (%j: index, %v: f32, %wv: f32, %ss: f32) {
      %r = arith.mulf %v, %ss : f32
      %s = arith.mulf %r, %wv : f32
      credit.yield %s : f32
    }
  return %y : tensor<?x57520xf32>
}

// PLAN8: "integer_masks": true,
// PLAN8: "masked_chunks": 8,
// PLAN4: "integer_masks": false,
// PLAN4: "masked_chunks": 4,

// BRANCHED: .visible .entry branched_f32_n57520_c8t512e16(
// BRANCHED-NOT: neg.s32
// The row loop (after the weights, loaded once): each chunk's load is a
// block of its own, branched around.
// BRANCHED: bra.uni
// BRANCHED: ld.global.v4.b32
// BRANCHED-NEXT: $L__BB
// BRANCHED: ld.global.v4.b32
// BRANCHED-NEXT: $L__BB
// BRANCHED: selp.f32
// BRANCHED-NOT: neg.s32
// BRANCHED: ret;
func.func @branched(%x: tensor<?x57520xf32>, %w: tensor<57520xf32>,
                    %y0: tensor<?x57520xf32>) -> tensor<?x57520xf32> {
  %y = credit.rowwise "branched" ins(%x : tensor<?x57520xf32>) bcast(%w : tensor<57520xf32>)
      outs(%y0 : tensor<?x57520xf32>)
      attributes {tiling = #credit.tiling<cluster = 8, threads = 512, vector = 4, elems = 16>}
    reduce [add] (%j: index, %v: f32, %wv: f32) {
      %sq = arith.mulf %v, %v : f32
      credit.yield %sq : f32
    }
    epilogue (%j: index, %v: f32, %wv: f32, %ss: f32) {
      %r = arith.mulf %v, %ss : f32
      %s = arith.mulf %r, %wv : f32
      credit.yield %s : f32
    }
  return %y : tensor<?x57520xf32>
}
