"""Every workload written with torch operations, from DESIGN.md's
expressions. Given float64 tensors these are the references the GPU tests
and the benchmarks check against; given the storage dtype they are what a
PyTorch user would write (the benchmarks' eager peers, where PyTorch has no
function of its own)."""

import torch


def _sum(t):
    return t.sum(-1, keepdim=True)


def layernorm_bwd(x, dy, gamma, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    rstd = torch.rsqrt(var + eps)
    xhat = (x - mean) * rstd
    dyg = dy * gamma
    return ((dyg - dyg.mean(-1, keepdim=True) -
             xhat * (dyg * xhat).mean(-1, keepdim=True)) * rstd,)


def weighted_var_bwd(x, w, dy):
    isw = 1 / (_sum(w) + 1e-5)
    mean = _sum(w * x) * isw
    d = x - mean
    rstd = torch.rsqrt(_sum(w * d * d) * isw + 1e-5)
    return (rstd * (dy - w * isw * _sum(dy) -
                    w * d * rstd ** 2 * isw * _sum(dy * d)),)


def pearson_bwd(x, y, g):
    xc = x - x.mean(-1, keepdim=True)
    yc = y - y.mean(-1, keepdim=True)
    ix = torch.rsqrt(_sum(xc * xc) + 1e-6)
    iy = torch.rsqrt(_sum(yc * yc) + 1e-6)
    c = _sum(xc * yc)
    g = g.view(-1, 1)
    return (g * (yc * ix * iy - xc * c * ix ** 3 * iy),
            g * (xc * ix * iy - yc * c * ix * iy ** 3))


def softmax_logits_bwd(logits, dy):
    p = torch.softmax(logits, -1)
    return (p * (dy - _sum(p * dy)),)


def lars_momentum(w, grad, m):
    u = 0.9 * m + grad + 0.01 * w
    trust = 0.02 * w.norm(dim=-1, keepdim=True) / (
        u.norm(dim=-1, keepdim=True) + 1e-6)
    return w - 1e-3 * trust * u, u


def rowwise_quant(x):
    amax = x.abs().amax(-1, keepdim=True)
    scaled = x * 127 / amax
    q = torch.where(amax > 0, scaled.round().clamp(-127, 127),
                    torch.zeros_like(x))
    return q, (amax / 127).view(-1), scaled


def softmax(x):
    return (torch.softmax(x, -1),)


def log_softmax(x):
    return (torch.log_softmax(x, -1),)


def layernorm(x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    rstd = torch.rsqrt(var + eps)
    return ((x - mean) * rstd * gamma + beta, mean.view(-1), rstd.view(-1))


def rmsnorm(x, w, eps=1e-6):
    rstd = torch.rsqrt((x * x).mean(-1, keepdim=True) + eps)
    return x * rstd * w, rstd.view(-1)


def rmsnorm_bwd(x, dy, w, rstd):
    rstd = rstd.view(-1, 1)
    xhat = x * rstd
    dyw = dy * w
    dx = rstd * (dyw - xhat * (dyw * xhat).mean(-1, keepdim=True))
    return dx, (dy * xhat).sum(0)


def cross_entropy(logits, target):
    n = logits.shape[-1]
    ignored = target == -100
    safe = torch.where(ignored, torch.zeros_like(target), target)
    lse = torch.logsumexp(logits, -1)
    picked = logits.gather(-1, safe.view(-1, 1)).view(-1)
    loss = torch.where(ignored, torch.zeros_like(lse), lse - picked)
    grad = torch.softmax(logits, -1) - torch.nn.functional.one_hot(
        safe, n).to(logits.dtype)
    grad = torch.where(ignored.view(-1, 1), torch.zeros_like(grad), grad)
    return loss, grad


def l2_normalize(x, eps=1e-12):
    return (x / x.norm(dim=-1, keepdim=True).clamp_min(eps),)
