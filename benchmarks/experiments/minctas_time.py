"""Experiment of 2026-11-29: times CREDIT's default kernels (c0) from each
library given (e.g. artifacts/bench artifacts/exp/occ32 ...), each in its
own process, with the benchmark's CUDA-graph timing and a float64 check;
prints microseconds (and relative error) per point and library.
"""
import json, math, os, subprocess, sys
libs = sys.argv[1:]
points = [("layernorm", "bf16", 32768, 4096), ("cross_entropy", "bf16", 32768, 4096),
          ("rmsnorm", "bf16", 32768, 4096), ("softmax", "bf16", 32768, 4096)]
points += [(w, "f32", 2048 if w == "layernorm_bwd" else 4096, n)
           for w in ("layernorm_bwd", "weighted_var_bwd", "pearson_bwd",
                     "softmax_logits_bwd", "lars_momentum", "rowwise_quant") for n in (4096, 8192, 16384)]
if os.environ.get("CHILD"):
    import torch
    from credit import bench, suites
    refs = bench._references()
    out = {}
    for w, d, m, n in points:
        torch.manual_seed(n + m)
        p = suites.Point(w, d, m, n)
        args = bench._inputs(p, torch)
        fn = bench._credit_fn(w)
        ref = refs[w](*[a.double() if a.is_floating_point() else a for a in args])
        err = bench._error(fn(*args), ref)
        nbytes = sum(t.numel() * t.element_size() for t in args)
        sets = [args] + [bench._inputs(p, torch) for _ in range(max(1, min(32, math.ceil((256 << 20) / nbytes))) - 1)]
        t = bench.time_graph(torch, fn, sets)
        out[f"{w} {d} {m}x{n}"] = (t * 1e3, err)
        del sets, args
        torch.cuda.empty_cache()
    print("RESULT " + json.dumps(out))
else:
    table = {}
    for lib in libs:
        env = dict(os.environ, CHILD="1", CREDIT_ARTIFACTS=os.path.abspath(lib))
        res = subprocess.run([sys.executable, __file__], env=env, capture_output=True, text=True)
        line = [l for l in res.stdout.splitlines() if l.startswith("RESULT ")]
        if not line:
            print(lib, "FAILED", res.stderr[-2000:]); continue
        table[lib] = json.loads(line[0][7:])
    keys = list(next(iter(table.values())))
    print("point".ljust(34) + "".join(os.path.basename(l).rjust(16) for l in table))
    for k in keys:
        print(k.ljust(34) + "".join(f"{table[l][k][0]:9.1f} ({table[l][k][1]:.0e})".rjust(16) for l in table))
