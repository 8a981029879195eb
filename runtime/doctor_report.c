// SPDX-License-Identifier: GPL-2.0-or-later
/* The doctor's advice and output: pure functions of probed facts. */
#include "runtime/doctor.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/text.h"

void ltd_doctor_userns(const struct ltd_userns_facts *f, struct ltd_check *c)
{
	c->name = "user namespaces";
	c->required = true;
	c->ok = f->unshare_errno == 0;
	snprintf(c->detail, sizeof(c->detail), "unshare(CLONE_NEWUSER): %s",
		 c->ok ? "works" : strerror(f->unshare_errno));
	if (f->max_user_namespaces >= 0)
		snprintf(c->detail + strlen(c->detail),
			 sizeof(c->detail) - strlen(c->detail),
			 "; user.max_user_namespaces=%ld",
			 f->max_user_namespaces);
	if (f->unprivileged_userns_clone >= 0)
		snprintf(c->detail + strlen(c->detail),
			 sizeof(c->detail) - strlen(c->detail),
			 "; kernel.unprivileged_userns_clone=%ld",
			 f->unprivileged_userns_clone);
	if (f->apparmor_restrict >= 0)
		snprintf(c->detail + strlen(c->detail),
			 sizeof(c->detail) - strlen(c->detail),
			 "; kernel.apparmor_restrict_unprivileged_userns=%ld",
			 f->apparmor_restrict);
	c->fix[0] = '\0';
	if (c->ok)
		return;
	if (f->unprivileged_userns_clone == 0)
		snprintf(c->fix, sizeof(c->fix),
			 "sysctl -w kernel.unprivileged_userns_clone=1");
	else if (f->max_user_namespaces == 0)
		snprintf(c->fix, sizeof(c->fix),
			 "sysctl -w user.max_user_namespaces=15000");
	else if (f->apparmor_restrict > 0)
		snprintf(c->fix, sizeof(c->fix),
			 "load the AppArmor profile that allows it "
			 "('apparmor_parser -r /etc/apparmor.d/ltd-native', "
			 "installed with ltd-native where AppArmor 4 is; a "
			 "build tree needs a profile of its own), or sysctl -w "
			 "kernel.apparmor_restrict_unprivileged_userns=0");
	else
		snprintf(c->fix, sizeof(c->fix),
			 "a kernel with CONFIG_USER_NS, and no container or "
			 "seccomp policy refusing unshare");
}

void ltd_doctor_pasta(const char *path, const char *version,
		      const char *tun_problem, struct ltd_check *c)
{
	c->name = "pasta";
	c->required = false;
	c->fallback = true;
	c->ok = path[0] && !tun_problem[0];
	c->fix[0] = '\0';
	if (!path[0]) {
		snprintf(c->detail, sizeof(c->detail), "not found");
		snprintf(c->fix, sizeof(c->fix),
			 "install passt (apt install passt)");
		return;
	}
	snprintf(c->detail, sizeof(c->detail), "%s (%s); %s", path,
		 version[0] ? version : "no version",
		 tun_problem[0] ? tun_problem : "/dev/net/tun rw for all");
	if (tun_problem[0])
		snprintf(c->fix, sizeof(c->fix),
			 "chmod 0666 /dev/net/tun (as root), or modprobe tun "
			 "where it is missing");
}

bool ltd_doctor_pasta_unversioned(const char *said)
{
	return !said[0] || strstr(said, "unknown version") != NULL;
}

void ltd_doctor_pasta_version(const char *said, const char *pkg,
			      const char *pkgver, char *buf, size_t size)
{
	if (!ltd_doctor_pasta_unversioned(said))
		snprintf(buf, size, "%s", said);
	else if (pkg[0] && pkgver[0])
		snprintf(buf, size,
			 "%s %s, its package's version: pasta's build names "
			 "none",
			 pkg, pkgver);
	else
		snprintf(buf, size,
			 "version unknown: %s, and no package owns it",
			 said[0] ? "pasta's build names none"
				 : "'pasta --version' said nothing");
}

enum ltd_doctor_verdict ltd_doctor_verdict(const struct ltd_check *c, size_t n)
{
	bool offline = false;

	for (size_t i = 0; i < n; i++)
		offline |= c[i].fallback && !c[i].ok;
	for (size_t i = 0; i < n; i++)
		if (c[i].required && !c[i].ok && !(c[i].network && offline))
			return LTD_DOCTOR_FAILS;
	return offline ? LTD_DOCTOR_NO_NETWORK : LTD_DOCTOR_WORKS;
}

int ltd_doctor_status(const struct ltd_check *c, size_t n)
{
	return ltd_doctor_verdict(c, n) == LTD_DOCTOR_FAILS;
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void print_json(FILE *out, const struct ltd_check *c, size_t n,
		       const struct ltd_doctor_warning *w, size_t nw)
{
	static const char *const verdicts[] = {"works", "no network", "fails"};

	fprintf(out, "{\"ok\":%s,\"default_run\":\"%s\",\"checks\":[",
		ltd_doctor_status(c, n) ? "false" : "true",
		verdicts[ltd_doctor_verdict(c, n)]);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		json_str(out, c[i].name);
		fprintf(out, ",\"ok\":%s,\"required\":%s,\"detail\":",
			c[i].ok ? "true" : "false",
			c[i].required ? "true" : "false");
		json_str(out, c[i].detail);
		fputs(",\"fix\":", out);
		json_str(out, c[i].fix);
		fputc('}', out);
	}
	/* The standing warnings by the check they belong to, not by the
	 * acknowledged file's key and facts (its own format). */
	fputs("],\"warnings\":[", out);
	for (size_t i = 0; i < nw; i++) {
		fprintf(out, "%s{\"check\":", i ? "," : "");
		json_str(out, w[i].check);
		fputs(",\"warning\":", out);
		json_str(out, w[i].s->text);
		fprintf(out, ",\"acknowledged\":%s}",
			w[i].acknowledged ? "true" : "false");
	}
	fputs("]}\n", out);
}

static void print_warnings(FILE *out, const struct ltd_doctor_warning *w,
			   size_t nw)
{
	size_t said = 0;

	for (size_t i = 0; i < nw; i++) {
		said += !w[i].acknowledged;
		fprintf(out, "%s %s (%s): ",
			w[i].acknowledged ? "acknowledged:" : "runs warn:",
			w[i].s->key, w[i].s->facts);
		ltd_fput_shown(out, w[i].s->text);
		fputs(w[i].acknowledged ? " -- runs no longer say it while "
					  "this stays so\n"
					: "\n",
		      out);
	}
	if (said)
		fputs("=> 'ltd-native doctor --acknowledge' stops runs "
		      "repeating these (until the host changes)\n",
		      out);
}

void ltd_doctor_print(FILE *out, const struct ltd_check *c, size_t n,
		      const struct ltd_doctor_warning *w, size_t nw, bool json)
{
	if (json) {
		print_json(out, c, n, w, nw);
		return;
	}
	/* A detail may name a path of the host (a cgroup's, a helper's). */
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%-8s %-18s %s", c[i].ok ? "ok" : "missing",
			c[i].name,
			c[i].ok		 ? ""
			: c[i].fallback	 ? "(runs go without network) "
			: !c[i].required ? "(optional) "
					 : "");
		ltd_fput_shown(out, c[i].detail);
		if (c[i].fix[0]) {
			fputs("; fix: ", out);
			ltd_fput_shown(out, c[i].fix);
		}
		fputc('\n', out);
	}
	switch (ltd_doctor_verdict(c, n)) {
	case LTD_DOCTOR_WORKS:
		fputs("=> a default run works here\n", out);
		break;
	case LTD_DOCTOR_NO_NETWORK:
		fputs("=> a default run works here, but without network: it "
		      "falls back to --network none with a warning (and a run "
		      "that asks for the network stops): see 'missing'\n",
		      out);
		break;
	default:
		fputs("=> a default run will not work here: see 'missing'\n",
		      out);
	}
	print_warnings(out, w, nw);
}
