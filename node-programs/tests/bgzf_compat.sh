# Our blocked gzip is read by gzip -t, zcat and bgzip -d; bgzip's files are read by gio-cat
# (the utility the staging gateway's cross-check runs on its test vectors).
source "$(dirname "$0")/lib.sh"
cd "$WORK"
seq 1 200000 | sed 's/$/,2024-01-02,some text/' > data.csv
for block in 100 16384 65280; do
  "$BIN/tests/gio-write" data.csv ours.gz $block
  gzip -t ours.gz || fail "gzip -t rejects our file (block $block)"
  zcat ours.gz | cmp - data.csv || fail "zcat output differs (block $block)"
  bgzip -d -c ours.gz | cmp - data.csv || fail "bgzip -d output differs (block $block)"
  "$BIN/gio-cat" ours.gz | cmp - data.csv || fail "gio-cat on our file differs"
done
bgzip -c data.csv > theirs.gz
"$BIN/gio-cat" theirs.gz | cmp - data.csv || fail "gio-cat on bgzip's file differs"
"$BIN/gio-cat" data.csv | cmp - data.csv || fail "gio-cat on a plain file differs"
# A file ending exactly at a block boundary, without the EOF block, is reported as cut.
head -c $(( $(stat -c %s theirs.gz) - 28 )) theirs.gz > cut.gz
if "$BIN/gio-cat" cut.gz > /dev/null 2> err.txt; then fail "truncated file accepted"; fi
grep -q "truncated" err.txt || fail "no truncation message: $(cat err.txt)"
# Ordinary gzip is refused with a message saying why.
gzip -c data.csv > plain.gz
if "$BIN/gio-cat" plain.gz > /dev/null 2> err.txt; then fail "plain gzip accepted"; fi
grep -q "not blocked gzip" err.txt || fail "unclear message: $(cat err.txt)"
echo "blocked gzip compatible both ways"
