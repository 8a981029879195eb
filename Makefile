# ltd-native — build, test, benchmark.
#   make            build ./build/ltd-native
#   make check      unit tests (Criterion) + end-to-end tests (as a test user)
#                   + the man pages and completions against the binary
#   make man        the man pages (part of `make`), from docs/man/ with scdoc
#   make install    PREFIX=/usr/local DESTDIR= (and make uninstall)
#   make package    the Debian package (dpkg-buildpackage) in build/package/
#   make check-package  build it, install it, smoke-test it, remove it (root)
#   make check-agents  the real agents (tests/agents/versions, installed by
#                   npm into a test user's prefix) against a mock model
#   make check-layout  each folder uses only what docs/ARCHITECTURE.md allows
#   make format-check  the C files are as .clang-format says
#   make bench      start-up benchmark against bubblewrap and unshare
#   make bench-seccomp  the seccomp filter's cost (syscall loop, git status)
#   make bench-egress   throughput and start-up through pasta + the firewall
#   make bench-dns  DNS lookup latency through the filter
#   make bench-landlock  Landlock's cost on open (with and without it)
#   make bench-project  realistic projects (20,000 and 200,000 directories,
#                   a git repository), warm and cold, beside bubblewrap
#   make bench-walk  the exit walk's ingredients (statx, getdents, io_uring)
#   make bench-review  review mode against the plain bind: start-up, git
#                   status, npm install, review/diff/apply of 1,000 files
#   make bench-exec  exec into a named cage against nsenter
#   make bench-memory  PSS of the launcher and init against bubblewrap's
#   make bench-smoke  every benchmark once with tiny counts: each must
#                   produce its figures (CI runs it; no timing judged)
#   make fuzz       every parser of untrusted input under libFuzzer, bounded
#   make stress     the reliability harness (as root, like CI): many runs,
#                   runs at once, the launcher killed at every step; nothing
#                   may be left (stress-long: ten times as many, by hand)
#   make check-build  build a Debian rootfs twice with mmdebstrap (downloads
#                   packages; not part of `make check`)

CC	?= cc
# The version, in one place: VERSION (debian/rules checks that
# debian/changelog says the same).
VERSION	:= $(shell cat VERSION)
# The runtime links libmnl + libnftnl for the egress firewall,
# nettle for the SHA-256 of approved project policy files and pinned
# rootfs entries, ldns (DNS wire format) and jansson (the audit log) for
# the DNS filter, libpsl (the public suffix list) for the domain wildcards;
# libseccomp is used at build time (the filter is compiled into the binary,
# see cli/seccomp-gen.c) and by the tests.
PKGS	:= libmnl libnftnl nettle ldns jansson libpsl
# ltd-rootfs also links libarchive (image layers); nettle hashes the
# pinned rootfs manifests and files, jansson reads the image JSON.
ROOTFS_PKGS := libarchive
CFLAGS	?= -O2 -g
CFLAGS	+= -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	   -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	   -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE -D_GNU_SOURCE -I.
CFLAGS	+= $(shell pkg-config --cflags $(PKGS) $(ROOTFS_PKGS) libseccomp)
LDFLAGS	+= -pie -Wl,-z,relro,-z,now -Wl,--as-needed
LDLIBS	+= $(shell pkg-config --libs $(PKGS))
SECCOMP_LIBS := $(shell pkg-config --libs libseccomp)
# liburing, when there (Debian: liburing-dev): the exit walk's statx in
# batches (protect/repoindex.c; without it, one system call each).
ifeq ($(shell pkg-config --exists liburing && echo y),y)
CFLAGS	+= -DLTD_HAVE_LIBURING
URING_LIBS := -Wl,-Bstatic -luring -Wl,-Bdynamic
LDLIBS	+= $(URING_LIBS)
endif
ROOTFS_LIBS := $(shell pkg-config --libs $(ROOTFS_PKGS))

B	:= build
# The folders, from the bottom (docs/ARCHITECTURE.md): each is one
# concern and uses only the folders below it that the graph allows
# (make check-layout).  cli/ holds the programs' main()s.
LIB_DIRS := common policy protect review agents confine rootfs netfilter dnsd runtime
LIB_SRC	:= $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
LIB_OBJ	:= $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/seccomp_blobs.o
# ltd-rootfs's own (the store and manifest in rootfs/ are shared: the
# runtime checks an entry before it runs it).
ROOTFS_SRC := $(wildcard rootfs-tools/*.c)
ROOTFS_OBJ := $(ROOTFS_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c) tests/common/fixture.c tests/common/dnsq.c
UNIT_OBJ := $(UNIT_SRC:%.c=$(B)/%.o)

.PHONY: check-agents install uninstall FORCE package check-package man check-docs check-layout format-check all check check-unit check-e2e check-build stress stress-long bench bench-seccomp bench-egress bench-dns bench-landlock bench-project bench-walk bench-review bench-exec bench-memory bench-smoke fuzz format clean
all: $(B)/ltd-native $(B)/ltd-dnsd $(B)/ltd-rootfs $(B)/probe man \
	$(B)/apparmor/ltd-native

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The seccomp programs, compiled from the profile when the binary is built.
$(B)/seccomp-gen: $(B)/cli/seccomp-gen.o $(B)/confine/profile.o $(B)/dnsd/seccomp_profile.o $(B)/confine/bpf.o $(B)/common/error.o $(B)/common/text.o
	$(CC) $(LDFLAGS) -o $@ $^ $(SECCOMP_LIBS)

$(B)/gen/seccomp_blobs.c: $(B)/seccomp-gen
	@mkdir -p $(dir $@)
	$(B)/seccomp-gen > $@.tmp && mv $@.tmp $@

$(B)/gen/seccomp_blobs.o: $(B)/gen/seccomp_blobs.c
	$(CC) $(CFLAGS) -c -o $@ $<

# Made afresh: two folders may hold files of one name (an update in place
# would replace the first member of that name).
$(B)/libltd.a: $(LIB_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

# ltd-native links jansson, libnftnl and nettle statically: loading a
# library dynamically costs every start (mapping, relocations; ~60 us a
# small one here, docs/decisions/0074-libcap-static.md).  No libcap: raw
# prctl/capset (decision 0141).
# libmnl has no static archive in Debian.  It links neither ldns nor
# libcrypto (~0.3 ms of relocations per start): the DNS filter, which
# needs them, is a process of its own, ltd-dnsd, installed beside
# ltd-native (runtime/dnsproc.h).
# libpsl (the public suffix list: wildcards over a suffix are refused,
# policy/suffix.c) statically too, with the libidn2 and libunistring it
# needs: linked dynamically the three cost every run ~1.3 ms of CPU and
# 23 page faults (a bare program, perf stat) to serve the few runs that
# name a wildcard; static, only those read the list
# (docs/decisions/0115-wildcards-over-public-suffix.md).
RUNTIME_LIBS := $(URING_LIBS) -Wl,-Bstatic -lnettle -ljansson -lnftnl \
		-lpsl -lidn2 -lunistring \
		-Wl,-Bdynamic $(shell pkg-config --libs libmnl)
# ltd-dnsd: ldns (and the libcrypto its DNSSEC code needs) statically too:
# it starts beside pasta, but need not pay ~0.9 ms of dynamic loading.
DNSD_LIBS := -Wl,-Bstatic -lldns -lcrypto -ljansson -lnftnl \
		-Wl,-Bdynamic $(shell pkg-config --libs libmnl)

# What --version prints: the version and the libraries this build holds.
$(B)/gen/buildinfo.h: VERSION tools/buildinfo.sh
	@mkdir -p $(dir $@)
	sh tools/buildinfo.sh VERSION > $@.tmp && mv $@.tmp $@

$(B)/cli/ltd-native.o $(B)/cli/ltd-rootfs.o: $(B)/gen/buildinfo.h
$(B)/cli/ltd-native.o $(B)/cli/ltd-rootfs.o: CFLAGS += -I$(B)/gen

$(B)/ltd-native: $(B)/cli/ltd-native.o $(B)/cli/review.o $(B)/libltd.a
	$(CC) $(LDFLAGS) -o $@ $^ $(RUNTIME_LIBS)

$(B)/ltd-dnsd: $(B)/cli/ltd-dnsd.o $(B)/libltd.a
	$(CC) $(LDFLAGS) -o $@ $^ $(DNSD_LIBS)

$(B)/librootfs.a: $(ROOTFS_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

$(B)/ltd-rootfs: $(B)/cli/ltd-rootfs.o $(B)/librootfs.a $(B)/libltd.a
	$(CC) $(LDFLAGS) -o $@ $^ $(ROOTFS_LIBS) $(LDLIBS)

# The probe runs inside the cage and reports what it sees.
$(B)/probe: tests/e2e/probe.c tests/common/syscall_cases.h
	@mkdir -p $(B)
	$(CC) $(CFLAGS) -o $@ $< $(LDFLAGS)

$(B)/unit-tests: $(UNIT_OBJ) $(B)/librootfs.a $(B)/libltd.a
	$(CC) $(LDFLAGS) -o $@ $^ $(ROOTFS_LIBS) $(LDLIBS) $(SECCOMP_LIBS) -lcriterion

# The man pages: docs/man/*.scd.in, with the usage lines of the program's
# --help and (ltd-native(1)) the option table filled in by tools/mkman.sh,
# then scdoc.
MAN_PAGES := $(B)/man/ltd-native.1 $(B)/man/ltd-rootfs.1 \
	     $(B)/man/ltd-native-policy.5
man: $(MAN_PAGES)
.SECONDARY: $(MAN_PAGES:=.scd)

$(B)/man/%.scd: docs/man/%.scd.in tools/mkman.sh VERSION $(B)/ltd-native $(B)/ltd-rootfs
	@mkdir -p $(dir $@)
	sh tools/mkman.sh $< VERSION $(B)/ltd-native \
		$(B)/$(if $(filter ltd-rootfs%,$*),ltd-rootfs,ltd-native) > $@.tmp
	mv $@.tmp $@

$(B)/man/%: $(B)/man/%.scd
	scdoc < $< > $@.tmp && mv $@.tmp $@

# Installed like a Debian tool: user commands in BINDIR, the helper (not a
# user command) in LIBEXECDIR, where ltd-native looks for it after its own
# directory (runtime/dnsproc.h), man pages, completions, and the AppArmor
# profile that lets ltd-native make user namespaces where AppArmor 4
# restricts them (Ubuntu 23.10+).  AppArmor 3 (Debian 12) cannot parse the
# profile and would fail to load it at boot: it is installed only where
# the abi/4.0 file says the parser knows it, unless APPARMOR=yes|no says
# otherwise (docs/decisions/0107-apparmor-profile-only-with-abi-4.md).
PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/ltd-native
MANDIR	?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# zsh reads /usr/share/zsh/vendor-completions (the distribution's) and
# /usr/local/share/zsh/site-functions (the local administrator's).
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
APPARMORDIR ?= /etc/apparmor.d
APPARMOR ?= $(if $(wildcard /etc/apparmor.d/abi/4.0),yes,no)

# Made again when BINDIR changes, and only then written: a `sudo make
# install` must not leave the user's build tree with a file of root's.
$(B)/apparmor/ltd-native: packaging/apparmor/ltd-native.in FORCE
	@mkdir -p $(dir $@)
	@sed 's|@BINDIR@|$(BINDIR)|g' $< > $@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

# The profile in APPARMORDIR is ours when it names this BINDIR's
# ltd-native: another one (the package's, for /usr/bin) is neither
# overwritten by install nor removed by uninstall.
PROFILE_OURS = grep -q '^profile ltd-native $(BINDIR)/ltd-native ' \
	$(DESTDIR)$(APPARMORDIR)/ltd-native

# What install puts in place, and so what uninstall removes: these files,
# and the directories install had to make for them (recorded in
# DIRS_RECORD by tools/installdirs.sh; a directory that was there before,
# /usr/local/bin or an empty man1, stays), and LIBEXECDIR, ltd-native's own.
INSTALLED := $(BINDIR)/ltd-native $(BINDIR)/ltd-rootfs \
	$(LIBEXECDIR)/ltd-dnsd \
	$(MANDIR)/man1/ltd-native.1 $(MANDIR)/man1/ltd-rootfs.1 \
	$(MANDIR)/man5/ltd-native-policy.5 \
	$(BASHCOMPDIR)/ltd-native $(BASHCOMPDIR)/ltd-rootfs \
	$(ZSHCOMPDIR)/_ltd-native \
	$(FISHCOMPDIR)/ltd-native.fish $(FISHCOMPDIR)/ltd-rootfs.fish
DIRS_RECORD := $(LIBEXECDIR)/installed-dirs

install: $(B)/ltd-native $(B)/ltd-dnsd $(B)/ltd-rootfs man $(B)/apparmor/ltd-native
	sh tools/installdirs.sh make "$(DESTDIR)" $(DIRS_RECORD) \
		$(BINDIR) $(LIBEXECDIR) $(MANDIR)/man1 $(MANDIR)/man5 \
		$(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR) \
		$(if $(filter yes,$(APPARMOR)),$(APPARMORDIR))
	install -m 755 $(B)/ltd-native $(B)/ltd-rootfs $(DESTDIR)$(BINDIR)/
	install -m 755 $(B)/ltd-dnsd $(DESTDIR)$(LIBEXECDIR)/
	install -m 644 $(B)/man/ltd-native.1 $(B)/man/ltd-rootfs.1 \
		$(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(B)/man/ltd-native-policy.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 packaging/completions/ltd-native.bash \
		$(DESTDIR)$(BASHCOMPDIR)/ltd-native
	install -m 644 packaging/completions/ltd-native.bash \
		$(DESTDIR)$(BASHCOMPDIR)/ltd-rootfs
	install -m 644 packaging/completions/_ltd-native $(DESTDIR)$(ZSHCOMPDIR)/
	install -m 644 packaging/completions/ltd-native.fish \
		packaging/completions/ltd-rootfs.fish $(DESTDIR)$(FISHCOMPDIR)/
ifeq ($(APPARMOR),yes)
	@if [ -e $(DESTDIR)$(APPARMORDIR)/ltd-native ] && ! $(PROFILE_OURS); then \
		echo "install: $(DESTDIR)$(APPARMORDIR)/ltd-native is the profile" \
			"of another ltd-native (not $(BINDIR)'s): left as it is;" \
			"APPARMOR=no installs without one" >&2; exit 1; fi
	install -m 644 $(B)/apparmor/ltd-native $(DESTDIR)$(APPARMORDIR)/
	@echo "AppArmor: load the profile with" \
		"'apparmor_parser -r $(APPARMORDIR)/ltd-native'"
endif

# A profile loaded from the real /etc/apparmor.d is unloaded first (it
# must still be there to be named), as the package's postrm does.
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -e $(APPARMORDIR)/ltd-native ] && \
		$(PROFILE_OURS) && \
		command -v aa-enabled >/dev/null && aa-enabled --quiet && \
		command -v apparmor_parser >/dev/null; then \
		apparmor_parser -R $(APPARMORDIR)/ltd-native || true; fi
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@if [ -e $(DESTDIR)$(APPARMORDIR)/ltd-native ] && $(PROFILE_OURS); then \
		rm -f $(DESTDIR)$(APPARMORDIR)/ltd-native; fi
	sh tools/installdirs.sh remove "$(DESTDIR)" $(DIRS_RECORD) $(LIBEXECDIR)

FORCE:

package:
	bash tests/package/build_package.sh $(B)/package

check-package: package
	bash tests/package/check_package.sh $(B)/package

check: check-unit check-e2e check-docs

# Every option and subcommand is in ltd-native(1) and in the completions.
check-docs: $(B)/ltd-native $(B)/ltd-rootfs man
	bash tests/docs/check_docs.sh $(B)

check-unit: $(B)/unit-tests
	$(B)/unit-tests --jobs 2

check-e2e: $(B)/ltd-native $(B)/ltd-dnsd $(B)/ltd-rootfs $(B)/probe
	bash tests/e2e/run.sh $(B)

# The agents as their users run them: npm downloads the pinned packages
# (the only outside traffic), then every model call goes to a mock on
# loopback.  As root (it makes a test user); CI runs it after `make check`.
check-agents: $(B)/ltd-native $(B)/ltd-dnsd $(B)/probe
	bash tests/agents/run.sh $(B)

# Every parser of untrusted input under libFuzzer (clang, ASan + UBSan),
# each for a bounded time from its seeds (fuzz/seeds-NAME/, where a crash
# found once is kept as a regression input); CI runs it (.ci/run).
# FUZZ_MULT=N runs each N times longer (a developer's machine).  A crash
# is left as $(B)/fuzz-crash-NAME-*; the run stops there.
FUZZ_CC	?= clang
FUZZ_MULT ?= 1
# NAME:SECONDS:MAX_LEN
FUZZ_TARGETS := dns-query:25:1024 command-paths:10:4096 dns-answer:15:4096 \
	oci-image:20:16384 tar-layer:25:65536 gitconfig:15:4096 \
	policy-file:15:4096 agent-settings:15:16384
FUZZ_NAMES := $(foreach t,$(FUZZ_TARGETS),$(word 1,$(subst :, ,$(t))))
FUZZ_CFLAGS := -g -O1 -std=gnu11 -D_GNU_SOURCE -I. \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	$(shell pkg-config --cflags $(PKGS) $(ROOTFS_PKGS))
# The folders the parsers live in, built with the sanitizers; each target
# takes from the archive what it uses.
FUZZ_LIB_SRC := $(foreach d,common policy protect dnsd rootfs rootfs-tools,\
	$(wildcard $(d)/*.c))
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(B)/fuzz-obj/%.o)

$(B)/fuzz-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(B)/fuzz-obj/libfuzz.a: $(FUZZ_LIB_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

.SECONDEXPANSION:
$(B)/fuzz-%: fuzz/$$(subst -,_,$$*).c $(B)/fuzz-obj/libfuzz.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(B)/fuzz-obj/libfuzz.a \
		$(shell pkg-config --libs ldns jansson nettle libarchive)

# Each target's whole output goes to $(B)/fuzz-NAME.log; its figures are
# shown, and on a crash the end of the log.
fuzz: $(FUZZ_NAMES:%=$(B)/fuzz-%)
	@for t in $(FUZZ_TARGETS); do \
		n=$${t%%:*}; r=$${t#*:}; s=$${r%%:*}; l=$${r#*:}; \
		mkdir -p $(B)/fuzz-corpus-$$n; \
		echo "== fuzz $$n: $$((s * $(FUZZ_MULT))) s"; \
		$(B)/fuzz-$$n -max_total_time=$$((s * $(FUZZ_MULT))) \
			-max_len=$$l -print_final_stats=1 \
			-artifact_prefix=$(B)/fuzz-crash-$$n- \
			$(B)/fuzz-corpus-$$n fuzz/seeds-$$n \
			>$(B)/fuzz-$$n.log 2>&1; \
		rc=$$?; \
		grep -E '^(INFO: seed corpus|stat::(number_of_executed_units|peak_rss_mb|new_units_added)|Done)' \
			$(B)/fuzz-$$n.log; \
		if [ $$rc -ne 0 ]; then tail -60 $(B)/fuzz-$$n.log; exit 1; fi; \
	done

# The reliability harness (tests/stress/run.sh), as root: CI runs it after
# `make check`; stress-long is for a developer's machine (about an hour).
stress: all
	bash tests/stress/run.sh $(B)

stress-long: all
	STRESS_SEQ=5000 STRESS_CONC=100 STRESS_RANDOM_KILLS=600 \
		STRESS_EXECS=10000 bash tests/stress/run.sh $(B)

# Downloads Debian packages: run by hand, never by CI.
check-build: $(B)/ltd-rootfs
	bash tests/build/test_build.sh $(B)

bench: $(B)/ltd-native
	bash bench/startup.sh $(B)/ltd-native

# The benchmarks' helpers: a self-timing syscall loop, and the enforce
# program as raw BPF for bubblewrap's --seccomp.
$(B)/bench/syscall_loop: bench/syscall_loop.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LDFLAGS)

$(B)/bench/export_bpf: $(B)/bench/export_bpf.o $(B)/libltd.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-seccomp: $(B)/ltd-native $(B)/bench/syscall_loop $(B)/bench/export_bpf
	bash bench/seccomp.sh $(B)

bench-egress: $(B)/ltd-native $(B)/ltd-dnsd
	bash bench/egress.sh $(B)/ltd-native

# DNS lookup latency through the filter against the test upstream.
bench-dns: $(B)/ltd-native $(B)/ltd-dnsd
	bash bench/dns.sh $(B)/ltd-native

bench-landlock: $(B)/ltd-native $(B)/bench/syscall_loop $(B)/probe
	PROBE=$(B)/probe bash bench/landlock.sh $(B)/bench/syscall_loop $(B)/ltd-native

# The exit walk's ingredients, each way of passing over a tree.
$(B)/bench/walkcost: bench/walkcost.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LDFLAGS) -luring -lpthread

# Realistic projects; MINIBOX=path/to/minibox adds the floor's row
# (bench/lib.sh).
bench-project: $(B)/ltd-native
	bash bench/project.sh $(B)/ltd-native

bench-walk: $(B)/bench/walkcost
	bash bench/walk.sh $(B)/bench/walkcost

bench-review: $(B)/ltd-native
	bash bench/review.sh $(B)/ltd-native

bench-exec: $(B)/ltd-native
	bash bench/exec.sh $(B)/ltd-native

bench-memory: $(B)/ltd-native $(B)/ltd-dnsd
	bash bench/memory.sh $(B)/ltd-native

bench-smoke: $(B)/ltd-native $(B)/ltd-dnsd $(B)/probe $(B)/bench/syscall_loop \
		$(B)/bench/export_bpf $(B)/bench/walkcost
	bash bench/smoke.sh $(B)

# The folders' dependency graph (docs/ARCHITECTURE.md), checked on the
# includes and on the objects' symbols.
check-layout: $(B)/ltd-native $(B)/ltd-dnsd $(B)/ltd-rootfs $(B)/seccomp-gen
	python3 tests/layout/check_layout.py $(B)

format:
	git ls-files '*.c' '*.h' | xargs clang-format -i

# Fails when a C file differs from .clang-format's kernel style.
format-check:
	git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror

clean:
	rm -rf $(B)

-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(ROOTFS_OBJ:.o=.d) \
	$(wildcard $(B)/fuzz-obj/*/*.d) \
	$(wildcard $(B)/cli/*.d) $(B)/bench/export_bpf.d
