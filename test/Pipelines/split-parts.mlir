// The two parts of cross_entropy for rows sharded across devices, compiled
// down to PTX; the partial kernel takes the logits and targets and writes three
// values per row; the combine kernel takes them from two shards after the
// targets and writes the loss and the gradient, with no exchange.
// RUN: rm -rf %t && mkdir -p %t
// RUN: credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{split-part=partial cluster-size=1 artifacts-dir=%t/partial})' -o /dev/null
// RUN: cat %t/partial/cross_entropy_partial_*.json | FileCheck %s --check-prefix=PARTIAL
// RUN: credit-opt %s --pass-pipeline='builtin.module(credit-to-ptx{split-part=combine split-shards=2 cluster-size=4 artifacts-dir=%t/combine})' -o /dev/null
// RUN: cat %t/combine/cross_entropy_combine_*.json | FileCheck %s --check-prefix=COMBINE
// RUN: cat %t/combine/cross_entropy_combine_*.ptx | FileCheck %s --check-prefix=PTX

// PARTIAL: "output_dtypes": []
// PARTIAL: "name": "scalar0",
// PARTIAL-NEXT: "role": "scalar_input"
// PARTIAL: "name": "scalar_out0",
// PARTIAL: "name": "scalar_out1",
// PARTIAL: "name": "scalar_out2",
// PARTIAL-NOT: scalar_out3
// PARTIAL: "block_rounds": 1
// PARTIAL: "reread_rounds": 0
// PARTIAL: "scalar_dtypes": [
// PARTIAL-NEXT: "i64"
// PARTIAL-NEXT: ]
// PARTIAL: "workload": "cross_entropy_partial"

// COMBINE: "output_dtypes": [
// COMBINE-NEXT: "bf16"
// COMBINE: "name": "scalar6",
// COMBINE-NOT: "scalar7"
// COMBINE: "name": "scalar_out0",
// COMBINE: "exchange_rounds": 0
// COMBINE: "scalar_dtypes": [
// COMBINE-NEXT: "i64",
// COMBINE-COUNT-5: "f32",
// COMBINE-NEXT: "f32"
// COMBINE-NEXT: ]
// COMBINE: "workload": "cross_entropy_combine"

// A cluster of four CTAs that never exchange anything.
// PTX: .reqnctapercluster 4, 1, 1
// PTX-NOT: barrier.cluster
// PTX-NOT: mapa

func.func @cross_entropy(%logits: tensor<?x8192xbf16>, %target: tensor<?xi64>,
                         %dx0: tensor<?x8192xbf16>, %loss0: tensor<?xf32>)
    -> (tensor<?x8192xbf16>, tensor<?xf32>) {
  %dx, %loss = credit.rowwise "cross_entropy" ins(%logits : tensor<?x8192xbf16>)
      scalars(%target : tensor<?xi64>)
      outs(%dx0 : tensor<?x8192xbf16>) scalar_outs(%loss0 : tensor<?xf32>)
    reduce [max] (%j: index, %v: f32, %t: i64) {
      credit.yield %v : f32
    }
    reduce [add, add] (%j: index, %v: f32, %t: i64, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %t : i64
      %zero = arith.constant 0.0 : f32
      %picked = arith.select %hit, %v, %zero : f32
      credit.yield %e, %picked : f32, f32
    }
    epilogue (%j: index, %v: f32, %t: i64, %max: f32, %sum: f32, %xt: f32) {
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %t : i64
      %oh = arith.select %hit, %one, %zero : f32
      %g = arith.subf %p, %oh : f32
      credit.yield %g : f32
    }
    finalize (%t: i64, %max: f32, %sum: f32, %xt: f32) {
      %lse0 = math.log %sum : f32
      %lse = arith.addf %lse0, %max : f32
      %l = arith.subf %lse, %xt : f32
      credit.yield %l : f32
    }
  return %dx, %loss : tensor<?x8192xbf16>, tensor<?xf32>
}
