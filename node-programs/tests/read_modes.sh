# All collective read modes deliver identical bytes on every rank, for plain files, our
# blocked gzip and bgzip's, including a 0-byte file, one line, no final newline and a line
# longer than the buffer.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
: > empty.txt
echo "only,one,line" > one.txt
printf 'a,b\n1,2\nno,final,newline' > nofinal.txt
{ echo "head"; head -c 300000 /dev/zero | tr '\0' 'L'; echo; echo "tail"; } > longline.txt
seq 1 60000 | sed 's/$/,x,y,z/' > multi.txt
set --
for f in empty one nofinal longline multi; do
  bgzip -c "$f.txt" > "$f.bgzip.gz"
  "$BIN/tests/gio-write" "$f.txt" "$f.gio.gz" 1000   # small blocks: many per round
  set -- "$@" -- "$f.txt" "$f.txt" "$f.bgzip.gz" "$f.gio.gz"
done
mpi 3 "$BIN/tests/test_read_modes" "${@:2}"
mpi 4 "$BIN/tests/test_read_modes" "${@:2}"
# The counters: two-phase and root read each byte from the file system once in total,
# naive and mpiio once per rank.
for f in multi.txt multi.gio.gz; do
  size=$(stat -c %s "$f")
  for mode in naive root mpiio two-phase; do
    fs=$(mpi 3 "$BIN/gio-cat" --read-mode "$mode" --discard --stats --buffer-size 65536 "$f" 2>&1 \
         | sed -n 's/^fs_bytes_total: //p')
    want=$size; case "$mode" in naive|mpiio) want=$((3 * size));; esac
    [ "$fs" = "$want" ] || fail "$mode on $f read $fs file-system bytes, want $want"
  done
done
echo "file-system byte counts as designed"
