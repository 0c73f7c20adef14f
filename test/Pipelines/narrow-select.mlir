// cross_entropy's epilogue, bf16: g = v * s - (j == t ? 1 : 0), 0 for
// ignored rows (t == -100). The kernel branches once per row on the
// ignored test (KernelEmitter::emitEpilogue's row condition) and once per
// chunk on whether it holds column t (its column tests): a chunk without
// t only multiplies and converts pairs (cvt.rn.bf16x2.f32), with no
// compare or select per element; one with t selects its one-hot lanes.
// No element is converted or selected alone (cvt.rn.bf16.f32, selp.b16:
// what LLVM made of a select of a constant, hideSelectedConstants).
// RUN: rm -rf %t && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t})' -o /dev/null
// RUN: FileCheck %s < %t/ignored_bf16_n4096_c1t256e16_shared.ptx

// CHECK-NOT: selp.b16
// CHECK: setp.eq.b64 %p[[IGNORED:[0-9]+]], %rd{{[0-9]+}}, -100;
// CHECK-NEXT: @%p[[IGNORED]] bra
// CHECK: setp.gt.u64 %p[[ELSEWHERE:[0-9]+]], %rd{{[0-9]+}}, 7;
// CHECK: @%p[[ELSEWHERE]] bra $L__BB0_[[FAST:[0-9]+]];
// CHECK-COUNT-8: selp.f32 %r{{[0-9]+}}, 0f3F800000, 0f00000000
// CHECK: $L__BB0_[[FAST]]:
// CHECK-COUNT-8: mul.rn.f32
// CHECK-NOT: {{setp|selp}}
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
      %one = arith.constant 1.0 : f32
      %ignore = arith.constant -100 : i64
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %i : i64
      %oh = arith.select %hit, %one, %zero : f32
      %y = arith.mulf %v, %s : f32
      %g = arith.subf %y, %oh : f32
      %keep = arith.cmpi ne, %i, %ignore : i64
      %r = arith.select %keep, %g, %zero : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xbf16>
}
