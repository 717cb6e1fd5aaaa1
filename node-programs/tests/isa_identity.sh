# Every instruction-set path of the vector kernels and the pricing loops (MCVAR_ISA: baseline
# x86-64, AVX2, AVX-512, those this CPU has) gives byte-identical outputs for a book of options
# (Black-Scholes and Garman-Kohlhagen), zero-coupon bonds, spot and an fx conversion, Monte
# Carlo normal and historical: ranks on different CPUs agree.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
mkdir in
"$BIN/mcvar-gen" --out-dir in --factors 12 --days 80 --positions 300 --option-share 0.4 \
  --scenarios 3000 --seed 5 > /dev/null
# an EUR book beside the USD one: EURUSD, an EUR rate, a Garman-Kohlhagen option, an EUR zcb
printf 'EURUSD,fx,1.08,USD,EURUSD,log\nRATE-EUR,rate,0.02,EUR,,absolute\n' >> in/factors.csv
# their history: a deterministic wiggle on every date of the generated one, ending at today's level
"$PYTHON" - in/history.csv <<'PY'
import math, sys
dates = sorted({l.split(",")[0] for l in open(sys.argv[1]).read().split("\n")[1:] if l})
with open(sys.argv[1], "a") as f:
    for i, d in enumerate(dates):
        w = math.sin(1.7 * i) * math.cos(0.3 * i) * (len(dates) - 1 - i) / len(dates)
        f.write(f"{d},EURUSD,{1.08 * (1 + w / 50):.6f}\n{d},RATE-EUR,{0.02 + w / 500:.6f}\n")
PY
head -1 in/positions.csv | grep -q foreign_rate_factor_id || \
  sed -i '1s/$/,foreign_rate_factor_id,currency/; 2,$s/$/,,/' in/positions.csv
hdr=$(head -1 in/positions.csv)
row() { # id node instrument factor rate qty strike maturity vol frate ccy, in the header's order
  "$PYTHON" - "$hdr" "$@" <<'PY'
import sys
cols = sys.argv[1].split(",")
vals = dict(zip(["position_id", "node", "instrument", "factor_id", "rate_factor_id", "quantity",
                 "strike", "maturity_years", "volatility", "foreign_rate_factor_id", "currency"],
                sys.argv[2:]))
print(",".join(vals.get(c, "") for c in cols))
PY
}
{ row GK1 BANK/FX/EUR call EURUSD F00001 1000000 1.10 0.5 0.09 RATE-EUR USD
  row GK2 BANK/FX/EUR put EURUSD F00001 -500000 1.05 1.5 0.11 RATE-EUR USD
  row Z-EUR BANK/FX/EUR zcb "" RATE-EUR 2000000 "" 3 "" "" EUR; } >> in/positions.csv
for method in mc-normal historical; do
  sed "/^method,/d" in/params.csv > "in/params-$method.csv"
  echo "method,$method" >> "in/params-$method.csv"
  ref=""
  for isa in baseline avx2 avx512; do
    out="out-$method-$isa"
    mkdir "$out"
    MCVAR_ISA=$isa mpi 1 "$BIN/mcvar" --factors in/factors.csv --history in/history.csv \
      --positions in/positions.csv --params "in/params-$method.csv" --out-dir "$out" \
      > "$out.log" 2>&1 || fail "mcvar ($method, $isa) failed: $(cat "$out.log")"
    if grep -q "MCVAR_ISA=$isa is not" "$out.log"; then
      echo "this CPU has no $isa: its path not compared"
      rm -rf "$out"
      continue
    fi
    if [ -z "$ref" ]; then ref="$out"; continue; fi
    for f in "$ref"/*; do
      cmp -s "$f" "$out/$(basename "$f")" || fail "$method: $isa's $(basename "$f") differs from $ref's"
    done
    echo "$method: $isa gives the bytes of $ref"
  done
done
