// A bf16 output that selects a constant by a row value (cross_entropy's
// ignored rows): the kernel still converts pairs of results at once
// (cvt.rn.bf16x2.f32) and selects in f32, rather than converting and
// selecting element by element (cvt.rn.bf16.f32, selp.b16), which is what
// LLVM made of it while the constant was visible (see
// KernelEmitter::hideSelectedConstants).
// RUN: rm -rf %t && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t})' -o /dev/null
// RUN: FileCheck %s < %t/ignored_bf16_n4096_c1t256e16_shared.ptx

// CHECK-NOT: selp.b16
// CHECK-NOT: cvt.rn.bf16.f32
// CHECK: cvt.rn.bf16x2.f32
// CHECK-NOT: selp.b16
// CHECK-NOT: cvt.rn.bf16.f32
// CHECK: st.global.v4.b32
func.func @ignored(%x: tensor<?x4096xbf16>, %t: tensor<?xi64>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %r = credit.rowwise "ignored" ins(%x : tensor<?x4096xbf16>) scalars(%t : tensor<?xi64>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %i: i64) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %i: i64, %s: f32) {
      %zero = arith.constant 0.0 : f32
      %ignore = arith.constant -100 : i64
      %keep = arith.cmpi ne, %i, %ignore : i64
      %y = arith.mulf %v, %s : f32
      %r = arith.select %keep, %y, %zero : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xbf16>
}
