"""A function with one linalg.generic whose iterator_types is argv[1], and
the keyword in a string and a comment."""
import sys

print(f"""#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {{note = "linalg.generic iterator_types = [1]"}} {{
  %e = tensor.empty() : tensor<4x4xf32>
  // linalg.generic iterator_types = [1]
  %y = linalg.generic {{indexing_maps = [#id, #id], iterator_types = {sys.argv[1]}}}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {{
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }} -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}}""")
