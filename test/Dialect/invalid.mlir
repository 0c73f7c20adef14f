// RUN: credit-opt %s --split-input-file --verify-diagnostics

func.func @no_row_input(%s: tensor<?xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{expects at least one row input in 'ins'}}
  %r = credit.rowwise scalars(%s : tensor<?xf32>) scalar_outs(%o : tensor<?xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    finalize (%v: f32, %s0: f32) { credit.yield %s0 : f32 }
  return %r : tensor<?xf32>
}

// -----

func.func @mixed_kinds(%x: tensor<?x64xf32>, %o: memref<?x64xf32>) {
  // expected-error @+1 {{expects all operands to be tensors or all to be memrefs}}
  credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : memref<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return
}

// -----

func.func @dynamic_n(%x: tensor<?x?xf32>, %o: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{expects a static row length N}}
  %r = credit.rowwise ins(%x : tensor<?x?xf32>) outs(%o : tensor<?x?xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x?xf32>
}

// -----

func.func @row_length_mismatch(%x: tensor<?x64xf32>, %y: tensor<?x32xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{row input #1 has row length 32, expected N = 64}}
  %r = credit.rowwise ins(%x, %y : tensor<?x64xf32>, tensor<?x32xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32, %w: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @broadcast_length(%x: tensor<?x64xf32>, %g: tensor<?xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{broadcast input #0 has row length ?, expected N = 64}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) bcast(%g : tensor<?xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32, %w: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @output_length(%x: tensor<?x64xf32>, %o: tensor<?x65xf32>) -> tensor<?x65xf32> {
  // expected-error @+1 {{row output #0 has row length 65, expected N = 64}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x65xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x65xf32>
}

// -----

func.func @row_count_mismatch(%x: tensor<8x64xf32>, %s: tensor<4xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{scalar input #0 has 4 rows, but an earlier operand has 8}}
  %r = credit.rowwise ins(%x : tensor<8x64xf32>) scalars(%s : tensor<4xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32, %g: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %g: f32, %t: f32) { credit.yield %t : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @empty_column_sum(%x: tensor<?x64xf32>, %c: tensor<0x64xf32>) -> tensor<0x64xf32> {
  // expected-error @+1 {{column-sum output #0 needs at least one row block}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) colsum_outs(%c : tensor<0x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<0x64xf32>
}

// -----

func.func @inner_stride(%x: memref<8x64xf32, strided<[1, 8]>>, %o: memref<8x64xf32>) {
  // expected-error @+1 {{row input #0 must have a unit inner stride}}
  credit.rowwise ins(%x : memref<8x64xf32, strided<[1, 8]>>) outs(%o : memref<8x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return
}

// -----

func.func @combiner_count(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{expects one combiner list per reduction stage, found 2 lists for 1 stages}}
  %r = "credit.rowwise"(%x, %o) <{combiners = [[#credit.combiner<add>], [#credit.combiner<add>]],
                                 operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>}> ({
  ^bb0(%j: index, %v: f32, %s: f32):
    credit.yield %s : f32
  }, {
  }, {
  ^bb0(%j: index, %v: f32):
    credit.yield %v : f32
  }) : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

func.func @combiner_attr(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{combiner list of reduction stage #0 must be an array of #credit.combiner}}
  %r = "credit.rowwise"(%x, %o) <{combiners = [[1 : i32]],
                                 operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>}> ({
  ^bb0(%j: index, %v: f32, %s: f32):
    credit.yield %s : f32
  }, {
  }, {
  ^bb0(%j: index, %v: f32):
    credit.yield %v : f32
  }) : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

func.func @no_combiner(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{reduction stage #0 needs at least one combiner}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [] (%j: index, %v: f32) { credit.yield }
    epilogue (%j: index, %v: f32) { credit.yield %v : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @unknown_combiner(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    // expected-error @+1 {{unknown combiner kind 'mul', expected one of 'add', 'max', 'min', 'addexp', 'sqdev'}}
    reduce [mul] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @sqdev_without_count(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{combiner 'sqdev' #1 of reduction stage #0 needs an 'add' sum and an 'add' count right before it}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add, sqdev] (%j: index, %v: f32) { credit.yield %v, %v : f32, f32 }
    epilogue (%j: index, %v: f32, %s: f32, %q: f32) { credit.yield %q : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @sqdev_count_is_max(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{combiner 'sqdev' #2 of reduction stage #0 needs an 'add' sum and an 'add' count right before it}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add, max, sqdev] (%j: index, %v: f32) { credit.yield %v, %v, %v : f32, f32, f32 }
    epilogue (%j: index, %v: f32, %s: f32, %n: f32, %q: f32) { credit.yield %q : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @sqdev_other_value(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add, add, sqdev] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      %w = arith.mulf %v, %v : f32
      // expected-error @+1 {{combiner 'sqdev' #2 of reduction stage #0 must yield the value its sum (#0) yields}}
      credit.yield %v, %one, %w : f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %n: f32, %q: f32) { credit.yield %q : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @sqdev_count_not_one(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add, add, sqdev] (%j: index, %v: f32) {
      %two = arith.constant 2.0 : f32
      // expected-error @+1 {{combiner 'sqdev' #2 of reduction stage #0 needs its count (#1) to yield 1.0}}
      credit.yield %v, %two, %v : f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %n: f32, %q: f32) { credit.yield %q : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @addexp_without_max(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{combiner 'addexp' #0 of reduction stage #1 needs a 'max' before it to sum relative to}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [addexp, max] (%j: index, %v: f32, %m: f32) { credit.yield %v, %v : f32, f32 }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32, %m2: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @operand_type_count(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'ins' lists 2 operands but 1 types}}
  %r = credit.rowwise ins(%x, %x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @empty_region(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    // expected-error @+1 {{expected a region with arguments and a body}}
    reduce [add] () {}
  return %r : tensor<?x64xf32>
}

// -----

func.func @wide_vector(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{tiling vector width 8 exceeds 16 bytes for 32-bit elements}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 8>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @uncovered_row(%x: tensor<?x65536xf32>, %o: tensor<?x65536xf32>) -> tensor<?x65536xf32> {
  // expected-error @+1 {{tiling covers 16384 elements of a row, but N = 65536}}
  %r = credit.rowwise ins(%x : tensor<?x65536xf32>) outs(%o : tensor<?x65536xf32>)
      attributes {tiling = #credit.tiling<cluster = 4, threads = 256, vector = 4, elems = 16>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x65536xf32>
}

// -----

func.func @reread_needs_no_cover(%x: tensor<?x65536xf32>, %o: tensor<?x65536xf32>) -> tensor<?x65536xf32> {
  %r = credit.rowwise ins(%x : tensor<?x65536xf32>) outs(%o : tensor<?x65536xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 16, staging = reread>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  // expected-error @+1 {{use of undeclared SSA value name}}
  return %undefined : tensor<?x65536xf32>
}

// -----

func.func @two_blocks(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{epilogue must have exactly one block}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      cf.br ^bb1
    ^bb1:
      credit.yield %s : f32
    }
  return %r : tensor<?x64xf32>
}

// -----

func.func @stage_two_blocks(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{region #2 ('stages') failed to verify constraint: region with 1 blocks}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      cf.br ^bb1
    ^bb1:
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @arg_count(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{reduction stage #1 expects 3 arguments, found 2}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @arg_type(%x: tensor<?x64xbf16>, %o: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  // expected-error @+1 {{reduction stage #0 argument #1 has type 'bf16', expected 'f32'}}
  %r = credit.rowwise ins(%x : tensor<?x64xbf16>) outs(%o : tensor<?x64xbf16>)
    reduce [add] (%j: index, %v: bf16) {
      %f = arith.extf %v : bf16 to f32
      credit.yield %f : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xbf16>
}

// -----

func.func @index_arg_type(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{epilogue argument #0 has type 'i32', expected 'index'}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: i32, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @missing_yield(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{reduction stage #0 must end with credit.yield}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { llvm.unreachable }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @stage_yield_count(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add, max] (%j: index, %v: f32) {
      // expected-error @+1 {{yields 1 values, but the reduction stage #0 produces 2}}
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %m: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @stage_yield_type(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      %h = arith.truncf %v : f32 to f16
      // expected-error @+1 {{value #0 has type 'f16', but the reduction stage #0 produces 'f32'}}
      credit.yield %h : f16
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @epilogue_int_output(%x: tensor<?x64xf32>, %o: tensor<?x64xi8>) -> tensor<?x64xi8> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xi8>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %m: f32) {
      // expected-error @+1 {{value #0 has type 'f32', but the epilogue produces 'i8'}}
      credit.yield %v : f32
    }
  return %r : tensor<?x64xi8>
}

// -----

func.func @finalize_yield_count(%x: tensor<?x64xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) scalar_outs(%o : tensor<?xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    finalize (%m: f32) {
      // expected-error @+1 {{yields 2 values, but the finalize produces 1}}
      credit.yield %m, %m : f32, f32
    }
  return %r : tensor<?xf32>
}

// -----

func.func @finalize_args(%x: tensor<?x64xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{finalize expects 1 arguments, found 2}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) scalar_outs(%o : tensor<?xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    finalize (%j: index, %m: f32) { credit.yield %m : f32 }
  return %r : tensor<?xf32>
}

// -----

func.func @memory_effects(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      // expected-error @+1 {{has memory effects, which a credit.rowwise region may not have}}
      %m = memref.alloca() : memref<f32>
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @missing_epilogue(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{expects an 'epilogue' region to compute its row and column-sum outputs}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @missing_finalize(%x: tensor<?x64xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{expects a 'finalize' region to compute its scalar outputs}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) scalar_outs(%o : tensor<?xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
  return %r : tensor<?xf32>
}

// -----

func.func @bad_row_type(%x: tensor<?x64xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{operand #0 must be variadic of 2D tensor of 32-bit float or bfloat16 type or 16-bit float values or 2D memref of 32-bit float or bfloat16 type or 16-bit float values}}
  %r = credit.rowwise ins(%x : tensor<?x64xi32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: i32) { credit.yield %v : i32 }
    epilogue (%j: index, %v: i32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @bad_rank(%x: tensor<2x8x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{operand #0 must be variadic of 2D tensor}}
  %r = credit.rowwise ins(%x : tensor<2x8x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @tensor_result_count(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  "credit.rowwise"(%x, %o) <{combiners = [[#credit.combiner<add>]],
                            operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>}> ({
  ^bb0(%j: index, %v: f32, %s: f32):
    credit.yield %s : f32
  }, {
  }, {
  ^bb0(%j: index, %v: f32):
    credit.yield %v : f32
  }) : (tensor<?x64xf32>, tensor<?x64xf32>) -> ()
  return
}

// -----

func.func @tensor_result_type(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{expected type of operand #1 ('tensor<?x64xf32>') to match type of corresponding result ('tensor<8x64xf32>')}}
  %r = "credit.rowwise"(%x, %o) <{combiners = [[#credit.combiner<add>]],
                                 operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>}> ({
  ^bb0(%j: index, %v: f32, %s: f32):
    credit.yield %s : f32
  }, {
  }, {
  ^bb0(%j: index, %v: f32):
    credit.yield %v : f32
  }) : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{'credit.yield' op expects parent op 'credit.rowwise'}}
  credit.yield
}

// -----

func.func @vector_straddles_row_end(%x: tensor<?x66xf32>, %o: tensor<?x66xf32>) -> tensor<?x66xf32> {
  // expected-error @+1 {{tiling vector width 4 does not divide N = 66, so a vector would cross the row's end}}
  %r = credit.rowwise ins(%x : tensor<?x66xf32>) outs(%o : tensor<?x66xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 4, elems = 4>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x66xf32>
}

// -----

func.func @variant_gap(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{variant #1 starts at 9 rows, expected 8 (variants must cover every row count from 1 in order)}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {variants = [
        #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 32, vector = 2, elems = 2>, min_rows = 1, max_rows = 7>,
        #credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 1, elems = 1>, min_rows = 9, max_rows = 0>]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @variant_unbounded_early(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{variant #0 has no row bound but is not the last}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {variants = [
        #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 32, vector = 2, elems = 2>, min_rows = 1, max_rows = 0>,
        #credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 1, elems = 1>, min_rows = 1, max_rows = 0>]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @variant_bounded_last(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{the last variant must have no row bound (max_rows = 0)}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {variants = [
        #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 32, vector = 2, elems = 2>, min_rows = 1, max_rows = 100>]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @variants_empty(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{variants must list at least one tiling}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {variants = []}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @variant_tiling_checked(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{variant #0 tiling covers 32 elements of a row, but N = 64}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {variants = [
        #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 1>, min_rows = 1, max_rows = 0>]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @column_sums_one_row(%x: tensor<?x64xf32>, %c: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{column-sum outputs need a tiling with one row per CTA}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) colsum_outs(%c : tensor<4x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 2, rows = 2>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<4x64xf32>
}

// -----

// Mixed staging keeps the last row input in registers and the others in
// shared memory: an op with one row input has no others.
func.func @mixed_one_input(%x: tensor<?x4096xbf16>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  // expected-error @+1 {{tiling has mixed staging, which keeps the last row input in registers and the others in shared memory, but the op has one row input (use registers or async staging)}}
  %r = credit.rowwise ins(%x : tensor<?x4096xbf16>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 512, vector = 8, elems = 8, staging = mixed>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %y = arith.subf %v, %s : f32
      credit.yield %y : f32
    }
  return %r : tensor<?x4096xbf16>
}

// -----

func.func @cluster_3(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      // expected-error @+1 {{cluster size must be 1, 2, 4, 8 or 16, got 3}}
      attributes {tiling = #credit.tiling<cluster = 3, threads = 32, vector = 1, elems = 1>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @zero_n(%x: tensor<?x0xf32>, %o: tensor<?x0xf32>) -> tensor<?x0xf32> {
  // expected-error @+1 {{row length N = 0 is out of range: N must be between 1 and 1073741824}}
  %r = credit.rowwise ins(%x : tensor<?x0xf32>) outs(%o : tensor<?x0xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x0xf32>
}

// -----

func.func @huge_n(%x: memref<?x2147483648xf32>, %o: memref<?x2147483648xf32>) {
  // expected-error @+1 {{row length N = 2147483648 is out of range: N must be between 1 and 1073741824}}
  credit.rowwise ins(%x : memref<?x2147483648xf32>) outs(%o : memref<?x2147483648xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return
}

// -----

func.func @no_outputs(%x: tensor<?x64xf32>) {
  // expected-error @+1 {{expects at least one output in 'outs', 'scalar_outs' or 'colsum_outs'}}
  credit.rowwise ins(%x : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
  return
}

// -----

func.func @workload_digit(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{workload name "1abc" must be an identifier ([A-Za-z_][A-Za-z0-9_]*) of at most 64 characters}}
  %r = credit.rowwise "1abc" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @workload_path(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{workload name "../../x" must be an identifier}}
  %r = credit.rowwise "../../x" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @workload_long(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{must be an identifier ([A-Za-z_][A-Za-z0-9_]*) of at most 64 characters}}
  %r = credit.rowwise "a0123456789012345678901234567890123456789012345678901234567890123" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @tiling_type(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{attribute 'tiling' failed to satisfy constraint: how a rowwise op is split over the CTAs of a cluster}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {tiling = 5}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @cost_type(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{attribute 'cost' failed to satisfy constraint}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {cost = "fast"}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @variants_type(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{attribute 'variants' failed to satisfy constraint: array of #credit.variant}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {variants = [1, 2]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

gpu.module @kernels {
  func.func @in_gpu_module(%x: memref<?x64xf32>, %o: memref<?x64xf32>) {
    // expected-error @+1 {{runs on the host: it may not be inside a gpu.module (credit-cluster-tiling builds the kernels)}}
    credit.rowwise ins(%x : memref<?x64xf32>) outs(%o : memref<?x64xf32>)
      reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
      epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
    return
  }
}

// -----

func.func @vector_in_region(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      // expected-error @+1 {{'vector.broadcast' op is not allowed in a credit.rowwise region, which may only use arith, math and scf ops}}
      %t = vector.broadcast %v : f32 to vector<4xf32>
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @nested_rowwise(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      // expected-error @+1 {{'tensor.empty' op is not allowed in a credit.rowwise region}}
      %t = tensor.empty() : tensor<4x64xf32>
      %u = credit.rowwise ins(%t : tensor<4x64xf32>) outs(%t : tensor<4x64xf32>)
        reduce [add] (%k: index, %w: f32) { credit.yield %w : f32 }
        epilogue (%k: index, %w: f32, %s: f32) { credit.yield %s : f32 }
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @vector_arith_in_region(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      // expected-error @+1 {{'arith.constant' op has a result of type 'vector<4xf32>': credit.rowwise regions compute on integers, index, f16, bf16, f32 and f64}}
      %c = arith.constant dense<1.0> : vector<4xf32>
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @f8_in_region(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      // expected-error @+1 {{'arith.truncf' op has a result of type 'f8E4M3FN'}}
      %t = arith.truncf %v : f32 to f8E4M3FN
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @scf_narrow_integer(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %v) -> f32 {
        // expected-error @+1 {{'arith.fptosi' op has a result of type 'i4'}}
        %n = arith.fptosi %a : f32 to i4
        scf.yield %a : f32
      }
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

// expected-error @+1 {{'credit.kernels' entry "../evil" must be an identifier naming a manifest dictionary}}
module attributes {credit.kernels = {"../evil" = {n = 4 : i64}}} {
}

// -----

// expected-error @+1 {{'credit.kernels' on a module must be a dictionary from kernel name to manifest}}
module attributes {credit.kernels = [1]} {
}

// -----

// expected-error @+1 {{unknown credit attribute 'credit.other'}}
module attributes {credit.other = 1} {
}

// -----

// expected-error @+1 {{'credit.kernels' belongs on a module or a credit.rowwise op}}
func.func @kernels_on_func() attributes {credit.kernels = {}} {
  return
}

// -----

func.func @kernels_on_op(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'credit.kernels' on a rowwise op must be an array of kernel symbols}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {credit.kernels = ["k"]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

// expected-error @+1 {{'credit.registers' belongs on a credit.rowwise op}}
func.func @registers_on_func() attributes {credit.registers = []} {
  return
}

// -----

func.func @registers_not_pairs(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'credit.registers' must be an array of [tiling, registers] pairs, got [32, #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 2>]}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {credit.registers = [[32, #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 2>]]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @registers_not_array(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'credit.registers' must be an array of [tiling, registers] pairs}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {credit.registers = {a = 1}}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @registers_out_of_range(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'credit.registers' counts must be from 1 to 255 registers, got 256}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {credit.registers = [[#credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 2>, 256]]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

func.func @registers_twice(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{'credit.registers' names #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 2> twice}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) attributes {credit.registers = [[#credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 2>, 40], [#credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 2, rows = 1>, 41]]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}
