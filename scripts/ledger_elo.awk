# The totals of a `sitke match -ledger` file, on one line:
#   ELO GAMES WINS LOSSES DRAWS ESTIMATE
# ESTIMATE is the Elo over game pairs with half its 95% interval, as `sitke match` estimates it
# (src/tools/match/stats.rs: the mean pair score's standard error, both ends of the interval
# mapped to Elo): "+x +/- y", "+x +/- inf" where the interval reaches a 0% or 100% score, or
# "n/a" at a 0% or 100% score itself. ELO is the estimate as a number (+-800 at 0% or 100%),
# for sums such as the level ladder's. A ledger with no finished pair fails (exit 1).
# Used by scripts/strength.sh and scripts/levels.sh: awk -f scripts/ledger_elo.awk LEDGER
function elo(s) { return -400 * log(1 / s - 1) / log(10) }
!/^#/ {
  for (i = 1; i <= NF; i++) {
    split($i, kv, "=")
    if (kv[1] == "wins") w += kv[2]
    if (kv[1] == "draws") d += kv[2]
    if (kv[1] == "losses") l += kv[2]
    if (kv[1] == "ptnml") { split(kv[2], p, ","); for (j = 1; j <= 5; j++) c[j] += p[j] }
  }
}
END {
  for (j = 1; j <= 5; j++) { n += c[j]; m += c[j] * (j - 1) / 4 }
  if (n == 0) exit 1
  m /= n
  for (j = 1; j <= 5; j++) v += c[j] * ((j - 1) / 4 - m) ^ 2
  se = sqrt(v / n / n); lo = m - 1.96 * se; hi = m + 1.96 * se
  if (m <= 0 || m >= 1) { x = (m >= 1) ? 800 : -800; e = "n/a" }
  else {
    x = elo(m)
    e = (lo <= 0 || hi >= 1) ? sprintf("%+.1f +/- inf", x) : sprintf("%+.1f +/- %.1f", x, (elo(hi) - elo(lo)) / 2)
  }
  printf "%.1f %d %d %d %d %s\n", x, w + d + l, w, l, d, e
}
