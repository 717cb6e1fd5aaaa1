"""Copies an input directory with the data rows of every CSV file in a random order (the
header stays first). usage: permute.py FROM TO"""
import os, random, shutil, sys

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
rnd = random.Random(99)
for name in sorted(os.listdir(src)):
    if not name.endswith(".csv"):
        continue
    lines = open(os.path.join(src, name)).read().splitlines(keepends=True)
    body = lines[1:]
    rnd.shuffle(body)
    open(os.path.join(dst, name), "w").write(lines[0] + "".join(body))
