"""A function with one linalg op (argv[1]: reduce, broadcast, transpose)
whose integer list is argv[2], and the keywords in a string and a
comment."""
import sys

op, values = sys.argv[1], sys.argv[2]
body = {
    "reduce": f"""%r = linalg.reduce ins(%x : tensor<8x4xf32>) outs(%i : tensor<8xf32>) dimensions = {values}
    (%in: f32, %init: f32) {{
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }}""",
    "broadcast": f"%r = linalg.broadcast ins(%i : tensor<8xf32>) outs(%x : tensor<8x4xf32>) dimensions = {values}",
    "transpose": f"%r = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%t : tensor<4x8xf32>) permutation = {values}",
}[op]
print(f"""func.func @f(%x: tensor<8x4xf32>, %i: tensor<8xf32>, %t: tensor<4x8xf32>) attributes {{note = "linalg.reduce dimensions = [q]"}} {{
  {body}
  // linalg.transpose permutation = [q]
  return
}}""")
