# mcvar --help documents every input file's columns and every option.
source "$(dirname "$0")/lib.sh"
mpi 1 "$BIN/mcvar" --help > "$WORK/help.txt"
for word in factor_id kind level as_of factor_i factor_j covariance position_id instrument \
    rate_factor_id quantity strike maturity_years volatility scenarios horizon_days \
    confidence_levels method dof seed histogram_bins mc-normal mc-student-t historical \
    --factors --history --covariance --positions --params --out-dir --run-id --read-mode \
    --access-ranks --phase2 --buffer-size --compress-output --block-size --timings \
    var_summary.csv pnl_distribution.csv contributions.csv expected_shortfall \
    currency quote return_type shift curve tenor_years node foreign_rate_factor_id \
    vol_factor_id cash fx-forward base_currency business_date lookback_days ewma_lambda \
    stress_from stress_to stress_window_days max_move_sigmas stale_days max_volatility \
    max_rate on_bad_data node_contributions.csv tail_scenarios.csv run.csv run_inputs.csv \
    data_quality.csv node_pnl.csv.gz what_if.csv --what-if var_stderr es_stderr \
    diversification_var marginal_var --progress --target-rse stopping.csv target_rse \
    checkpoint_scenarios target_nodes --follow-inputs --follow-timeout --scenarios-out \
    --scenarios-in --aggregate; do
  grep -q -- "$word" "$WORK/help.txt" || fail "--help does not mention $word"
done
if mpi 1 "$BIN/mcvar" --factors x 2> "$WORK/err.txt"; then fail "missing options accepted"; fi
grep -q "required\|exactly one" "$WORK/err.txt" || fail "unclear usage error: $(cat "$WORK/err.txt")"
echo "help complete"
