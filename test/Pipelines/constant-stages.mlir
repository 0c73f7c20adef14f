// A row split over 32 CTAs whose stages yield constants. Fresh from
// scf-to-cf, its branches fold step by step, and convert-gpu-to-nvvm's
// own greedy GPU rewrites did not converge on them: the pass failed with
// no diagnostic, and credit-opt exited 1 without a word. The program is a
// reduction of one that test/Fuzz/generate_programs.py found (seed 28028,
// program 246). credit-to-ptx canonicalizes between the two passes.
// RUN: rm -rf %t && credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{artifacts-dir=%t})' -o /dev/null
// RUN: FileCheck %s < %t/constants_f32_n100003_c1t128e25s32.ptx

// CHECK: .visible .entry constants_f32_n100003_c1t128e25s32(
// The row's CTAs meet in global memory, once per stage.
// CHECK: red.release.gpu.global.add.u32
// CHECK: ld.acquire.gpu.global.u32
// CHECK: red.release.gpu.global.add.u32
// CHECK: ld.acquire.gpu.global.u32
// CHECK: ret;
func.func @constants(%x: tensor<?x100003xf32>, %o: tensor<?x100003xf32>) -> tensor<?x100003xf32> {
  %r = credit.rowwise "constants" ins(%x : tensor<?x100003xf32>) outs(%o : tensor<?x100003xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 128, vector = 1, elems = 25, splits = 32>}
    reduce [add] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %one : f32
    }
    reduce [add, add, sqdev] (%j: index, %v: f32, %n: f32) {
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      credit.yield %zero, %one, %zero : f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %n: f32, %a: f32, %b: f32, %c: f32) {
      %y = arith.mulf %n, %c : f32
      credit.yield %y : f32
    }
  return %r : tensor<?x100003xf32>
}
