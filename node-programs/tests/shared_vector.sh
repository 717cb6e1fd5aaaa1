# The blocked-gzip test vector in tests/vectors/blocked-gzip, written by the Java staging
# gateway, inflates through the C reader to exactly its plain original: both sides of the
# product agree on the format, not only each with itself.
source "$(dirname "$0")/lib.sh"
VECTORS="$3"
"$BIN/gio-cat" "$VECTORS/factor_history.csv.gz" | cmp - "$VECTORS/factor_history.csv" \
  || fail "gio-cat reads the gateway's vector differently from its original"
# and through the collective reads mcvar uses, in every mode, on 2 ranks
mpi 2 "$BIN/tests/test_read_modes" "$VECTORS/factor_history.csv" "$VECTORS/factor_history.csv.gz" \
  > "$WORK/out.txt" 2>&1 || fail "collective reads of the vector differ: $(cat "$WORK/out.txt")"
echo "the gateway's blocked-gzip vector reads identically through gio"
