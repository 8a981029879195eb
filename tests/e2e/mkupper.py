#!/usr/bin/env python3
"""Build a hostile review by hand, as no cage would leave it:
    mkupper.py user   STATE PROJECT OUTSIDE NAME   (as the test user)
    mkupper.py root   STATE NAME                   (as root: device nodes)
STATE is the test user's $XDG_STATE_HOME/ltd-native/reviews, PROJECT the
project the review belongs to (already holding what the upper replaces),
OUTSIDE a directory out of the project that nothing may write into.  The
upper holds: a link where the project has a directory of files, a
directory where the project has a link to OUTSIDE, whiteouts on links,
names of dots and control characters, set-uid and set-gid files, a FIFO,
a socket, a hard link to a file out of the review, a file the cage made
unreadable, a link whose text climbs out, foreign xattrs (overlayfs's own
redirect and metacopy among them)."""
import json
import os
import socket
import stat
import sys
import time


def xattr(path, name, value):
    try:
        os.setxattr(path, name, value, follow_symlinks=False)
    except OSError:
        pass


def user(state, project, outside, name):
    review = os.path.join(state, name)
    upper = os.path.join(review, "upper")
    os.makedirs(upper, mode=0o700)
    os.chmod(review, 0o700)
    os.mkdir(os.path.join(review, "work"), 0o700)
    # The review begins now: what the project held before is no conflict.
    now = time.time_ns()
    meta = {"version": 1, "name": name, "project": project,
            "began": [now // 10**9, now % 10**9],
            "last_run": now // 10**9, "runs": 1, "applied": {}}
    with open(os.path.join(review, "meta.json"), "w") as f:
        json.dump(meta, f)
    u = lambda *p: os.path.join(upper, *p)
    # The project's directory "dir" (with files) becomes a link out.
    os.symlink(outside, u("dir"))
    # The project's link "out" (to OUTSIDE) becomes a directory of files:
    # nothing may be written through the link.
    os.mkdir(u("out"))
    with open(u("out", "planted"), "w") as f:
        f.write("through the link?\n")
    os.mknod(u("out", "victim"), stat.S_IFCHR | 0o000, os.makedev(0, 0))
    # Whiteouts on the project's links: the links go, their targets stay.
    os.mknod(u("flink"), stat.S_IFCHR | 0o000, os.makedev(0, 0))
    # Names of dots, a newline and an escape sequence; a link climbing out.
    for n in ["...", "..x", "a\nb", "esc\x1b[2Jname"]:
        with open(u(n), "w") as f:
            f.write("named " + repr(n) + "\n")
    os.symlink("../../../../../../etc/passwd", u("climb"))
    # Set-uid and set-gid.
    for n, m in [("suid", 0o4755), ("sgid", 0o2755)]:
        with open(u(n), "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(u(n), m)
    # A FIFO (a reader would wait forever) and a socket.
    os.mkfifo(u("fifo"))
    s = socket.socket(socket.AF_UNIX)
    s.bind(u("sock"))
    s.close()
    # A hard link to a file out of the review (the user's secret).
    secret = os.path.join(outside, "secret")
    os.link(secret, u("leak"))
    # A file the cage made unreadable: still landed, by its content.
    with open(u("locked"), "w") as f:
        f.write("locked content\n")
    os.chmod(u("locked"), 0o000)
    # Foreign xattrs, overlayfs's own unused ones among them.
    with open(u("tagged"), "w") as f:
        f.write("tagged\n")
    xattr(u("tagged"), "user.foo", b"bar")
    xattr(u("tagged"), "user.overlay.metacopy", b"")
    os.mkdir(u("redir"))
    xattr(u("redir"), "user.overlay.redirect", b"/dir")
    with open(u("redir", "f"), "w") as f:
        f.write("in redir\n")


def root(state, name):
    upper = os.path.join(state, name, "upper")
    st = os.stat(upper)
    for n, kind, dev in [("devnull", stat.S_IFCHR, os.makedev(1, 3)),
                         ("blockdev", stat.S_IFBLK, os.makedev(7, 0))]:
        p = os.path.join(upper, n)
        os.mknod(p, kind | 0o666, dev)
        os.lchown(p, st.st_uid, st.st_gid)


if sys.argv[1] == "user":
    user(*sys.argv[2:6])
else:
    root(*sys.argv[2:4])
