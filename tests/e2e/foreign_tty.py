#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A terminal that the command's user cannot open, as after `su` or
`sudo -u USER` from root's terminal with stdin piped: the slave of a pty
that root opened (mode 0600) becomes ARGV's stdout and stderr, stdin is a
pipe.  What reaches the terminal is written to OUT_FILE (the pty is raw:
bytes as written, no \\r\\n); the exit status is ARGV's.

    foreign_tty.py [--term-after BYTES | --hold] OUT_FILE -- ARGV...

Run as root; ARGV drops to the test user itself (setpriv ... env ...
ltd-native, each exec'ing the next: ARGV's pid is the launcher's).
Right after the start "typed-by-user" is typed into the terminal: a
command that could read it would get it.  stdin gets one line, "piped".

--term-after BYTES: SIGTERM to ARGV once BYTES have reached the terminal,
which is slow to read (4 KiB a millisecond).
--hold: stdin gets its line only once a line "go" has reached the
terminal; then the terminal's output is stopped (as with Ctrl-S) until
the launcher's child (the cage's init, or the process exec started) has
ended: what the command writes after "go" (less than a pipe holds) is
still in the pipe when the launcher learns of its end.

Gives up after 300 s (exit 124).
"""
import os
import select
import signal
import subprocess
import sys
import termios
import time
import tty


def ended(pid):
    """The process is a zombie or gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] in "ZX"


def first_child(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
    except OSError:
        return None
    return int(kids[0]) if kids else None


def main():
    args = sys.argv[1:]
    term_after = None
    hold = False
    if args[0] == "--term-after":
        term_after = int(args[1])
        args = args[2:]
    elif args[0] == "--hold":
        hold = True
        args = args[1:]
    out_path = args[0]
    if args[1] != "--":
        sys.exit("usage: foreign_tty.py [--term-after BYTES | --hold] "
                 "OUT -- ARGV...")
    argv = args[2:]

    master, slave = os.openpty()
    tty.setraw(slave)
    os.fchown(slave, 0, 0)
    os.fchmod(slave, 0o600)
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=slave,
                            stderr=slave)
    if not hold:
        os.close(slave)
        proc.stdin.write(b"piped\n")
        proc.stdin.close()
    os.write(master, b"typed-by-user\n")

    got = bytearray()
    deadline = time.monotonic() + 300
    termed = False
    rc = None
    while rc is None:
        left = deadline - time.monotonic()
        if left <= 0:
            proc.kill()
            rc = 124
            break
        ready, _, _ = select.select([master], [], [], min(left, 1.0))
        if not ready and hold and proc.poll() is not None:
            break  # no "go" came: we hold the terminal, no EIO will
        if not ready:
            continue
        try:
            # A slow terminal for --term-after: the pipe behind it stays
            # full, and a relay that read it until it is empty would
            # never come back to its signals.
            data = os.read(master, 4096 if term_after else 65536)
            if term_after:
                time.sleep(0.001)
        except OSError:
            break  # EIO: nothing holds the terminal any more
        if not data:
            break
        got += data
        if term_after is not None and not termed and len(got) >= term_after:
            os.kill(proc.pid, signal.SIGTERM)
            termed = True
        if hold and got.find(b"go\n", max(0, len(got) - len(data) - 3)) >= 0:
            hold = False
            termios.tcflow(slave, termios.TCOOFF)
            proc.stdin.write(b"piped\n")
            proc.stdin.close()
            child = first_child(proc.pid)
            while child and not ended(child):
                if time.monotonic() > deadline:
                    proc.kill()
                    rc = 124
                    break
                time.sleep(0.01)
            termios.tcflow(slave, termios.TCOON)
            os.close(slave)
    status = proc.wait()
    if rc is None:
        rc = status if status >= 0 else 128 - status
    with open(out_path, "wb") as f:
        f.write(got)
    sys.exit(rc)


main()
