#!/usr/bin/env python3
"""Build small hostile OCI image layouts for the importer's limits:
    mkhostile.py OUT_DIR
Every image is a few MiB at most on disk; what they declare is larger."""
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile

out = sys.argv[1]


def tar(entries, fmt=tarfile.PAX_FORMAT):
    """entries: (kind, path, extra, mode) -> tar bytes."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for kind, path, extra, mode in entries:
            ti = tarfile.TarInfo(path)
            ti.mode = mode
            if kind == "file":
                ti.size = len(extra)
                t.addfile(ti, io.BytesIO(extra))
            elif kind == "dir":
                ti.type = tarfile.DIRTYPE
                t.addfile(ti)
            elif kind == "hard":
                ti.type = tarfile.LNKTYPE
                ti.linkname = extra
                t.addfile(ti)
            elif kind == "sparse":
                # PAX sparse 1.0: a map of (offset, size) pairs ahead of
                # the data; the file's real size is declared apart.
                realsize, data = extra
                m = b"1\n%d\n%d\n" % (realsize - len(data), len(data))
                m += b"\0" * (-len(m) % 512)
                ti.pax_headers = {
                    "GNU.sparse.major": "1",
                    "GNU.sparse.minor": "0",
                    "GNU.sparse.name": path,
                    "GNU.sparse.realsize": str(realsize),
                }
                ti.size = len(m) + len(data)
                t.addfile(ti, io.BytesIO(m + data))
    return buf.getvalue()


def f(path, data=b"x", mode=0o644):
    return ("file", path, data, mode)


def blob(d, data):
    h = hashlib.sha256(data).hexdigest()
    with open(f"{d}/blobs/sha256/{h}", "wb") as fh:
        fh.write(data)
    return h


def oci(name, layers):
    """An OCI layout whose manifest lists @layers (bytes) in order."""
    d = f"{out}/{name}"
    os.makedirs(f"{d}/blobs/sha256", exist_ok=True)
    descs = []
    for data in layers:
        h = blob(d, data)
        descs.append({"mediaType": "application/vnd.oci.image.layer.v1.tar",
                      "digest": "sha256:" + h, "size": len(data)})
    cfg = json.dumps({"architecture": "amd64", "os": "linux",
                      "rootfs": {"type": "layers", "diff_ids": []}}).encode()
    ch = blob(d, cfg)
    man = json.dumps({"schemaVersion": 2,
                      "config": {"mediaType":
                                 "application/vnd.oci.image.config.v1+json",
                                 "digest": "sha256:" + ch, "size": len(cfg)},
                      "layers": descs}).encode()
    mh = blob(d, man)
    with open(f"{d}/index.json", "w") as fh:
        json.dump({"schemaVersion": 2, "manifests": [
            {"mediaType": "application/vnd.oci.image.manifest.v1+json",
             "digest": "sha256:" + mh, "size": len(man)}]}, fh)
    with open(f"{d}/oci-layout", "w") as fh:
        fh.write('{"imageLayoutVersion":"1.0.0"}')


# 4 MiB of zeros in a gzip layer of a few KiB.
oci("gzbomb", [gzip.compress(tar([f("zeros", b"\0" * (4 << 20))]), 9)])
# 5 GiB declared in a few KiB: one 4 KiB region at the end, the rest hole.
oci("sparse-huge", [tar([("sparse", "s", ((5 << 30), b"y" * 4096), 0o644)])])
oci("sparse-small", [tar([("sparse", "s", ((8 << 20), b"y" * 4096), 0o644)])])
oci("entries", [tar([f(f"f{i}") for i in range(50)])])
a, b, c = (tar([f(n)]) for n in "abc")
empty = tar([])
oci("three", [a, b, c])
oci("dup", [a, b, a])
oci("dup-empty", [empty, a, empty])
# Deep trees: each entry names every directory on its way.
oci("deep300", [tar([f("/".join(["d"] * 299 + ["f"]))])])
oci("deep2000", [tar([f("/".join(["d"] * 1999 + ["f"]))])])
# Deep, then refused: the staging tree must go, however few fds are left.
oci("deepfail", [tar([f("/".join(["d"] * 199 + ["f"])), f("../escaped")])])
# One inode, two modes: the link must take its target's.
oci("hardmode", [tar([f("a", b"#!/bin/sh\necho a\n", 0o755),
                      ("hard", "b", "a", 0o600)])])
