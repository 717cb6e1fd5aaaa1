#!/usr/bin/env python3
"""Drives gantry-launcher's session mode against a dispatcher written here from
docs/task-farms.md ("Session messages on the launcher's wire"), with session-echo-worker as the
worker: answers in order with their bytes intact, a long answer cut at the line limit, a worker
that exits (WORKER_ENDED, then started again by WORKER), a program that cannot start, DONE
ending launcher and worker, and a MESSAGES line holding a line feed refused."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launcher_protocol as lp  # noqa: E402  (the farm test's framing helpers)

WORKER, MESSAGES, ANSWERS, WORKER_ENDED = 7, 8, 9, 10
ECHO = sys.argv[2]


def worker_frame(exe, limit, args=(), env=()):
    p = struct.pack(">I", limit) + lp.s(exe)
    p += struct.pack(">I", len(args)) + b"".join(lp.s(a) for a in args)
    p += struct.pack(">I", len(env)) + b"".join(lp.s(e) for e in env)
    return p


def messages(items):
    p = struct.pack(">I", len(items))
    for mid, line in items:
        p += struct.pack(">Q", mid) + lp.s(line)
    return p


def open_session(limit=4096, exe=None):
    proc, conn = lp.start({})
    lp.handshake(conn)
    lp.send_frame(conn, lp.WELCOME, lp.welcome(0, 100))
    typ, p = lp.recv_frame(conn)
    if typ != lp.REQUEST or p != b"\x00":
        lp.fail("expected the first REQUEST")
    lp.send_frame(conn, WORKER, worker_frame(exe or ECHO, limit))
    return proc, conn


def answers(conn, n):
    got = []
    while len(got) < n:
        typ, p = lp.recv_frame(conn)
        if typ != ANSWERS:
            lp.fail("expected ANSWERS, got %d" % typ)
        r = lp.Reader(p)
        for _ in range(r.u32()):
            got.append((r.u64(), r.u8(), r.bytes()))
        if r.i != len(p):
            lp.fail("trailing bytes in ANSWERS")
    return got


def ended(conn):
    typ, p = lp.recv_frame(conn)
    if typ != WORKER_ENDED:
        lp.fail("expected WORKER_ENDED, got %d" % typ)
    r = lp.Reader(p)
    return r.u8(), r.u32()


def main():
    # answers in order, bytes intact (escapes are the dispatcher's: they pass through)
    proc, conn = open_session(limit=8)
    lines = [b"first", b"a\\nb \\\\ c", b"", "\u00e9t\u00e9".encode(), b"0123456789abcdef"]
    lp.send_frame(conn, MESSAGES, messages(list(enumerate(lines, start=10))))
    got = answers(conn, len(lines))
    want = [(10, 0, b"first"), (11, 1, b"a\\nb \\\\ "), (12, 0, b""),
            (13, 0, "\u00e9t\u00e9".encode()), (14, 1, b"01234567")]
    if got != want:
        lp.fail("answers %r, wanted %r" % (got, want))
    # a worker that exits: its messages are the dispatcher's business, WORKER starts it again
    lp.send_frame(conn, MESSAGES, messages([(20, b"exit 3"), (21, b"never")]))
    if ended(conn) != (0, 3):
        lp.fail("WORKER_ENDED should say exited 3")
    lp.send_frame(conn, WORKER, worker_frame(ECHO, 64))
    lp.send_frame(conn, MESSAGES, messages([(22, b"again")]))
    if answers(conn, 1) != [(22, 0, b"again")]:
        lp.fail("the restarted worker did not answer")
    lp.send_frame(conn, MESSAGES, messages([(23, b"pid")]))
    worker_pid = int(answers(conn, 1)[0][2])
    # heartbeats go on while the relay waits (interval 100 ms): a slow answer's 1.5 s holds ~15
    before = lp.BEATS[0]
    lp.send_frame(conn, MESSAGES, messages([(24, b"sleep 1500 slow")]))
    if answers(conn, 1)[0][0] != 24:
        lp.fail("the slow message was not answered")
    if lp.BEATS[0] - before < 5:
        lp.fail("only %d heartbeats in 1.5 s of relaying (interval 100 ms)" % (lp.BEATS[0] - before))
    lp.send_frame(conn, lp.DONE)
    rc = proc.wait(30)
    if rc != 0:
        lp.fail("launcher exited %d after DONE: %s" % (rc, proc.stderr.read()))
    try:
        os.kill(worker_pid, 0)
        lp.fail("the worker outlived DONE")
    except ProcessLookupError:
        pass
    conn.close()

    # a program that cannot start
    proc, conn = open_session(exe="/no/such/worker")
    if ended(conn) != (3, 2):
        lp.fail("a missing program should end as not started, ENOENT")
    lp.send_frame(conn, lp.DONE)
    if proc.wait(30) != 0:
        lp.fail("launcher without a worker should exit 0 after DONE")
    conn.close()

    # a line holding a line feed would put the worker out of step: refused
    proc, conn = open_session()
    lp.send_frame(conn, MESSAGES, messages([(1, b"two\nlines")]))
    if proc.wait(30) != 3:
        lp.fail("a MESSAGES line with a line feed should end the launcher with 3")
    conn.close()
    print("launcher session mode: ok")


if __name__ == "__main__":
    main()
