"""A function with one linalg.reduce whose dimensions are argv[1] (and the
keyword in a string and a comment)."""
import sys

print(f"""func.func @f(%x: tensor<8x4xf32>, %i: tensor<8xf32>) -> tensor<8xf32> attributes {{note = "linalg.reduce dimensions = [q]"}} {{
  %r = linalg.reduce ins(%x : tensor<8x4xf32>) outs(%i : tensor<8xf32>) dimensions = {sys.argv[1]}
    (%in: f32, %init: f32) {{
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }}
  // linalg.reduce dimensions = [q]
  return %r : tensor<8xf32>
}}""")
