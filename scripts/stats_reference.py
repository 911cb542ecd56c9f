#!/usr/bin/env python3
"""Reference values for the unit tests of src/tools/match/stats.rs, computed independently
at 40 digits with mpmath (pip install mpmath): Elo, its 95% interval and the LOS from a
sample, and the generalized SPRT log-likelihood ratio (the likelihood maximized under each
hypothesis' mean, solved with mpmath's root finder rather than bisection), together with
the usual normal approximation N (s1 - s0) (2 mu - s0 - s1) / (2 var) as a second check.
Run: python3 scripts/stats_reference.py
"""
from mpmath import mp, mpf, log, log10, sqrt, erfc, findroot

mp.dps = 40
Z = sqrt(2) * mp.erfinv(mpf("0.95"))
UNSEEN = mpf("0.001")  # the count given to outcomes never observed, as in stats.rs
TRI = [0, mpf(1) / 2, 1]
PENTA = [0, mpf(1) / 4, mpf(1) / 2, mpf(3) / 4, 1]


def elo(s):
    return -400 * log10(1 / s - 1)


def score(e):
    return 1 / (1 + mpf(10) ** (-mpf(e) / 400))


def moments(values, counts):
    n = sum(counts)
    mu = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mu) ** 2 for v, c in zip(values, counts)) / n
    return n, mu, var


def estimate(values, counts):
    n, mu, var = moments(values, counts)
    se = sqrt(var / n)
    margin = (elo(mu + Z * se) - elo(mu - Z * se)) / 2
    los = erfc(-(mu - mpf(1) / 2) / se / sqrt(2)) / 2
    return elo(mu), margin, los


def max_ll(values, counts, s):
    n = sum(counts)
    f = [c / n for c in counts]
    d = [v - s for v in values]
    g = lambda l: sum(fi * di / (1 + l * di) for fi, di in zip(f, d))
    try:
        lam = findroot(g, mpf(0))  # the secant method from lambda = 0
    except ValueError:
        # Near a pole (an outcome barely seen) the secant method strays: bracket the
        # root between the poles instead.
        lo, hi = -1 / max(d), -1 / min(d)
        shrink = 1 - mpf(10) ** -30
        lam = findroot(g, (lo * shrink, hi * shrink), solver="bisect", verify=False)
    return sum(c * log(fi / (1 + lam * di)) for c, fi, di in zip(counts, f, d))


def llr(values, counts, e0, e1):
    counts = [max(mpf(c), UNSEEN) for c in counts]
    return max_ll(values, counts, score(e1)) - max_ll(values, counts, score(e0))


def approx_llr(values, counts, e0, e1):
    n, mu, var = moments(values, counts)
    s0, s1 = score(e0), score(e1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


def show(label, *xs):
    print(label, " ".join(mp.nstr(x, 15) for x in xs))


for x in ["0.5", "1", "2.5", "3.5", "-1"]:
    show(f"erfc({x})", erfc(mpf(x)))
show("trinomial L40 D100 W60: elo margin los", *estimate(TRI, [40, 100, 60]))
show("trinomial L40 D100 W60: llr[0,5] llr[-5,5]",
     llr(TRI, [40, 100, 60], 0, 5), llr(TRI, [40, 100, 60], -5, 5))
show("pentanomial 10 50 100 70 20: elo margin los", *estimate(PENTA, [10, 50, 100, 70, 20]))
show("pentanomial 10 50 100 70 20: llr[0,5] approx",
     llr(PENTA, [10, 50, 100, 70, 20], 0, 5), approx_llr(PENTA, [10, 50, 100, 70, 20], 0, 5))
show("trinomial W4307 L4063 D8620: llr[0,3] approx",
     llr(TRI, [4063, 8620, 4307], 0, 3), approx_llr(TRI, [4063, 8620, 4307], 0, 3))
show("pentanomial 0 30 60 30 5: llr[0,10]", llr(PENTA, [0, 30, 60, 30, 5], 0, 10))
show("pentanomial 1000 5000 10000 5500 1100: llr[0,2] approx",
     llr(PENTA, [1000, 5000, 10000, 5500, 1100], 0, 2),
     approx_llr(PENTA, [1000, 5000, 10000, 5500, 1100], 0, 2))
show("trinomial W3 only: llr[0,5]", llr(TRI, [0, 0, 3], 0, 5))
show("bounds alpha=beta=0.05", log(mpf("0.05") / mpf("0.95")), log(mpf("0.95") / mpf("0.05")))
