// SPDX-License-Identifier: GPL-2.0-or-later
/* `ltd-native doctor`: the advice for each cause, the exit status, and
 * the two output formats. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "netfilter/pasta.h"
#include "runtime/doctor.h"

Test(doctor, userns_ok_reports_the_sysctls)
{
	struct ltd_userns_facts f = {0, -1, 15000, -1};
	struct ltd_check c = {0};

	ltd_doctor_userns(&f, &c);
	cr_assert(c.ok && c.required);
	cr_assert(strstr(c.detail, "user.max_user_namespaces=15000"));
	cr_assert_null(strstr(c.detail, "unprivileged_userns_clone"),
		       "absent sysctls are not shown");
	cr_assert_str_eq(c.fix, "");
}

Test(doctor, userns_fix_names_the_cause)
{
	struct ltd_check c = {0};
	struct ltd_userns_facts debian = {EPERM, 0, 15000, -1};
	struct ltd_userns_facts zero = {ENOSPC, -1, 0, -1};
	struct ltd_userns_facts ubuntu = {EACCES, 1, 15000, 1};

	ltd_doctor_userns(&debian, &c);
	cr_assert_not(c.ok);
	cr_assert(strstr(c.fix, "kernel.unprivileged_userns_clone=1"), "%s",
		  c.fix);
	ltd_doctor_userns(&zero, &c);
	cr_assert(strstr(c.fix, "user.max_user_namespaces="), "%s", c.fix);
	ltd_doctor_userns(&ubuntu, &c);
	cr_assert(
		strstr(c.fix, "AppArmor") &&
			strstr(c.fix, "apparmor_restrict_unprivileged_userns"),
		"%s", c.fix);
	/* The profile make install and the package put in place. */
	cr_assert(
		strstr(c.fix, "apparmor_parser -r /etc/apparmor.d/ltd-native"),
		"%s", c.fix);
	cr_assert(strstr(c.detail, "apparmor_restrict_unprivileged_userns=1"));
}

Test(doctor, pasta_and_tun)
{
	struct ltd_check c = {0};
	char tun[200];

	ltd_doctor_pasta("/usr/bin/pasta", "pasta 2024_01_01", "", &c);
	cr_assert(c.ok);
	cr_assert(strstr(c.detail, "pasta 2024_01_01"));
	ltd_pasta_tun_says(S_IFCHR | 0600, 0, EACCES, tun, sizeof(tun));
	ltd_doctor_pasta("/usr/bin/pasta", "", tun, &c);
	cr_assert_not(c.ok);
	cr_assert(c.fallback, "without pasta a default run goes on offline");
	cr_assert(strstr(c.detail, "/dev/net/tun is crw------- (mode 0600, "
				   "owner uid 0): Permission denied"),
		  "the device and its mode, not 'not found': %s", c.detail);
	cr_assert(strstr(c.fix, "/dev/net/tun"));
	ltd_doctor_pasta("", "", "", &c);
	cr_assert_not(c.ok);
	cr_assert(strstr(c.detail, "not found"));
	cr_assert(strstr(c.fix, "passt"));
}

Test(doctor, tun_words)
{
	char out[200];

	ltd_pasta_tun_says(S_IFCHR | 0666, 0, 0, out, sizeof(out));
	cr_assert_str_eq(out, "", "a device that opens is no problem");
	ltd_pasta_tun_says(0, 0, ENOENT, out, sizeof(out));
	cr_assert(strstr(out, "/dev/net/tun is missing"), "%s", out);
	ltd_pasta_tun_says(S_IFCHR | 0660, 0, EACCES, out, sizeof(out));
	cr_assert(strstr(out, "crw-rw---- (mode 0660"), "%s", out);
}

/* What doctor says a default run does is what it does: pasta missing
 * means --network none (then the DNS filter and nftables, needed only
 * by the network, do not stop it); a required check missing stops it. */
Test(doctor, verdict_follows_the_run)
{
	struct ltd_check c[4] = {
		{.name = "user namespaces", .required = true, .ok = true},
		{.name = "pasta", .fallback = true, .ok = true},
		{.name = "DNS filter",
		 .required = true,
		 .network = true,
		 .ok = true},
		{.name = "Landlock", .ok = true},
	};

	cr_assert_eq(ltd_doctor_verdict(c, 4), LTD_DOCTOR_WORKS);
	c[2].ok = false;
	cr_assert_eq(ltd_doctor_verdict(c, 4), LTD_DOCTOR_FAILS,
		     "with the network on, its DNS filter is needed");
	c[1].ok = false;
	cr_assert_eq(ltd_doctor_verdict(c, 4), LTD_DOCTOR_NO_NETWORK,
		     "offline, the DNS filter is not needed");
	cr_assert_eq(ltd_doctor_status(c, 4), 0);
	c[0].ok = false;
	cr_assert_eq(ltd_doctor_verdict(c, 4), LTD_DOCTOR_FAILS);
	cr_assert_eq(ltd_doctor_status(c, 4), 1);
}

static char *render(const struct ltd_check *c, size_t n, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ltd_doctor_print(f, c, n, NULL, 0, json);
	fclose(f);
	return buf;
}

Test(doctor, status_and_text)
{
	struct ltd_check c[2] = {
		{.name = "seccomp",
		 .required = true,
		 .ok = true,
		 .detail = "filter mode available"},
		{.name = "Landlock",
		 .required = false,
		 .ok = false,
		 .detail = "not available",
		 .fix = "a kernel with it"},
	};
	char *out;

	cr_assert_eq(ltd_doctor_status(c, 2), 0,
		     "an optional feature missing still runs");
	out = render(c, 2, false);
	cr_assert(strstr(out, "ok       seccomp            filter mode "
			      "available\n"),
		  "%s", out);
	cr_assert(strstr(out, "missing  Landlock           (optional) not "
			      "available; fix: a kernel with it\n"),
		  "%s", out);
	cr_assert(strstr(out, "=> a default run works here"), "%s", out);
	free(out);
	c[0].ok = false;
	cr_assert_eq(ltd_doctor_status(c, 2), 1);
	out = render(c, 2, false);
	cr_assert(strstr(out, "will not work"), "%s", out);
	free(out);
}

Test(doctor, json_escapes)
{
	struct ltd_check c[1] = {
		{.name = "pasta",
		 .required = true,
		 .ok = false,
		 .detail = "say \"hi\"\\\n",
		 .fix = ""},
	};
	char *out = render(c, 1, true);

	cr_assert_str_eq(out, "{\"ok\":false,\"default_run\":\"fails\","
			      "\"checks\":[{\"name\":\"pasta\","
			      "\"ok\":false,\"required\":true,\"detail\":"
			      "\"say \\\"hi\\\"\\\\\\u000a\",\"fix\":\"\"}],"
			      "\"warnings\":[]}\n");
	free(out);
}

/* The standing warnings are in the JSON object too, by the check they
 * belong to, with whether the user acknowledged them; the acknowledged
 * file's own key and facts ("cgroup", "not-delegated ...") are not. */
Test(doctor, json_warnings)
{
	struct ltd_check c[1] = {
		{.name = "Landlock", .required = false, .ok = true},
	};
	struct ltd_standing s[2];
	struct ltd_doctor_warning w[2] = {
		{"cgroup delegation", &s[0], true},
		{"Landlock", &s[1], false},
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ltd_standing_set(&s[0], "cgroup", "not-delegated nproc-per-userns",
			 "no cgroup for the cage");
	ltd_standing_set(&s[1], "landlock", "abi 3", "Landlock is ABI 3");
	ltd_doctor_print(f, c, 1, w, 2, true);
	fclose(f);
	cr_assert(strstr(buf, ",\"warnings\":[{\"check\":\"cgroup "
			      "delegation\",\"warning\":\"no cgroup for the "
			      "cage\",\"acknowledged\":true},{\"check\":"
			      "\"Landlock\",\"warning\":\"Landlock is ABI "
			      "3\",\"acknowledged\":false}]}\n"),
		  "%s", buf);
	cr_assert_null(strstr(buf, "not-delegated"), "%s", buf);
	cr_assert_null(strstr(buf, "\"key\""), "%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ltd_doctor_print(f, c, 1, w, 2, false);
	fclose(f);
	cr_assert(strstr(buf, "acknowledged: cgroup (not-delegated "
			      "nproc-per-userns): no cgroup for the cage -- "
			      "runs no longer say it"),
		  "%s", buf);
	cr_assert(strstr(buf, "runs warn: landlock (abi 3): Landlock is ABI "
			      "3\n=> 'ltd-native doctor --acknowledge'"),
		  "%s", buf);
	free(buf);
}

/* Debian 12's passt says "pasta unknown version": its package's version
 * is said instead, or why there is none. */
Test(doctor, pasta_version)
{
	char v[256];

	ltd_doctor_pasta_version("pasta 2024_01_01.abc", "", "", v, sizeof(v));
	cr_assert_str_eq(v, "pasta 2024_01_01.abc");
	cr_assert(ltd_doctor_pasta_unversioned("pasta unknown version"));
	cr_assert(ltd_doctor_pasta_unversioned(""));
	cr_assert_not(ltd_doctor_pasta_unversioned("pasta 2024_01_01.abc"));
	ltd_doctor_pasta_version("pasta unknown version", "passt",
				 "0.0~git20230309.7c7625d-1", v, sizeof(v));
	cr_assert_str_eq(v, "passt 0.0~git20230309.7c7625d-1, its package's "
			    "version: pasta's build names none");
	ltd_doctor_pasta_version("pasta unknown version", "", "", v, sizeof(v));
	cr_assert_str_eq(v, "version unknown: pasta's build names none, and "
			    "no package owns it");
	ltd_doctor_pasta_version("", "", "", v, sizeof(v));
	cr_assert_str_eq(v, "version unknown: 'pasta --version' said nothing, "
			    "and no package owns it");
}
