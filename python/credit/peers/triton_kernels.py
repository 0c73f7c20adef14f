"""The Triton kernels behind credit.peers.triton_rowwise: one `_resident`
and one `_looped` kernel per workload (see that module for what they are).
They import only Triton, so that they compile for sm_90 on a machine without
PyTorch or a GPU (python/tests/test_peers.py does).

Kernel arguments: the row inputs, broadcast and per-row inputs, then the
outputs (as pointers, in the reference's order), then `n` (rows are
contiguous, stride n) and BLOCK, the elements a program handles at once.
"""

import triton
import triton.language as tl
from triton.language.extra import libdevice


# --- Shared pieces ----------------------------------------------------------

@triton.jit
def _row(ptr, base, cols, mask, other: tl.constexpr = 0.0):
    return tl.load(ptr + base + cols, mask=mask, other=other).to(tl.float32)


@triton.jit
def _online_step(m, x):
    """One element per lane into a running max `m`: the new max, the factor
    that rescales the lane's sums, and exp(x - max) (0 while the max is
    -inf)."""
    top = tl.maximum(m, x)
    alive = top != float("-inf")
    alpha = tl.where(alive, tl.exp(m - top), 0.0)
    e = tl.where(alive, tl.exp(x - top), 0.0)
    return top, alpha, e


@triton.jit
def _online_weights(m):
    """The row max of the lanes' maxima and each lane's rescale factor."""
    top = tl.max(m, 0)
    return top, tl.where(m != float("-inf"), tl.exp(m - top), 0.0)


# --- softmax, log_softmax ---------------------------------------------------

@triton.jit
def softmax_resident(x_ptr, y_ptr, n, LOG: tl.constexpr,
                      BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask, float("-inf"))
    z = x - tl.max(x, 0)
    e = tl.exp(z)
    total = tl.sum(e, 0)
    y = z - tl.log(total) if LOG else e / total
    tl.store(y_ptr + base + cols, y, mask=mask)


@triton.jit
def softmax_looped(x_ptr, y_ptr, n, LOG: tl.constexpr, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = _row(x_ptr, base, cols, cols < n, float("-inf"))
        m, alpha, e = _online_step(m, x)
        s = s * alpha + e
    top, weight = _online_weights(m)
    total = tl.sum(s * weight, 0)
    shift = top + tl.log(total)
    inv = 1.0 / total
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(x_ptr, base, cols, mask)
        y = x - shift if LOG else tl.exp(x - top) * inv
        tl.store(y_ptr + base + cols, y, mask=mask)


# --- softmax_logits_bwd -----------------------------------------------------

@triton.jit
def softmax_logits_bwd_resident(l_ptr, dy_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(l_ptr, base, cols, mask, float("-inf"))
    dy = _row(dy_ptr, base, cols, mask)
    e = tl.exp(x - tl.max(x, 0))
    p = e / tl.sum(e, 0)
    dot = tl.sum(p * dy, 0)
    tl.store(dx_ptr + base + cols, p * (dy - dot), mask=mask)


@triton.jit
def softmax_logits_bwd_looped(l_ptr, dy_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    t = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(l_ptr, base, cols, mask, float("-inf"))
        dy = _row(dy_ptr, base, cols, mask)
        m, alpha, e = _online_step(m, x)
        s = s * alpha + e
        t = t * alpha + e * dy
    top, weight = _online_weights(m)
    inv = 1.0 / tl.sum(s * weight, 0)
    dot = tl.sum(t * weight, 0) * inv
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        p = tl.exp(_row(l_ptr, base, cols, mask) - top) * inv
        dy = _row(dy_ptr, base, cols, mask)
        tl.store(dx_ptr + base + cols, p * (dy - dot), mask=mask)


# --- cross_entropy (loss and dlogits, ignore_index -100) --------------------

@triton.jit
def cross_entropy_resident(x_ptr, t_ptr, loss_ptr, dx_ptr, n,
                            BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    target = tl.load(t_ptr + row)
    ignored = target == -100
    x = _row(x_ptr, base, cols, mask, float("-inf"))
    top = tl.max(x, 0)
    e = tl.exp(x - top)
    total = tl.sum(e, 0)
    picked = tl.load(x_ptr + base + tl.where(ignored, 0, target)).to(
        tl.float32)
    loss = tl.log(total) + top - picked
    tl.store(loss_ptr + row, tl.where(ignored, 0.0, loss))
    grad = e / total - tl.where(cols == target, 1.0, 0.0)
    tl.store(dx_ptr + base + cols, tl.where(ignored, 0.0, grad), mask=mask)


@triton.jit
def cross_entropy_looped(x_ptr, t_ptr, loss_ptr, dx_ptr, n,
                          BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    target = tl.load(t_ptr + row)
    ignored = target == -100
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = _row(x_ptr, base, cols, cols < n, float("-inf"))
        m, alpha, e = _online_step(m, x)
        s = s * alpha + e
    top, weight = _online_weights(m)
    total = tl.sum(s * weight, 0)
    picked = tl.load(x_ptr + base + tl.where(ignored, 0, target)).to(
        tl.float32)
    loss = tl.log(total) + top - picked
    tl.store(loss_ptr + row, tl.where(ignored, 0.0, loss))
    inv = 1.0 / total
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        p = tl.exp(_row(x_ptr, base, cols, mask) - top) * inv
        grad = p - tl.where(cols == target, 1.0, 0.0)
        tl.store(dx_ptr + base + cols, tl.where(ignored, 0.0, grad),
                 mask=mask)


# --- layernorm, rmsnorm, l2_normalize ---------------------------------------

@triton.jit
def layernorm_resident(x_ptr, g_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n,
                        BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    mean = tl.sum(x, 0) / n
    d = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, 0) / n + 1e-5)
    g = _row(g_ptr, 0, cols, mask)
    b = _row(b_ptr, 0, cols, mask)
    tl.store(y_ptr + base + cols, d * rstd * g + b, mask=mask)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def layernorm_looped(x_ptr, g_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    sx = tl.zeros([BLOCK], tl.float32)
    sxx = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = _row(x_ptr, base, cols, cols < n)
        sx += x
        sxx += x * x
    mean = tl.sum(sx, 0) / n
    var = tl.maximum(tl.sum(sxx, 0) / n - mean * mean, 0.0)
    rstd = tl.rsqrt(var + 1e-5)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(x_ptr, base, cols, mask)
        y = (x - mean) * rstd * _row(g_ptr, 0, cols, mask) + _row(
            b_ptr, 0, cols, mask)
        tl.store(y_ptr + base + cols, y, mask=mask)


@triton.jit
def rmsnorm_resident(x_ptr, w_ptr, y_ptr, rstd_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    rstd = tl.rsqrt(tl.sum(x * x, 0) / n + 1e-6)
    tl.store(y_ptr + base + cols, x * rstd * _row(w_ptr, 0, cols, mask),
             mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def rmsnorm_looped(x_ptr, w_ptr, y_ptr, rstd_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    sxx = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = _row(x_ptr, base, cols, cols < n)
        sxx += x * x
    rstd = tl.rsqrt(tl.sum(sxx, 0) / n + 1e-6)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(x_ptr, base, cols, mask)
        tl.store(y_ptr + base + cols, x * rstd * _row(w_ptr, 0, cols, mask),
                 mask=mask)


@triton.jit
def l2_normalize_resident(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    norm = tl.maximum(tl.sqrt(tl.sum(x * x, 0)), 1e-12)
    tl.store(y_ptr + base + cols, x / norm, mask=mask)


@triton.jit
def l2_normalize_looped(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    sxx = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = _row(x_ptr, base, cols, cols < n)
        sxx += x * x
    inv = 1.0 / tl.maximum(tl.sqrt(tl.sum(sxx, 0)), 1e-12)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        tl.store(y_ptr + base + cols, _row(x_ptr, base, cols, mask) * inv,
                 mask=mask)


# --- rmsnorm_bwd: dx per row, dw per program (summed by the caller) ---------

@triton.jit
def rmsnorm_bwd_resident(x_ptr, dy_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, m,
                          n, BLOCK: tl.constexpr):
    program = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    w = _row(w_ptr, 0, cols, mask)
    dw = tl.zeros([BLOCK], tl.float32)
    for row in range(program, m, tl.num_programs(0)):
        base = row.to(tl.int64) * n
        r = tl.load(rstd_ptr + row)
        xhat = _row(x_ptr, base, cols, mask) * r
        dy = _row(dy_ptr, base, cols, mask)
        dyw = dy * w
        dot = tl.sum(dyw * xhat, 0) / n
        tl.store(dx_ptr + base + cols, r * (dyw - xhat * dot), mask=mask)
        dw += dy * xhat
    tl.store(dw_ptr + program.to(tl.int64) * n + cols, dw, mask=mask)


@triton.jit
def rmsnorm_bwd_looped(x_ptr, dy_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, m, n,
                        BLOCK: tl.constexpr):
    """dw_ptr's row for this program must start zeroed."""
    program = tl.program_id(0)
    dw_base = program.to(tl.int64) * n
    for row in range(program, m, tl.num_programs(0)):
        base = row.to(tl.int64) * n
        r = tl.load(rstd_ptr + row)
        acc = tl.zeros([BLOCK], tl.float32)
        for start in range(0, n, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n
            acc += (_row(dy_ptr, base, cols, mask) * _row(w_ptr, 0, cols, mask)
                    * _row(x_ptr, base, cols, mask))
        dot = tl.sum(acc, 0) * r / n
        for start in range(0, n, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n
            xhat = _row(x_ptr, base, cols, mask) * r
            dy = _row(dy_ptr, base, cols, mask)
            dyw = dy * _row(w_ptr, 0, cols, mask)
            tl.store(dx_ptr + base + cols, r * (dyw - xhat * dot), mask=mask)
            dw = tl.load(dw_ptr + dw_base + cols, mask=mask)
            tl.store(dw_ptr + dw_base + cols, dw + dy * xhat, mask=mask)


# --- The paper's six --------------------------------------------------------

@triton.jit
def _layernorm_bwd_dx(xhat, dyg, mean_dyg, mean_dyg_xhat, rstd):
    return (dyg - mean_dyg - xhat * mean_dyg_xhat) * rstd


@triton.jit
def layernorm_bwd_resident(x_ptr, dy_ptr, g_ptr, dx_ptr, n,
                            BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    mean = tl.sum(x, 0) / n
    d = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, 0) / n + 1e-5)
    xhat = d * rstd
    dyg = _row(dy_ptr, base, cols, mask) * _row(g_ptr, 0, cols, mask)
    mean_dyg = tl.sum(dyg, 0) / n
    mean_dyg_xhat = tl.sum(dyg * xhat, 0) / n
    dx = _layernorm_bwd_dx(xhat, dyg, mean_dyg, mean_dyg_xhat, rstd)
    tl.store(dx_ptr + base + cols, dx, mask=mask)


@triton.jit
def layernorm_bwd_looped(x_ptr, dy_ptr, g_ptr, dx_ptr, n,
                          BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    sx = tl.zeros([BLOCK], tl.float32)
    sxx = tl.zeros([BLOCK], tl.float32)
    sg = tl.zeros([BLOCK], tl.float32)
    sgx = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(x_ptr, base, cols, mask)
        dyg = _row(dy_ptr, base, cols, mask) * _row(g_ptr, 0, cols, mask)
        sx += x
        sxx += x * x
        sg += dyg
        sgx += dyg * x
    mean = tl.sum(sx, 0) / n
    rstd = tl.rsqrt(tl.maximum(tl.sum(sxx, 0) / n - mean * mean, 0.0) + 1e-5)
    mean_dyg = tl.sum(sg, 0) / n
    mean_dyg_xhat = rstd * (tl.sum(sgx, 0) / n - mean * mean_dyg)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        xhat = (_row(x_ptr, base, cols, mask) - mean) * rstd
        dyg = _row(dy_ptr, base, cols, mask) * _row(g_ptr, 0, cols, mask)
        dx = _layernorm_bwd_dx(xhat, dyg, mean_dyg, mean_dyg_xhat, rstd)
        tl.store(dx_ptr + base + cols, dx, mask=mask)


@triton.jit
def _weighted_var_bwd_dx(d, w, dy, isw, rstd, sum_dy, sum_dyd):
    return rstd * (dy - w * isw * sum_dy - w * d * rstd * rstd * isw * sum_dyd)


@triton.jit
def weighted_var_bwd_resident(x_ptr, w_ptr, dy_ptr, dx_ptr, n,
                               BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    w = _row(w_ptr, base, cols, mask)
    dy = _row(dy_ptr, base, cols, mask)
    isw = 1.0 / (tl.sum(w, 0) + 1e-5)
    mean = tl.sum(w * x, 0) * isw
    d = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(w * d * d, 0) * isw + 1e-5)
    sum_dy = tl.sum(dy, 0)
    sum_dyd = tl.sum(dy * d, 0)
    dx = _weighted_var_bwd_dx(d, w, dy, isw, rstd, sum_dy, sum_dyd)
    tl.store(dx_ptr + base + cols, dx, mask=mask)


@triton.jit
def weighted_var_bwd_looped(x_ptr, w_ptr, dy_ptr, dx_ptr, n,
                             BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    sw = tl.zeros([BLOCK], tl.float32)
    swx = tl.zeros([BLOCK], tl.float32)
    swxx = tl.zeros([BLOCK], tl.float32)
    sdy = tl.zeros([BLOCK], tl.float32)
    sdyx = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(x_ptr, base, cols, mask)
        w = _row(w_ptr, base, cols, mask)
        dy = _row(dy_ptr, base, cols, mask)
        sw += w
        swx += w * x
        swxx += w * x * x
        sdy += dy
        sdyx += dy * x
    total_w = tl.sum(sw, 0)
    total_wx = tl.sum(swx, 0)
    isw = 1.0 / (total_w + 1e-5)
    mean = total_wx * isw
    var = (tl.sum(swxx, 0) - 2.0 * mean * total_wx +
           mean * mean * total_w) * isw
    rstd = tl.rsqrt(tl.maximum(var, 0.0) + 1e-5)
    sum_dy = tl.sum(sdy, 0)
    sum_dyd = tl.sum(sdyx, 0) - mean * sum_dy
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        d = _row(x_ptr, base, cols, mask) - mean
        w = _row(w_ptr, base, cols, mask)
        dy = _row(dy_ptr, base, cols, mask)
        dx = _weighted_var_bwd_dx(d, w, dy, isw, rstd, sum_dy, sum_dyd)
        tl.store(dx_ptr + base + cols, dx, mask=mask)


@triton.jit
def _pearson_coefficients(g, ix, iy, c):
    """dx = yc * a - xc * bx and dy = xc * a - yc * by, from
    dx = g (yc ix iy - xc c ix^3 iy), dy = g (xc ix iy - yc c ix iy^3)."""
    return g * ix * iy, g * c * ix * ix * ix * iy, g * c * ix * iy * iy * iy


@triton.jit
def pearson_bwd_resident(x_ptr, y_ptr, g_ptr, dx_ptr, dy_ptr, n,
                          BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    y = _row(y_ptr, base, cols, mask)
    xc = tl.where(mask, x - tl.sum(x, 0) / n, 0.0)
    yc = tl.where(mask, y - tl.sum(y, 0) / n, 0.0)
    ix = tl.rsqrt(tl.sum(xc * xc, 0) + 1e-6)
    iy = tl.rsqrt(tl.sum(yc * yc, 0) + 1e-6)
    c = tl.sum(xc * yc, 0)
    a, bx, by = _pearson_coefficients(tl.load(g_ptr + row).to(tl.float32),
                                      ix, iy, c)
    tl.store(dx_ptr + base + cols, yc * a - xc * bx, mask=mask)
    tl.store(dy_ptr + base + cols, xc * a - yc * by, mask=mask)


@triton.jit
def pearson_bwd_looped(x_ptr, y_ptr, g_ptr, dx_ptr, dy_ptr, n,
                        BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    sx = tl.zeros([BLOCK], tl.float32)
    sy = tl.zeros([BLOCK], tl.float32)
    sxx = tl.zeros([BLOCK], tl.float32)
    syy = tl.zeros([BLOCK], tl.float32)
    sxy = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        x = _row(x_ptr, base, cols, mask)
        y = _row(y_ptr, base, cols, mask)
        sx += x
        sy += y
        sxx += x * x
        syy += y * y
        sxy += x * y
    total_x = tl.sum(sx, 0)
    total_y = tl.sum(sy, 0)
    mx = total_x / n
    my = total_y / n
    ix = tl.rsqrt(tl.maximum(tl.sum(sxx, 0) - mx * total_x, 0.0) + 1e-6)
    iy = tl.rsqrt(tl.maximum(tl.sum(syy, 0) - my * total_y, 0.0) + 1e-6)
    c = tl.sum(sxy, 0) - mx * total_y
    a, bx, by = _pearson_coefficients(tl.load(g_ptr + row).to(tl.float32),
                                      ix, iy, c)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        xc = _row(x_ptr, base, cols, mask) - mx
        yc = _row(y_ptr, base, cols, mask) - my
        tl.store(dx_ptr + base + cols, yc * a - xc * bx, mask=mask)
        tl.store(dy_ptr + base + cols, xc * a - yc * by, mask=mask)


@triton.jit
def _lars_update(w_ptr, g_ptr, m_ptr, base, cols, mask):
    """w and the momentum update u = 0.9 m + grad + 0.01 w."""
    w = _row(w_ptr, base, cols, mask)
    u = (0.9 * _row(m_ptr, base, cols, mask) + _row(g_ptr, base, cols, mask)
         + 0.01 * w)
    return w, u


@triton.jit
def lars_momentum_resident(w_ptr, g_ptr, m_ptr, w_out_ptr, u_ptr, n,
                            BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    w, u = _lars_update(w_ptr, g_ptr, m_ptr, base, cols, mask)
    trust = 0.02 * tl.sqrt(tl.sum(w * w, 0)) / (tl.sqrt(tl.sum(u * u, 0))
                                               + 1e-6)
    tl.store(w_out_ptr + base + cols, w - 1e-3 * trust * u, mask=mask)
    tl.store(u_ptr + base + cols, u, mask=mask)


@triton.jit
def lars_momentum_looped(w_ptr, g_ptr, m_ptr, w_out_ptr, u_ptr, n,
                          BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * n
    sww = tl.zeros([BLOCK], tl.float32)
    suu = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        w, u = _lars_update(w_ptr, g_ptr, m_ptr, base, cols, mask)
        sww += w * w
        suu += u * u
    trust = 0.02 * tl.sqrt(tl.sum(sww, 0)) / (tl.sqrt(tl.sum(suu, 0)) + 1e-6)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        w, u = _lars_update(w_ptr, g_ptr, m_ptr, base, cols, mask)
        tl.store(w_out_ptr + base + cols, w - 1e-3 * trust * u, mask=mask)
        tl.store(u_ptr + base + cols, u, mask=mask)


@triton.jit
def _quantize(x, amax):
    q = libdevice.rint(x * 127.0 / amax)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    return tl.where(amax > 0, q, 0.0).to(tl.int8)


@triton.jit
def rowwise_quant_resident(x_ptr, q_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = _row(x_ptr, base, cols, mask)
    amax = tl.max(tl.abs(x), 0)
    tl.store(scale_ptr + row, amax / 127.0)
    tl.store(q_ptr + base + cols, _quantize(x, amax), mask=mask)


@triton.jit
def rowwise_quant_looped(x_ptr, q_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * n
    amax = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        amax = tl.maximum(amax, tl.abs(_row(x_ptr, base, cols, cols < n)))
    top = tl.max(amax, 0)
    tl.store(scale_ptr + row, top / 127.0)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n
        tl.store(q_ptr + base + cols,
                 _quantize(_row(x_ptr, base, cols, mask), top), mask=mask)
