#!/usr/bin/env python3
# The fuzz targets' generated seeds (fuzz/seeds-NAME/gen-*): valid inputs
# of each format, from which libFuzzer mutates.  Crash inputs found later
# are added by hand beside them (named for what they found).
#   python3 fuzz/mkseeds.py      # rewrites the gen-* files
import gzip
import io
import json
import os
import struct
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))


def put(target, name, data):
    d = os.path.join(HERE, "seeds-" + target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "gen-" + name), "wb") as f:
        f.write(data)


# --- DNS answers ---------------------------------------------------------
def name(n):
    out = b""
    for label in n.split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def rr(owner, typ, ttl, rdata):
    return owner + struct.pack(">HHIH", typ, 1, ttl, len(rdata)) + rdata


def answer(qname, qtype, rrs, rcode=0, extra=b"", n_add=0, ident=0x1234):
    hdr = struct.pack(">HHHHHH", ident, 0x8180 | rcode, 1, len(rrs), 0, n_add)
    return hdr + name(qname) + struct.pack(">HH", qtype, 1) + b"".join(rrs) + extra


PTR = b"\xc0\x0c"  # the question's name
put("dns-answer", "a", answer("ok.test", 1, [rr(PTR, 1, 300, bytes([10, 0, 0, 1]))]))
put("dns-answer", "a-two", answer("ok.test", 1, [
    rr(PTR, 1, 86400, bytes([10, 0, 0, 1])), rr(PTR, 1, 5, bytes([10, 0, 0, 2]))]))
put("dns-answer", "aaaa", answer("ok.test", 28, [
    rr(PTR, 28, 60, bytes(15) + b"\x01")]))
cname = name("edge.test")
put("dns-answer", "cname", answer("ok.test", 1, [
    rr(PTR, 5, 60, cname), rr(b"\xc0\x25", 1, 60, bytes([10, 0, 0, 3]))]))
put("dns-answer", "cname-loop", answer("ok.test", 1, [
    rr(PTR, 5, 60, PTR)]))
put("dns-answer", "nxdomain", answer("ok.test", 1, [], rcode=3))
opt = b"\0" + struct.pack(">HHIH", 41, 1232, 0x8000, 0)
put("dns-answer", "edns", answer("ok.test", 1, [
    rr(PTR, 1, 300, bytes([10, 0, 0, 1]))], extra=opt, n_add=1))
put("dns-answer", "other-owner", answer("ok.test", 1, [
    rr(name("evil.test"), 1, 300, bytes([10, 9, 9, 9]))]))

# --- OCI layouts and docker save directories -----------------------------
Z = "0" * 64
layer_desc = {"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
              "digest": "sha256:" + "a" * 64, "size": 100}
config = json.dumps({"architecture": "amd64", "os": "linux",
                     "rootfs": {"type": "layers",
                                "diff_ids": ["sha256:" + "b" * 64]}})
manifest = json.dumps({"schemaVersion": 2,
                       "mediaType": "application/vnd.oci.image.manifest.v1+json",
                       "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                                  "digest": "sha256:@@3", "size": len(config)},
                       "layers": [layer_desc, dict(layer_desc, digest="sha256:" + "c" * 64,
                                                   mediaType="application/vnd.oci.image.layer.v1.tar")]})


def index(ref, mt="application/vnd.oci.image.manifest.v1+json", arch="amd64"):
    return json.dumps({"schemaVersion": 2, "manifests": [
        {"mediaType": mt, "digest": "sha256:@@%d" % ref, "size": 1,
         "platform": {"os": "linux", "architecture": arch}}]})


SEP = "\n===\n"
put("oci-image", "oci", SEP.join(["oci", index(2), manifest, config]))
put("oci-image", "oci-want", SEP.join(["oci want 2", index(2), manifest, config]))
# index.json -> a nested index -> the manifest (parts shifted by one).
manifest4 = manifest.replace("@@3", "@@4")
put("oci-image", "oci-nested", SEP.join([
    "oci", index(2, "application/vnd.oci.image.index.v1+json"),
    index(3, arch="arm64"), manifest4, config]))
put("oci-image", "oci-two-arch", SEP.join(["oci", json.dumps({
    "schemaVersion": 2, "manifests": [
        {"mediaType": "application/vnd.oci.image.manifest.v1+json",
         "digest": "sha256:" + Z, "platform": {"os": "linux", "architecture": "s390x"}},
        {"mediaType": "application/vnd.oci.image.manifest.v1+json",
         "digest": "sha256:@@2", "platform": {"os": "linux", "architecture": "amd64"}}]}),
    manifest, config]))
put("oci-image", "docker", SEP.join(["docker", json.dumps([
    {"Config": "blobs/sha256/@@2", "RepoTags": ["x:latest"],
     "Layers": ["blobs/sha256/" + "b" * 64]}]), config]))
put("oci-image", "docker-json-name", SEP.join(["docker want 2", json.dumps([
    {"Config": "@@2.json", "Layers": ["abc/layer.tar"]},
    {"Config": "blobs/sha256/@@2", "Layers": ["./x/../layer.tar"]}]), config]))


# --- tar layers -------------------------------------------------------------
def tar(entries, fmt=tarfile.PAX_FORMAT, gz=False):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for e in entries:
            ti = tarfile.TarInfo(e[0])
            ti.mode = 0o644
            kind = e[1]
            data = b""
            if kind == "dir":
                ti.type = tarfile.DIRTYPE
                ti.mode = 0o755
            elif kind == "sym":
                ti.type = tarfile.SYMTYPE
                ti.linkname = e[2]
            elif kind == "link":
                ti.type = tarfile.LNKTYPE
                ti.linkname = e[2]
            elif kind == "fifo":
                ti.type = tarfile.FIFOTYPE
            else:
                data = e[2]
                ti.size = len(data)
            t.addfile(ti, io.BytesIO(data) if data else None)
    raw = buf.getvalue()
    return gzip.compress(raw, mtime=0) if gz else raw


base = [("etc", "dir"), ("etc/passwd", "file", b"root:x:0:0::/root:/bin/sh\n"),
        ("bin", "dir"), ("bin/sh", "file", b"\x7fELF"), ("bin/ash", "link", "bin/sh"),
        ("usr/lib", "dir"), ("lib", "sym", "usr/lib"), ("tmp/fifo", "fifo")]
put("tar-layer", "one", tar(base))
put("tar-layer", "gnu", tar(base + [("d/" + "x" * 150, "file", b"long")], tarfile.GNU_FORMAT))
put("tar-layer", "gzip", tar(base, gz=True))
upper = [("etc/.wh.passwd", "file", b""), ("usr/.wh..wh..opq", "file", b""),
         ("usr/new", "file", b"new"), ("bin/.wh..wh.plnk", "file", b"")]
put("tar-layer", "whiteouts", tar(base) + b"\n=====\n" + tar(upper))
# Each refused at its first entry: one seed each.
put("tar-layer", "escape-symlink", tar([("a", "sym", "../../../../etc")]))
put("tar-layer", "escape-through", tar([("b", "sym", "/"), ("b/x", "file", b"x")]))
put("tar-layer", "escape-hardlink", tar([("c", "link", "../outside")]))
put("tar-layer", "escape-dotdot", tar([("../up", "file", b"x")]))
put("tar-layer", "escape-abs", tar([("/abs", "file", b"x")]))

# --- git config ---------------------------------------------------------------
put("gitconfig", "config", """[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tsshCommand = ssh -i ~/.ssh/key -F ./ssh_config
\tfsmonitor = .git/hooks/fsmonitor-watchman
\thooksPath = .githooks
[remote "origin"]
\turl = ext::sh -c ./evil.sh
\tfetch = +refs/heads/*:refs/remotes/origin/*
[filter "lfs"]
\tclean = git-lfs clean -- %f
\tsmudge = "./tools/smudge.sh %f"  ; a comment
\tprocess = git-lfs filter-process
\trequired
[alias]
\tst = !./scripts/st.sh \\
\t\t--verbose
\tco = checkout
[include]
\tpath = ../shared.gitconfig
[includeIf "gitdir:~/work/"]
\tpath = ~/work/.gitconfig
[credential "https://example.test"]
\thelper = ./helper --store
[url "ext::./x.sh "]
\tinsteadOf = https://
[Core.Sub]
\teditor = "vim \\"quoted\\"\\t"
""")
put("gitconfig", "bom-crlf", "\xef\xbb\xbf[diff \"x\"]\r\n\ttextconv = ./conv.sh\r\n[pager]\r\n\tlog = less -R\r\n")

# --- policy files ----------------------------------------------------------
put("policy-file", "user", """# my policy
network allowlist
allow-domain example.test:443
allow-domain '*.wild.test:22,443'
allow-cidr 192.0.2.0/24:80
bind ~/src /src
ro-bind "/opt/a dir" /opt/b
tmpfs /scratch
setenv FOO "bar \\"baz\\""
unsetenv HOME
memory 2g
cpus 1.5
pids-limit 64
hostname box
chdir ~/
quiet
trusted
secret GITHUB_TOKEN
""")
put("policy-file", "project", """network none
ro-bind ./data /data   # comment
allow-host-port 8080
restrict-tcp-ports
require-landlock
model claude-x
""")
put("policy-file", "bad", "unsafe-bind-home\n--name x\nbind 'unterminated\n")

# --- Claude Code settings ---------------------------------------------------
put("agent-settings", "settings", json.dumps({
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh"}]}],
        "Stop": [{"hooks": [{"type": "command",
                             "command": "cd scripts && bash ./stop.sh; python3 clean.py < in.txt"}]}]},
    "statusLine": {"type": "command", "command": "~/bin/status ./x"},
    "apiKeyHelper": "./key-helper.sh",
    "awsAuthRefresh": "./aws/refresh *.sh",
    "env": {"BASH_ENV": "./env.sh", "PATH": "./bin:/usr/bin:./node_modules/.bin",
            "NODE_OPTIONS": "--require ./hook.js"},
    "permissions": {"allow": ["Bash(npm test)"]}}, indent=2))
put("agent-settings", "mcp", json.dumps({"mcpServers": {
    "local": {"command": "node", "args": ["./server.js", "-c", "sh ./x.sh"],
              "env": {"LD_PRELOAD": "./lib.so"}},
    "py": {"command": "./venv/bin/python", "args": ["-m", "srv"]}}}))
