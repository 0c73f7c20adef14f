// The kernel credit-to-ptx built for test/Pipelines/constant-stages.mlir
// as convert-gpu-to-nvvm received it before credit-to-ptx canonicalized
// first (printed with --mlir-print-ir-before=convert-gpu-to-nvvm): the greedy
// GPU rewrites that pass runs first do not converge on it, and it fails
// without a diagnostic. exit-status.mlir checks that credit-opt says so.
gpu.module @constants_f32_n100003_c1t128e25s32 [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">] {
  memref.global "private" @credit_block_scratch : memref<48xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  memref.global "private" @credit_grid_scratch : memref<12xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  gpu.func @constants_f32_n100003_c1t128e25s32(%arg0: !llvm.ptr<1>, %arg1: i64, %arg2: !llvm.ptr<1>, %arg3: i64, %arg4: !llvm.ptr<1>, %arg5: !llvm.ptr<1>, %arg6: i64, %arg7: i64) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_cluster_size = array<i32: 1, 1, 1>, nvvm.maxnreg = 64 : i32} {
    %cst = arith.constant dense<0.000000e+00> : vector<1xf32>
    %c6 = arith.constant 6 : index
    %c24 = arith.constant 24 : index
    %cst_0 = arith.constant 1.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %c31 = arith.constant 31 : index
    %c0_i32 = arith.constant 0 : i32
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %c8_i32 = arith.constant 8 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %c12 = arith.constant 12 : index
    %cst_1 = arith.constant 0.000000e+00 : f32
    %c3072 = arith.constant 3072 : index
    %c2944 = arith.constant 2944 : index
    %c2816 = arith.constant 2816 : index
    %c2688 = arith.constant 2688 : index
    %c2560 = arith.constant 2560 : index
    %c2432 = arith.constant 2432 : index
    %c2304 = arith.constant 2304 : index
    %c2176 = arith.constant 2176 : index
    %c2048 = arith.constant 2048 : index
    %c1920 = arith.constant 1920 : index
    %c1792 = arith.constant 1792 : index
    %c1664 = arith.constant 1664 : index
    %c1536 = arith.constant 1536 : index
    %c1408 = arith.constant 1408 : index
    %c1280 = arith.constant 1280 : index
    %c1152 = arith.constant 1152 : index
    %c1024 = arith.constant 1024 : index
    %c896 = arith.constant 896 : index
    %c768 = arith.constant 768 : index
    %c640 = arith.constant 640 : index
    %c512 = arith.constant 512 : index
    %c384 = arith.constant 384 : index
    %c256 = arith.constant 256 : index
    %c100003 = arith.constant 100003 : index
    %c2 = arith.constant 2 : index
    %0 = llvm.mlir.constant(1 : i64) : i64
    %1 = llvm.mlir.constant(0 : i64) : i64
    %2 = llvm.mlir.poison : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
    %c3200 = arith.constant 3200 : index
    %c32 = arith.constant 32 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %3 = memref.get_global @credit_block_scratch : memref<48xf32, #gpu.address_space<workgroup>>
    %4 = memref.get_global @credit_grid_scratch : memref<12xf32, #gpu.address_space<workgroup>>
    %5 = arith.index_cast %arg3 : i64 to index
    %6 = arith.index_cast %arg7 : i64 to index
    %7 = arith.index_cast %arg6 : i64 to index
    %thread_id_x = gpu.thread_id  x
    %block_id_x = gpu.block_id  x
    %8 = arith.remui %thread_id_x, %c128 : index
    %9 = arith.divui %block_id_x, %c32 : index
    %10 = arith.remui %block_id_x, %c32 : index
    %11 = arith.muli %10, %c3200 : index
    %12 = arith.muli %9, %6 : index
    %13 = arith.addi %12, %6 : index
    %14 = arith.minui %13, %7 : index
    %15 = arith.muli %7, %5 : index
    %16 = arith.index_cast %15 : index to i64
    %17 = llvm.insertvalue %arg2, %2[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> 
    %18 = llvm.insertvalue %arg2, %17[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> 
    %19 = llvm.insertvalue %1, %18[2] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> 
    %20 = llvm.insertvalue %16, %19[3, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> 
    %21 = llvm.insertvalue %0, %20[4, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> 
    %22 = builtin.unrealized_conversion_cast %21 : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf32, #gpu.address_space<global>>
    cf.br ^bb1(%12 : index)
  ^bb1(%23: index):  // 2 preds: ^bb0, ^bb72
    %24 = arith.cmpi slt, %23, %14 : index
    cf.cond_br %24, ^bb2, ^bb73
  ^bb2:  // pred: ^bb1
    %25 = arith.subi %23, %12 : index
    %26 = arith.remui %25, %c2 : index
    %27 = arith.muli %23, %5 : index
    %28 = arith.addi %11, %8 : index
    %29 = arith.cmpi slt, %28, %c100003 : index
    %30 = arith.select %29, %cst_0, %cst_1 : f32
    %31 = arith.addi %8, %c128 : index
    %32 = arith.addi %11, %31 : index
    %33 = arith.cmpi slt, %32, %c100003 : index
    %34 = arith.addf %30, %cst_0 : f32
    %35 = arith.select %33, %34, %30 : f32
    %36 = arith.addi %8, %c256 : index
    %37 = arith.addi %11, %36 : index
    %38 = arith.cmpi slt, %37, %c100003 : index
    %39 = arith.addf %35, %cst_0 : f32
    %40 = arith.select %38, %39, %35 : f32
    %41 = arith.addi %8, %c384 : index
    %42 = arith.addi %11, %41 : index
    %43 = arith.cmpi slt, %42, %c100003 : index
    %44 = arith.addf %40, %cst_0 : f32
    %45 = arith.select %43, %44, %40 : f32
    %46 = arith.addi %8, %c512 : index
    %47 = arith.addi %11, %46 : index
    %48 = arith.cmpi slt, %47, %c100003 : index
    %49 = arith.addf %45, %cst_0 : f32
    %50 = arith.select %48, %49, %45 : f32
    %51 = arith.addi %8, %c640 : index
    %52 = arith.addi %11, %51 : index
    %53 = arith.cmpi slt, %52, %c100003 : index
    %54 = arith.addf %50, %cst_0 : f32
    %55 = arith.select %53, %54, %50 : f32
    %56 = arith.addi %8, %c768 : index
    %57 = arith.addi %11, %56 : index
    %58 = arith.cmpi slt, %57, %c100003 : index
    %59 = arith.addf %55, %cst_0 : f32
    %60 = arith.select %58, %59, %55 : f32
    %61 = arith.addi %8, %c896 : index
    %62 = arith.addi %11, %61 : index
    %63 = arith.cmpi slt, %62, %c100003 : index
    %64 = arith.addf %60, %cst_0 : f32
    %65 = arith.select %63, %64, %60 : f32
    %66 = arith.addi %8, %c1024 : index
    %67 = arith.addi %11, %66 : index
    %68 = arith.cmpi slt, %67, %c100003 : index
    %69 = arith.addf %65, %cst_0 : f32
    %70 = arith.select %68, %69, %65 : f32
    %71 = arith.addi %8, %c1152 : index
    %72 = arith.addi %11, %71 : index
    %73 = arith.cmpi slt, %72, %c100003 : index
    %74 = arith.addf %70, %cst_0 : f32
    %75 = arith.select %73, %74, %70 : f32
    %76 = arith.addi %8, %c1280 : index
    %77 = arith.addi %11, %76 : index
    %78 = arith.cmpi slt, %77, %c100003 : index
    %79 = arith.addf %75, %cst_0 : f32
    %80 = arith.select %78, %79, %75 : f32
    %81 = arith.addi %8, %c1408 : index
    %82 = arith.addi %11, %81 : index
    %83 = arith.cmpi slt, %82, %c100003 : index
    %84 = arith.addf %80, %cst_0 : f32
    %85 = arith.select %83, %84, %80 : f32
    %86 = arith.addi %8, %c1536 : index
    %87 = arith.addi %11, %86 : index
    %88 = arith.cmpi slt, %87, %c100003 : index
    %89 = arith.addf %85, %cst_0 : f32
    %90 = arith.select %88, %89, %85 : f32
    %91 = arith.addi %8, %c1664 : index
    %92 = arith.addi %11, %91 : index
    %93 = arith.cmpi slt, %92, %c100003 : index
    %94 = arith.addf %90, %cst_0 : f32
    %95 = arith.select %93, %94, %90 : f32
    %96 = arith.addi %8, %c1792 : index
    %97 = arith.addi %11, %96 : index
    %98 = arith.cmpi slt, %97, %c100003 : index
    %99 = arith.addf %95, %cst_0 : f32
    %100 = arith.select %98, %99, %95 : f32
    %101 = arith.addi %8, %c1920 : index
    %102 = arith.addi %11, %101 : index
    %103 = arith.cmpi slt, %102, %c100003 : index
    %104 = arith.addf %100, %cst_0 : f32
    %105 = arith.select %103, %104, %100 : f32
    %106 = arith.addi %8, %c2048 : index
    %107 = arith.addi %11, %106 : index
    %108 = arith.cmpi slt, %107, %c100003 : index
    %109 = arith.addf %105, %cst_0 : f32
    %110 = arith.select %108, %109, %105 : f32
    %111 = arith.addi %8, %c2176 : index
    %112 = arith.addi %11, %111 : index
    %113 = arith.cmpi slt, %112, %c100003 : index
    %114 = arith.addf %110, %cst_0 : f32
    %115 = arith.select %113, %114, %110 : f32
    %116 = arith.addi %8, %c2304 : index
    %117 = arith.addi %11, %116 : index
    %118 = arith.cmpi slt, %117, %c100003 : index
    %119 = arith.addf %115, %cst_0 : f32
    %120 = arith.select %118, %119, %115 : f32
    %121 = arith.addi %8, %c2432 : index
    %122 = arith.addi %11, %121 : index
    %123 = arith.cmpi slt, %122, %c100003 : index
    %124 = arith.addf %120, %cst_0 : f32
    %125 = arith.select %123, %124, %120 : f32
    %126 = arith.addi %8, %c2560 : index
    %127 = arith.addi %11, %126 : index
    %128 = arith.cmpi slt, %127, %c100003 : index
    %129 = arith.addf %125, %cst_0 : f32
    %130 = arith.select %128, %129, %125 : f32
    %131 = arith.addi %8, %c2688 : index
    %132 = arith.addi %11, %131 : index
    %133 = arith.cmpi slt, %132, %c100003 : index
    %134 = arith.addf %130, %cst_0 : f32
    %135 = arith.select %133, %134, %130 : f32
    %136 = arith.addi %8, %c2816 : index
    %137 = arith.addi %11, %136 : index
    %138 = arith.cmpi slt, %137, %c100003 : index
    %139 = arith.addf %135, %cst_0 : f32
    %140 = arith.select %138, %139, %135 : f32
    %141 = arith.addi %8, %c2944 : index
    %142 = arith.addi %11, %141 : index
    %143 = arith.cmpi slt, %142, %c100003 : index
    %144 = arith.addf %140, %cst_0 : f32
    %145 = arith.select %143, %144, %140 : f32
    %146 = arith.addi %8, %c3072 : index
    %147 = arith.addi %11, %146 : index
    %148 = arith.cmpi slt, %147, %c100003 : index
    %149 = arith.addf %145, %cst_0 : f32
    %150 = arith.select %148, %149, %145 : f32
    %151 = arith.muli %26, %c24 : index
    %shuffleResult, %valid = gpu.shuffle  xor %150, %c16_i32, %c32_i32 : f32
    %152 = arith.addf %150, %shuffleResult : f32
    %shuffleResult_2, %valid_3 = gpu.shuffle  xor %152, %c8_i32, %c32_i32 : f32
    %153 = arith.addf %152, %shuffleResult_2 : f32
    %shuffleResult_4, %valid_5 = gpu.shuffle  xor %153, %c4_i32, %c32_i32 : f32
    %154 = arith.addf %153, %shuffleResult_4 : f32
    %shuffleResult_6, %valid_7 = gpu.shuffle  xor %154, %c2_i32, %c32_i32 : f32
    %155 = arith.addf %154, %shuffleResult_6 : f32
    %shuffleResult_8, %valid_9 = gpu.shuffle  xor %155, %c1_i32, %c32_i32 : f32
    %156 = arith.addf %155, %shuffleResult_8 : f32
    %157 = arith.remui %thread_id_x, %c32 : index
    %158 = arith.divui %thread_id_x, %c32 : index
    %159 = arith.cmpi eq, %157, %c0 : index
    %160 = arith.addi %151, %158 : index
    cf.cond_br %159, ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    memref.store %156, %3[%160] : memref<48xf32, #gpu.address_space<workgroup>>
    cf.br ^bb4
  ^bb4:  // 2 preds: ^bb2, ^bb3
    gpu.barrier
    %161 = arith.divui %158, %c4 : index
    %162 = arith.muli %161, %c4 : index
    %163 = arith.cmpi ult, %157, %c4 : index
    %164 = arith.minui %157, %c3 : index
    %165 = arith.addi %162, %164 : index
    %166 = arith.addi %151, %165 : index
    %167 = memref.load %3[%166] : memref<48xf32, #gpu.address_space<workgroup>>
    %168 = arith.select %163, %167, %cst_1 : f32
    %shuffleResult_10, %valid_11 = gpu.shuffle  xor %168, %c2_i32, %c32_i32 : f32
    %169 = arith.addf %168, %shuffleResult_10 : f32
    %shuffleResult_12, %valid_13 = gpu.shuffle  xor %169, %c1_i32, %c32_i32 : f32
    %170 = arith.addf %169, %shuffleResult_12 : f32
    %shuffleResult_14, %valid_15 = gpu.shuffle  idx %170, %c0_i32, %c32_i32 : f32
    %171 = arith.muli %26, %c6 : index
    %172 = arith.muli %23, %c128 : index
    %173 = arith.index_cast %23 : index to i64
    %174 = llvm.getelementptr %arg5[%173] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
    %175 = arith.cmpi eq, %thread_id_x, %c0 : index
    cf.cond_br %175, ^bb5, ^bb6
  ^bb5:  // pred: ^bb4
    %176 = arith.addi %172, %10 : index
    %177 = arith.index_cast %176 : index to i64
    %178 = llvm.getelementptr %arg4[%177] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %shuffleResult_14, %178 : f32, !llvm.ptr<1>
    llvm.inline_asm has_side_effects asm_dialect = att "red.release.gpu.global.add.u32 [$0], 1;", "l" %174 : (!llvm.ptr<1>) -> ()
    cf.br ^bb6
  ^bb6:  // 2 preds: ^bb4, ^bb5
    %179 = arith.cmpi ult, %thread_id_x, %c32 : index
    cf.cond_br %179, ^bb7, ^bb12
  ^bb7:  // pred: ^bb6
    cf.br ^bb8
  ^bb8:  // 2 preds: ^bb7, ^bb8
    %180 = llvm.inline_asm has_side_effects asm_dialect = att "ld.acquire.gpu.global.u32 $0, [$1];", "=r,l" %174 : (!llvm.ptr<1>) -> i32
    %181 = arith.cmpi ult, %180, %c32_i32 : i32
    cf.cond_br %181, ^bb8, ^bb9
  ^bb9:  // pred: ^bb8
    %182 = arith.minui %thread_id_x, %c31 : index
    %183 = arith.addi %172, %182 : index
    %184 = arith.index_cast %183 : index to i64
    %185 = llvm.getelementptr %arg4[%184] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %186 = llvm.inline_asm has_side_effects asm_dialect = att "ld.relaxed.gpu.global.f32 $0, [$1];", "=f,l" %185 : (!llvm.ptr<1>) -> f32
    %187 = arith.select %179, %186, %cst_1 : f32
    %shuffleResult_16, %valid_17 = gpu.shuffle  xor %187, %c16_i32, %c32_i32 : f32
    %188 = arith.addf %187, %shuffleResult_16 : f32
    %shuffleResult_18, %valid_19 = gpu.shuffle  xor %188, %c8_i32, %c32_i32 : f32
    %189 = arith.addf %188, %shuffleResult_18 : f32
    %shuffleResult_20, %valid_21 = gpu.shuffle  xor %189, %c4_i32, %c32_i32 : f32
    %190 = arith.addf %189, %shuffleResult_20 : f32
    %shuffleResult_22, %valid_23 = gpu.shuffle  xor %190, %c2_i32, %c32_i32 : f32
    %191 = arith.addf %190, %shuffleResult_22 : f32
    %shuffleResult_24, %valid_25 = gpu.shuffle  xor %191, %c1_i32, %c32_i32 : f32
    %192 = arith.addf %191, %shuffleResult_24 : f32
    cf.cond_br %175, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    memref.store %192, %4[%171] : memref<12xf32, #gpu.address_space<workgroup>>
    cf.br ^bb11
  ^bb11:  // 2 preds: ^bb9, ^bb10
    cf.br ^bb12
  ^bb12:  // 2 preds: ^bb6, ^bb11
    gpu.barrier
    %193 = memref.load %4[%171] : memref<12xf32, #gpu.address_space<workgroup>>
    %194 = arith.select %73, %cst_1, %cst_1 : f32
    %195 = arith.addf %194, %cst_1 : f32
    %196 = arith.select %78, %195, %194 : f32
    %197 = arith.addf %196, %cst_1 : f32
    %198 = arith.select %83, %197, %196 : f32
    %199 = arith.addf %198, %cst_1 : f32
    %200 = arith.select %88, %199, %198 : f32
    %201 = arith.addf %200, %cst_1 : f32
    %202 = arith.select %93, %201, %200 : f32
    %203 = arith.addf %202, %cst_1 : f32
    %204 = arith.select %98, %203, %202 : f32
    %205 = arith.addf %204, %cst_1 : f32
    %206 = arith.select %103, %205, %204 : f32
    %207 = arith.addf %206, %cst_1 : f32
    %208 = arith.select %108, %207, %206 : f32
    %209 = arith.addf %208, %cst_1 : f32
    %210 = arith.select %113, %209, %208 : f32
    %211 = arith.addf %210, %cst_1 : f32
    %212 = arith.select %118, %211, %210 : f32
    %213 = arith.addf %212, %cst_1 : f32
    %214 = arith.select %123, %213, %212 : f32
    %215 = arith.addf %214, %cst_1 : f32
    %216 = arith.select %128, %215, %214 : f32
    %217 = arith.addf %216, %cst_1 : f32
    %218 = arith.select %133, %217, %216 : f32
    %219 = arith.addf %218, %cst_1 : f32
    %220 = arith.select %138, %219, %218 : f32
    %221 = arith.addf %220, %cst_1 : f32
    %222 = arith.select %143, %221, %220 : f32
    %223 = arith.addf %222, %cst_1 : f32
    %224 = arith.select %148, %223, %222 : f32
    %225 = arith.divf %224, %150 fastmath<afn> : f32
    %226 = vector.broadcast %225 : f32 to vector<1xf32>
    %227 = arith.subf %cst, %226 : vector<1xf32>
    %228 = arith.mulf %227, %227 : vector<1xf32>
    %229 = vector.extract %228[0] : f32 from vector<1xf32>
    %230 = arith.addf %229, %cst_1 : f32
    %231 = arith.select %29, %230, %cst_1 : f32
    %232 = arith.addf %231, %229 : f32
    %233 = arith.select %33, %232, %231 : f32
    %234 = arith.addf %233, %229 : f32
    %235 = arith.select %38, %234, %233 : f32
    %236 = arith.addf %235, %229 : f32
    %237 = arith.select %43, %236, %235 : f32
    %238 = arith.addf %237, %229 : f32
    %239 = arith.select %48, %238, %237 : f32
    %240 = arith.addf %239, %229 : f32
    %241 = arith.select %53, %240, %239 : f32
    %242 = arith.addf %241, %229 : f32
    %243 = arith.select %58, %242, %241 : f32
    %244 = arith.addf %243, %229 : f32
    %245 = arith.select %63, %244, %243 : f32
    %246 = arith.addf %245, %229 : f32
    %247 = arith.select %68, %246, %245 : f32
    %248 = arith.addf %247, %229 : f32
    %249 = arith.select %73, %248, %247 : f32
    %250 = arith.addf %249, %229 : f32
    %251 = arith.select %78, %250, %249 : f32
    %252 = arith.addf %251, %229 : f32
    %253 = arith.select %83, %252, %251 : f32
    %254 = arith.addf %253, %229 : f32
    %255 = arith.select %88, %254, %253 : f32
    %256 = arith.addf %255, %229 : f32
    %257 = arith.select %93, %256, %255 : f32
    %258 = arith.addf %257, %229 : f32
    %259 = arith.select %98, %258, %257 : f32
    %260 = arith.addf %259, %229 : f32
    %261 = arith.select %103, %260, %259 : f32
    %262 = arith.addf %261, %229 : f32
    %263 = arith.select %108, %262, %261 : f32
    %264 = arith.addf %263, %229 : f32
    %265 = arith.select %113, %264, %263 : f32
    %266 = arith.addf %265, %229 : f32
    %267 = arith.select %118, %266, %265 : f32
    %268 = arith.addf %267, %229 : f32
    %269 = arith.select %123, %268, %267 : f32
    %270 = arith.addf %269, %229 : f32
    %271 = arith.select %128, %270, %269 : f32
    %272 = arith.addf %271, %229 : f32
    %273 = arith.select %133, %272, %271 : f32
    %274 = arith.addf %273, %229 : f32
    %275 = arith.select %138, %274, %273 : f32
    %276 = arith.addf %275, %229 : f32
    %277 = arith.select %143, %276, %275 : f32
    %278 = arith.addf %277, %229 : f32
    %279 = arith.select %148, %278, %277 : f32
    %280 = arith.addf %279, %cst_1 : f32
    %281 = arith.muli %26, %c2 : index
    %282 = arith.addi %281, %c1 : index
    %283 = arith.muli %282, %c12 : index
    %shuffleResult_26, %valid_27 = gpu.shuffle  xor %224, %c16_i32, %c32_i32 : f32
    %284 = arith.addf %224, %shuffleResult_26 : f32
    %shuffleResult_28, %valid_29 = gpu.shuffle  xor %284, %c8_i32, %c32_i32 : f32
    %285 = arith.addf %284, %shuffleResult_28 : f32
    %shuffleResult_30, %valid_31 = gpu.shuffle  xor %285, %c4_i32, %c32_i32 : f32
    %286 = arith.addf %285, %shuffleResult_30 : f32
    %shuffleResult_32, %valid_33 = gpu.shuffle  xor %286, %c2_i32, %c32_i32 : f32
    %287 = arith.addf %286, %shuffleResult_32 : f32
    %shuffleResult_34, %valid_35 = gpu.shuffle  xor %287, %c1_i32, %c32_i32 : f32
    %288 = arith.addf %287, %shuffleResult_34 : f32
    %289 = arith.divf %288, %156 fastmath<afn> : f32
    %290 = arith.mulf %150, %289 : f32
    %291 = arith.subf %224, %290 : f32
    %292 = arith.mulf %291, %291 : f32
    %293 = arith.divf %292, %150 fastmath<afn> : f32
    %294 = arith.cmpf ogt, %150, %cst_1 : f32
    %295 = arith.select %294, %293, %cst_1 : f32
    %296 = arith.addf %280, %295 : f32
    %shuffleResult_36, %valid_37 = gpu.shuffle  xor %296, %c16_i32, %c32_i32 : f32
    %297 = arith.addf %296, %shuffleResult_36 : f32
    %shuffleResult_38, %valid_39 = gpu.shuffle  xor %297, %c8_i32, %c32_i32 : f32
    %298 = arith.addf %297, %shuffleResult_38 : f32
    %shuffleResult_40, %valid_41 = gpu.shuffle  xor %298, %c4_i32, %c32_i32 : f32
    %299 = arith.addf %298, %shuffleResult_40 : f32
    %shuffleResult_42, %valid_43 = gpu.shuffle  xor %299, %c2_i32, %c32_i32 : f32
    %300 = arith.addf %299, %shuffleResult_42 : f32
    %shuffleResult_44, %valid_45 = gpu.shuffle  xor %300, %c1_i32, %c32_i32 : f32
    %301 = arith.addf %300, %shuffleResult_44 : f32
    %302 = arith.muli %158, %c3 : index
    %303 = arith.addi %283, %302 : index
    cf.cond_br %159, ^bb13, ^bb14
  ^bb13:  // pred: ^bb12
    memref.store %288, %3[%303] : memref<48xf32, #gpu.address_space<workgroup>>
    %304 = arith.addi %303, %c1 : index
    memref.store %156, %3[%304] : memref<48xf32, #gpu.address_space<workgroup>>
    %305 = arith.addi %303, %c2 : index
    memref.store %301, %3[%305] : memref<48xf32, #gpu.address_space<workgroup>>
    cf.br ^bb14
  ^bb14:  // 2 preds: ^bb12, ^bb13
    gpu.barrier
    %306 = arith.muli %165, %c3 : index
    %307 = arith.addi %283, %306 : index
    %308 = memref.load %3[%307] : memref<48xf32, #gpu.address_space<workgroup>>
    %309 = arith.select %163, %308, %cst_1 : f32
    %310 = arith.addi %307, %c1 : index
    %311 = memref.load %3[%310] : memref<48xf32, #gpu.address_space<workgroup>>
    %312 = arith.select %163, %311, %cst_1 : f32
    %313 = arith.addi %307, %c2 : index
    %314 = memref.load %3[%313] : memref<48xf32, #gpu.address_space<workgroup>>
    %315 = arith.select %163, %314, %cst_1 : f32
    %shuffleResult_46, %valid_47 = gpu.shuffle  xor %309, %c2_i32, %c32_i32 : f32
    %316 = arith.addf %309, %shuffleResult_46 : f32
    %shuffleResult_48, %valid_49 = gpu.shuffle  xor %316, %c1_i32, %c32_i32 : f32
    %317 = arith.addf %316, %shuffleResult_48 : f32
    %shuffleResult_50, %valid_51 = gpu.shuffle  xor %312, %c2_i32, %c32_i32 : f32
    %318 = arith.addf %312, %shuffleResult_50 : f32
    %shuffleResult_52, %valid_53 = gpu.shuffle  xor %318, %c1_i32, %c32_i32 : f32
    %319 = arith.addf %318, %shuffleResult_52 : f32
    %320 = arith.divf %317, %319 fastmath<afn> : f32
    %321 = arith.mulf %312, %320 : f32
    %322 = arith.subf %309, %321 : f32
    %323 = arith.mulf %322, %322 : f32
    %324 = arith.divf %323, %312 fastmath<afn> : f32
    %325 = arith.cmpf ogt, %312, %cst_1 : f32
    %326 = arith.select %325, %324, %cst_1 : f32
    %327 = arith.addf %315, %326 : f32
    %shuffleResult_54, %valid_55 = gpu.shuffle  xor %327, %c2_i32, %c32_i32 : f32
    %328 = arith.addf %327, %shuffleResult_54 : f32
    %shuffleResult_56, %valid_57 = gpu.shuffle  xor %328, %c1_i32, %c32_i32 : f32
    %329 = arith.addf %328, %shuffleResult_56 : f32
    %shuffleResult_58, %valid_59 = gpu.shuffle  idx %317, %c0_i32, %c32_i32 : f32
    %shuffleResult_60, %valid_61 = gpu.shuffle  idx %319, %c0_i32, %c32_i32 : f32
    %shuffleResult_62, %valid_63 = gpu.shuffle  idx %329, %c0_i32, %c32_i32 : f32
    %330 = arith.muli %282, %c3 : index
    %331 = arith.addi %172, %c32 : index
    cf.cond_br %175, ^bb15, ^bb16
  ^bb15:  // pred: ^bb14
    %332 = arith.muli %10, %c3 : index
    %333 = arith.addi %331, %332 : index
    %334 = arith.index_cast %333 : index to i64
    %335 = llvm.getelementptr %arg4[%334] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %shuffleResult_58, %335 : f32, !llvm.ptr<1>
    %336 = arith.addi %332, %c1 : index
    %337 = arith.addi %331, %336 : index
    %338 = arith.index_cast %337 : index to i64
    %339 = llvm.getelementptr %arg4[%338] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %shuffleResult_60, %339 : f32, !llvm.ptr<1>
    %340 = arith.addi %332, %c2 : index
    %341 = arith.addi %331, %340 : index
    %342 = arith.index_cast %341 : index to i64
    %343 = llvm.getelementptr %arg4[%342] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %shuffleResult_62, %343 : f32, !llvm.ptr<1>
    llvm.inline_asm has_side_effects asm_dialect = att "red.release.gpu.global.add.u32 [$0], 1;", "l" %174 : (!llvm.ptr<1>) -> ()
    cf.br ^bb16
  ^bb16:  // 2 preds: ^bb14, ^bb15
    cf.cond_br %179, ^bb17, ^bb22
  ^bb17:  // pred: ^bb16
    cf.br ^bb18
  ^bb18:  // 2 preds: ^bb17, ^bb18
    %344 = llvm.inline_asm has_side_effects asm_dialect = att "ld.acquire.gpu.global.u32 $0, [$1];", "=r,l" %174 : (!llvm.ptr<1>) -> i32
    %345 = arith.cmpi ult, %344, %c64_i32 : i32
    cf.cond_br %345, ^bb18, ^bb19
  ^bb19:  // pred: ^bb18
    %346 = arith.minui %thread_id_x, %c31 : index
    %347 = arith.muli %346, %c3 : index
    %348 = arith.addi %331, %347 : index
    %349 = arith.index_cast %348 : index to i64
    %350 = llvm.getelementptr %arg4[%349] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %351 = llvm.inline_asm has_side_effects asm_dialect = att "ld.relaxed.gpu.global.f32 $0, [$1];", "=f,l" %350 : (!llvm.ptr<1>) -> f32
    %352 = arith.addi %347, %c1 : index
    %353 = arith.addi %331, %352 : index
    %354 = arith.index_cast %353 : index to i64
    %355 = llvm.getelementptr %arg4[%354] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %356 = llvm.inline_asm has_side_effects asm_dialect = att "ld.relaxed.gpu.global.f32 $0, [$1];", "=f,l" %355 : (!llvm.ptr<1>) -> f32
    %357 = arith.addi %347, %c2 : index
    %358 = arith.addi %331, %357 : index
    %359 = arith.index_cast %358 : index to i64
    %360 = llvm.getelementptr %arg4[%359] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %361 = llvm.inline_asm has_side_effects asm_dialect = att "ld.relaxed.gpu.global.f32 $0, [$1];", "=f,l" %360 : (!llvm.ptr<1>) -> f32
    %362 = arith.select %179, %351, %cst_1 : f32
    %363 = arith.select %179, %356, %cst_1 : f32
    %364 = arith.select %179, %361, %cst_1 : f32
    %365 = arith.divf %362, %363 fastmath<afn> : f32
    %366 = arith.mulf %363, %365 : f32
    %367 = arith.subf %362, %366 : f32
    %368 = arith.mulf %367, %367 : f32
    %369 = arith.divf %368, %363 fastmath<afn> : f32
    %370 = arith.cmpf ogt, %363, %cst_1 : f32
    %371 = arith.select %370, %369, %cst_1 : f32
    %372 = arith.addf %364, %371 : f32
    %shuffleResult_64, %valid_65 = gpu.shuffle  xor %362, %c16_i32, %c32_i32 : f32
    %373 = arith.addf %362, %shuffleResult_64 : f32
    %shuffleResult_66, %valid_67 = gpu.shuffle  xor %373, %c8_i32, %c32_i32 : f32
    %374 = arith.addf %373, %shuffleResult_66 : f32
    %shuffleResult_68, %valid_69 = gpu.shuffle  xor %374, %c4_i32, %c32_i32 : f32
    %375 = arith.addf %374, %shuffleResult_68 : f32
    %shuffleResult_70, %valid_71 = gpu.shuffle  xor %375, %c2_i32, %c32_i32 : f32
    %376 = arith.addf %375, %shuffleResult_70 : f32
    %shuffleResult_72, %valid_73 = gpu.shuffle  xor %376, %c1_i32, %c32_i32 : f32
    %377 = arith.addf %376, %shuffleResult_72 : f32
    %shuffleResult_74, %valid_75 = gpu.shuffle  xor %363, %c16_i32, %c32_i32 : f32
    %378 = arith.addf %363, %shuffleResult_74 : f32
    %shuffleResult_76, %valid_77 = gpu.shuffle  xor %378, %c8_i32, %c32_i32 : f32
    %379 = arith.addf %378, %shuffleResult_76 : f32
    %shuffleResult_78, %valid_79 = gpu.shuffle  xor %379, %c4_i32, %c32_i32 : f32
    %380 = arith.addf %379, %shuffleResult_78 : f32
    %shuffleResult_80, %valid_81 = gpu.shuffle  xor %380, %c2_i32, %c32_i32 : f32
    %381 = arith.addf %380, %shuffleResult_80 : f32
    %shuffleResult_82, %valid_83 = gpu.shuffle  xor %381, %c1_i32, %c32_i32 : f32
    %382 = arith.addf %381, %shuffleResult_82 : f32
    %383 = arith.divf %377, %382 fastmath<afn> : f32
    %384 = arith.mulf %363, %383 : f32
    %385 = arith.subf %362, %384 : f32
    %386 = arith.mulf %385, %385 : f32
    %387 = arith.divf %386, %363 fastmath<afn> : f32
    %388 = arith.select %370, %387, %cst_1 : f32
    %389 = arith.addf %372, %388 : f32
    %shuffleResult_84, %valid_85 = gpu.shuffle  xor %389, %c16_i32, %c32_i32 : f32
    %390 = arith.addf %389, %shuffleResult_84 : f32
    %shuffleResult_86, %valid_87 = gpu.shuffle  xor %390, %c8_i32, %c32_i32 : f32
    %391 = arith.addf %390, %shuffleResult_86 : f32
    %shuffleResult_88, %valid_89 = gpu.shuffle  xor %391, %c4_i32, %c32_i32 : f32
    %392 = arith.addf %391, %shuffleResult_88 : f32
    %shuffleResult_90, %valid_91 = gpu.shuffle  xor %392, %c2_i32, %c32_i32 : f32
    %393 = arith.addf %392, %shuffleResult_90 : f32
    %shuffleResult_92, %valid_93 = gpu.shuffle  xor %393, %c1_i32, %c32_i32 : f32
    %394 = arith.addf %393, %shuffleResult_92 : f32
    cf.cond_br %175, ^bb20, ^bb21
  ^bb20:  // pred: ^bb19
    memref.store %377, %4[%330] : memref<12xf32, #gpu.address_space<workgroup>>
    %395 = arith.addi %330, %c1 : index
    memref.store %382, %4[%395] : memref<12xf32, #gpu.address_space<workgroup>>
    %396 = arith.addi %330, %c2 : index
    memref.store %394, %4[%396] : memref<12xf32, #gpu.address_space<workgroup>>
    llvm.inline_asm has_side_effects asm_dialect = att "red.relaxed.gpu.global.inc.u32 [$0], 95;", "l" %174 : (!llvm.ptr<1>) -> ()
    cf.br ^bb21
  ^bb21:  // 2 preds: ^bb19, ^bb20
    cf.br ^bb22
  ^bb22:  // 2 preds: ^bb16, ^bb21
    gpu.barrier
    %397 = arith.addi %330, %c2 : index
    %398 = memref.load %4[%397] : memref<12xf32, #gpu.address_space<workgroup>>
    %399 = arith.mulf %193, %398 : f32
    %400 = vector.broadcast %399 : f32 to vector<1xf32>
    %401 = arith.addi %27, %28 : index
    cf.cond_br %29, ^bb23, ^bb24
  ^bb23:  // pred: ^bb22
    vector.store %400, %22[%401] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb24
  ^bb24:  // 2 preds: ^bb22, ^bb23
    %402 = arith.addi %27, %32 : index
    cf.cond_br %33, ^bb25, ^bb26
  ^bb25:  // pred: ^bb24
    vector.store %400, %22[%402] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb26
  ^bb26:  // 2 preds: ^bb24, ^bb25
    %403 = arith.addi %27, %37 : index
    cf.cond_br %38, ^bb27, ^bb28
  ^bb27:  // pred: ^bb26
    vector.store %400, %22[%403] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb28
  ^bb28:  // 2 preds: ^bb26, ^bb27
    %404 = arith.addi %27, %42 : index
    cf.cond_br %43, ^bb29, ^bb30
  ^bb29:  // pred: ^bb28
    vector.store %400, %22[%404] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb30
  ^bb30:  // 2 preds: ^bb28, ^bb29
    %405 = arith.addi %27, %47 : index
    cf.cond_br %48, ^bb31, ^bb32
  ^bb31:  // pred: ^bb30
    vector.store %400, %22[%405] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb32
  ^bb32:  // 2 preds: ^bb30, ^bb31
    %406 = arith.addi %27, %52 : index
    cf.cond_br %53, ^bb33, ^bb34
  ^bb33:  // pred: ^bb32
    vector.store %400, %22[%406] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb34
  ^bb34:  // 2 preds: ^bb32, ^bb33
    %407 = arith.addi %27, %57 : index
    cf.cond_br %58, ^bb35, ^bb36
  ^bb35:  // pred: ^bb34
    vector.store %400, %22[%407] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb36
  ^bb36:  // 2 preds: ^bb34, ^bb35
    %408 = arith.addi %27, %62 : index
    cf.cond_br %63, ^bb37, ^bb38
  ^bb37:  // pred: ^bb36
    vector.store %400, %22[%408] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb38
  ^bb38:  // 2 preds: ^bb36, ^bb37
    %409 = arith.addi %27, %67 : index
    cf.cond_br %68, ^bb39, ^bb40
  ^bb39:  // pred: ^bb38
    vector.store %400, %22[%409] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb40
  ^bb40:  // 2 preds: ^bb38, ^bb39
    %410 = arith.addi %27, %72 : index
    cf.cond_br %73, ^bb41, ^bb42
  ^bb41:  // pred: ^bb40
    vector.store %400, %22[%410] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb42
  ^bb42:  // 2 preds: ^bb40, ^bb41
    %411 = arith.addi %27, %77 : index
    cf.cond_br %78, ^bb43, ^bb44
  ^bb43:  // pred: ^bb42
    vector.store %400, %22[%411] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb44
  ^bb44:  // 2 preds: ^bb42, ^bb43
    %412 = arith.addi %27, %82 : index
    cf.cond_br %83, ^bb45, ^bb46
  ^bb45:  // pred: ^bb44
    vector.store %400, %22[%412] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb46
  ^bb46:  // 2 preds: ^bb44, ^bb45
    %413 = arith.addi %27, %87 : index
    cf.cond_br %88, ^bb47, ^bb48
  ^bb47:  // pred: ^bb46
    vector.store %400, %22[%413] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb48
  ^bb48:  // 2 preds: ^bb46, ^bb47
    %414 = arith.addi %27, %92 : index
    cf.cond_br %93, ^bb49, ^bb50
  ^bb49:  // pred: ^bb48
    vector.store %400, %22[%414] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb50
  ^bb50:  // 2 preds: ^bb48, ^bb49
    %415 = arith.addi %27, %97 : index
    cf.cond_br %98, ^bb51, ^bb52
  ^bb51:  // pred: ^bb50
    vector.store %400, %22[%415] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb52
  ^bb52:  // 2 preds: ^bb50, ^bb51
    %416 = arith.addi %27, %102 : index
    cf.cond_br %103, ^bb53, ^bb54
  ^bb53:  // pred: ^bb52
    vector.store %400, %22[%416] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb54
  ^bb54:  // 2 preds: ^bb52, ^bb53
    %417 = arith.addi %27, %107 : index
    cf.cond_br %108, ^bb55, ^bb56
  ^bb55:  // pred: ^bb54
    vector.store %400, %22[%417] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb56
  ^bb56:  // 2 preds: ^bb54, ^bb55
    %418 = arith.addi %27, %112 : index
    cf.cond_br %113, ^bb57, ^bb58
  ^bb57:  // pred: ^bb56
    vector.store %400, %22[%418] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb58
  ^bb58:  // 2 preds: ^bb56, ^bb57
    %419 = arith.addi %27, %117 : index
    cf.cond_br %118, ^bb59, ^bb60
  ^bb59:  // pred: ^bb58
    vector.store %400, %22[%419] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb60
  ^bb60:  // 2 preds: ^bb58, ^bb59
    %420 = arith.addi %27, %122 : index
    cf.cond_br %123, ^bb61, ^bb62
  ^bb61:  // pred: ^bb60
    vector.store %400, %22[%420] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb62
  ^bb62:  // 2 preds: ^bb60, ^bb61
    %421 = arith.addi %27, %127 : index
    cf.cond_br %128, ^bb63, ^bb64
  ^bb63:  // pred: ^bb62
    vector.store %400, %22[%421] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb64
  ^bb64:  // 2 preds: ^bb62, ^bb63
    %422 = arith.addi %27, %132 : index
    cf.cond_br %133, ^bb65, ^bb66
  ^bb65:  // pred: ^bb64
    vector.store %400, %22[%422] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb66
  ^bb66:  // 2 preds: ^bb64, ^bb65
    %423 = arith.addi %27, %137 : index
    cf.cond_br %138, ^bb67, ^bb68
  ^bb67:  // pred: ^bb66
    vector.store %400, %22[%423] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb68
  ^bb68:  // 2 preds: ^bb66, ^bb67
    %424 = arith.addi %27, %142 : index
    cf.cond_br %143, ^bb69, ^bb70
  ^bb69:  // pred: ^bb68
    vector.store %400, %22[%424] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb70
  ^bb70:  // 2 preds: ^bb68, ^bb69
    %425 = arith.addi %27, %147 : index
    cf.cond_br %148, ^bb71, ^bb72
  ^bb71:  // pred: ^bb70
    vector.store %400, %22[%425] {alignment = 4 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<1xf32>
    cf.br ^bb72
  ^bb72:  // 2 preds: ^bb70, ^bb71
    %426 = arith.addi %23, %c1 : index
    cf.br ^bb1(%426 : index)
  ^bb73:  // pred: ^bb1
    gpu.return
  }
}

