"""Experiment of 2026-11-29 (benchmarks/RESULTS.md, "Capping registers"):
CREDIT's default short-row kernels re-assembled with `.minnctapersm K`, so
that ptxas caps registers for 32, 48 or 64 resident warps per SM. Run from
the repository root after building artifacts/bench; writes
artifacts/exp/occ{32,48,64} (libraries with just those kernels) and prints
registers and spill bytes. Time them with minctas_time.py on the GPU.
"""
import json, math, os, re, shutil, subprocess
src = "artifacts/bench"
points = [("layernorm", "bf16", 4096), ("cross_entropy", "bf16", 4096),
          ("rmsnorm", "bf16", 4096), ("softmax", "bf16", 4096)]
points += [(w, "f32", n) for w in ("layernorm_bwd", "weighted_var_bwd", "pearson_bwd",
           "softmax_logits_bwd", "lars_momentum", "rowwise_quant") for n in (4096, 8192, 16384)]
index = json.load(open(f"{src}/library.json"))["requests"]
for target in (32, 48, 64):  # resident warps per SM wanted
    out = f"artifacts/exp/occ{target}"
    shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
    kept = []
    for e in index:
        r = e["request"]
        if (r["workload"], r["dtype"], r["n"]) not in points or r["cluster"] != 0:
            continue
        d = f"{out}/{e['directory']}"
        shutil.copytree(f"{src}/{e['directory']}", d)
        kept.append(e)
        for ptx in [f for f in os.listdir(d) if f.endswith(".ptx")]:
            text = open(f"{d}/{ptx}").read()
            threads = int(re.search(r"\.maxntid (\d+)", text).group(1))
            k = math.ceil(target / (threads // 32))
            if k > 1:
                text = re.sub(r"(\.maxntid \d+, 1, 1\n)", rf"\1.minnctapersm {k}\n", text)
                open(f"{d}/{ptx}", "w").write(text)
            res = subprocess.run(["ptxas", "-arch=sm_90", "-v", f"{d}/{ptx}", "-o", f"{d}/{ptx[:-4]}.cubin"],
                                 capture_output=True, text=True, check=True)
            regs = re.search(r"Used (\d+) registers", res.stderr).group(1)
            spill = re.search(r"(\d+) bytes spill stores", res.stderr).group(1)
            print(target, ptx, "threads", threads, "minnctapersm", k, "regs", regs, "spill", spill)
    json.dump({"requests": kept}, open(f"{out}/library.json", "w"))
