#!/usr/bin/env python3
"""Drives gantry-launcher against a dispatcher written here from docs/task-farms.md (protocol 2),
so the C side is held to the documented wire format, not to the Java dispatcher's reading of it.

Checks: exit code, signal, wall-time kill, exec failure, bounded output (the last bytes), task
environment, the secret never reaching a task (environment or /proc), a wrong secret refused,
a secret file with loose permissions refused, a launcher killed mid-task taking its task
down with it, heartbeats at the interval WELCOME names while a task runs, and a WELCOME of
another version or with an interval out of range refused (status 3)."""
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

LAUNCHER = sys.argv[1]
SECRET = "s3cr3t-" + os.urandom(8).hex()
HELLO, WELCOME, REFUSE, REQUEST, TASK, DONE = 1, 2, 3, 4, 5, 6
HEARTBEAT = 11
VERSION = 2
BEATS = [0]  # HEARTBEAT frames received so far (recv_frame takes them out of the stream)


def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def recv_exact(c, n):
    b = b""
    while len(b) < n:
        chunk = c.recv(n - len(b))
        if not chunk:
            raise EOFError("peer closed")
        b += chunk
    return b


def recv_frame(c):
    """The next frame that is not a HEARTBEAT (those are counted in BEATS and must be empty)."""
    while True:
        (n,) = struct.unpack(">I", recv_exact(c, 4))
        p = recv_exact(c, n)
        if p[0] != HEARTBEAT:
            return p[0], p[1:]
        if n != 1:
            fail("a HEARTBEAT with %d bytes of fields" % (n - 1))
        BEATS[0] += 1


def welcome(limit, beat_ms=2000, version=VERSION):
    return struct.pack(">III", version, limit, beat_ms)


def send_frame(c, typ, payload=b""):
    body = bytes([typ]) + payload
    c.sendall(struct.pack(">I", len(body)) + body)


def s(x):
    x = x.encode() if isinstance(x, str) else x
    return struct.pack(">I", len(x)) + x


class Reader:
    def __init__(self, b):
        self.b, self.i = b, 0

    def u8(self):
        self.i += 1
        return self.b[self.i - 1]

    def u32(self):
        self.i += 4
        return struct.unpack(">I", self.b[self.i - 4:self.i])[0]

    def u64(self):
        self.i += 8
        return struct.unpack(">Q", self.b[self.i - 8:self.i])[0]

    def bytes(self):
        n = self.u32()
        self.i += n
        return self.b[self.i - n:self.i]


def task_frame(tid, exe, args, env=(), wall_ms=0):
    p = struct.pack(">QIQ", tid, 1, wall_ms) + s(exe)
    p += struct.pack(">I", len(args)) + b"".join(s(a) for a in args)
    p += struct.pack(">I", len(env)) + b"".join(s(e) for e in env)
    return p


def start(env_extra, secret_env=True):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    env = {"PATH": "/usr/bin:/bin", "GANTRY_FARM_DISPATCHER": "127.0.0.1:%d" % srv.getsockname()[1]}
    if secret_env:
        env["GANTRY_FARM_SECRET"] = SECRET
    env.update(env_extra)
    proc = subprocess.Popen([LAUNCHER], env=env, stderr=subprocess.PIPE)
    srv.settimeout(30)
    conn, _ = srv.accept()
    conn.settimeout(30)
    srv.close()
    return proc, conn


def handshake(conn, limit=4096):
    typ, p = recv_frame(conn)
    r = Reader(p)
    if typ != HELLO or r.u32() != VERSION:
        fail("no HELLO of protocol %d" % VERSION)
    secret = r.bytes().decode()
    host = r.bytes().decode()
    pid = r.u32()
    return secret, host, pid


def run_tasks(tasks, limit=4096, beat_ms=2000):
    """Runs the tasks on one launcher; returns their results, the launcher's pid and how many
    heartbeats arrived while each task ran."""
    proc, conn = start({})
    secret, host, pid = handshake(conn)
    if secret != SECRET or pid != proc.pid or not host:
        fail("HELLO carried secret/pid/host %r/%r/%r" % (secret == SECRET, pid, host))
    send_frame(conn, WELCOME, welcome(limit, beat_ms))
    results = {}
    beats = {}
    pending = list(tasks)
    while True:
        typ, p = recv_frame(conn)
        if typ != REQUEST:
            fail("expected REQUEST, got %d" % typ)
        r = Reader(p)
        if r.u8():
            tid, attempt, how, code = r.u64(), r.u32(), r.u8(), r.u32()
            start_ms, dur_us, out = r.u64(), r.u64(), r.bytes()
            if r.i != len(p):
                fail("trailing bytes in REQUEST")
            results[tid] = (how, code, out, start_ms, dur_us, attempt)
            beats[tid] = BEATS[0] - beats_before
        if not pending:
            send_frame(conn, DONE)
            break
        beats_before = BEATS[0]
        send_frame(conn, TASK, pending.pop(0))
    rc = proc.wait(30)
    if rc != 0:
        fail("launcher exited %d after DONE: %s" % (rc, proc.stderr.read()))
    return results, pid, beats


def main():
    big = "x" * 10000 + "TAIL"
    results, launcher_pid, beats = run_tasks([
        task_frame(1, "/bin/echo", ["hello", "two words"]),
        task_frame(2, "sh", ["-c", "exit 3"]),
        task_frame(3, "sh", ["-c", "kill -SEGV $$"]),
        task_frame(4, "sleep", ["30"], wall_ms=300),
        task_frame(5, "/nonexistent/program", []),
        task_frame(6, "printf", ["%s", big]),
        task_frame(7, "sh", ["-c", 'echo "$PRICE_ID:${GANTRY_FARM_SECRET-unset}"'], env=["PRICE_ID=ABC=1"]),
        task_frame(8, "sh", ["-c", 'cat /proc/$PPID/environ /proc/$PPID/cmdline | tr "\\0" "\\n"']),
        task_frame(9, "sh", ["-c", "trap '' TERM; sleep 30"], wall_ms=200),
        task_frame(10, "sleep", ["1.5"]),
    ], beat_ms=100)
    now_ms = time.time() * 1000
    expect = {1: (0, 0, b"hello two words\n"), 2: (0, 3, b""), 3: (1, 11, b""),
              5: (3, 2, b""), 7: (0, 0, b"ABC=1:unset\n")}
    for tid, (how, code, out) in expect.items():
        got = results[tid][:3]
        if got != (how, code, out):
            fail("task %d: expected %r, got %r" % (tid, (how, code, out), got))
    how, code, _, start_ms, dur_us, _ = results[4]
    if how != 2 or code != signal.SIGTERM or not (250_000 <= dur_us < 10_000_000):
        fail("task 4 over its wall time: %r" % (results[4],))
    if abs(start_ms - now_ms) > 120_000:
        fail("start time is not Unix milliseconds: %d" % start_ms)
    how, code = results[9][:2]
    if how != 2 or code != signal.SIGKILL:
        fail("task 9 ignoring SIGTERM must end with SIGKILL after the grace: %r" % (results[9],))
    out = results[6][2]
    if len(out) != 4096 or not out.endswith(b"TAIL"):
        fail("output must be the last 4096 bytes, got %d ending %r" % (len(out), out[-8:]))
    if SECRET.encode() in results[8][2] or b"GANTRY_FARM_SECRET=" + SECRET.encode() in results[8][2]:
        fail("the secret is visible in the launcher's /proc environ or cmdline")
    # a task of 1.5 s with a 100 ms interval: about 15 beats, at least 5 even on a loaded machine
    if beats[10] < 5:
        fail("only %d heartbeats while a 1.5 s task ran (interval 100 ms)" % beats[10])
    print("tasks: ok (%d heartbeats during the 1.5 s task)" % beats[10])

    # a wrong secret: the dispatcher refuses; the launcher says why and exits 2
    proc, conn = start({})
    handshake(conn)
    send_frame(conn, REFUSE, s("wrong secret"))
    rc = proc.wait(30)
    err = proc.stderr.read().decode()
    if rc != 2 or "wrong secret" not in err:
        fail("refused launcher: rc %d, stderr %r" % (rc, err))
    print("refused: ok")

    # a secret file readable by others is refused before connecting
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "secret")
        with open(f, "w") as fh:
            fh.write(SECRET + "\n")
        os.chmod(f, 0o644)
        env = {"GANTRY_FARM_DISPATCHER": "127.0.0.1:9", "GANTRY_FARM_SECRET_FILE": f}
        p = subprocess.run([LAUNCHER], env=env, stderr=subprocess.PIPE)
        if p.returncode != 2 or b"0600" not in p.stderr:
            fail("a 0644 secret file was not refused: %d %r" % (p.returncode, p.stderr))
        os.chmod(f, 0o600)
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        env["GANTRY_FARM_DISPATCHER"] = "127.0.0.1:%d" % srv.getsockname()[1]
        proc = subprocess.Popen([LAUNCHER], env=env, stderr=subprocess.PIPE)
        conn, _ = srv.accept()
        conn.settimeout(30)
        secret, _, _ = handshake(conn)
        if secret != SECRET:
            fail("secret file not read (trailing newline must be dropped): %r" % secret)
        send_frame(conn, WELCOME, welcome(4096))
        recv_frame(conn)
        send_frame(conn, DONE)
        if proc.wait(30) != 0:
            fail("secret-file launcher did not finish")
    print("secret file: ok")

    # the launcher killed with -9 mid-task: the connection drops and the task dies with it
    with tempfile.TemporaryDirectory() as d:
        marker = os.path.join(d, "pid")
        proc, conn = start({})
        handshake(conn)
        send_frame(conn, WELCOME, welcome(4096))
        recv_frame(conn)
        send_frame(conn, TASK, task_frame(1, "sh", ["-c", 'echo $$ > %s; exec sleep 60' % marker]))
        deadline = time.time() + 30
        while not (os.path.exists(marker) and open(marker).read().strip()):
            if time.time() > deadline:
                fail("task never started")
            time.sleep(0.02)
        task_pid = int(open(marker).read())
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        try:
            recv_frame(conn)
            fail("the dispatcher should see the connection end")
        except (EOFError, ConnectionResetError):
            pass
        deadline = time.time() + 30
        while os.path.exists("/proc/%d" % task_pid) and open("/proc/%d/stat" % task_pid).read().split()[2] != "Z":
            if time.time() > deadline:
                fail("the task outlived its killed launcher")
            time.sleep(0.02)
    print("launcher killed: ok")

    # a frame outside the protocol: the launcher stops with status 3
    proc, conn = start({})
    handshake(conn)
    send_frame(conn, WELCOME, welcome(4096))
    recv_frame(conn)
    send_frame(conn, TASK, b"\x00\x01")
    if proc.wait(30) != 3:
        fail("a truncated TASK was not refused with status 3")
    # a WELCOME of protocol 1 (no heartbeat interval), or with an interval out of range
    for bad in (struct.pack(">II", 1, 4096), welcome(4096, version=1), welcome(4096, beat_ms=0),
                welcome(4096, beat_ms=60001), welcome(4096) + b"\x00"):
        proc, conn = start({})
        handshake(conn)
        send_frame(conn, WELCOME, bad)
        rc = proc.wait(30)
        err = proc.stderr.read().decode()
        if rc != 3 or "outside protocol 2" not in err:
            fail("WELCOME %r: rc %d, stderr %r" % (bad.hex(), rc, err))
        conn.close()
    print("protocol errors: ok")


if __name__ == "__main__":  # launcher_session.py imports the framing helpers
    main()
