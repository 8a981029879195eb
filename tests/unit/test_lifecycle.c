// SPDX-License-Identifier: GPL-2.0-or-later
/* The lifecycle's pure parts: names, registry entries, status events. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/names.h"
#include "confine/landlock.h"
#include "runtime/exec.h"
#include "runtime/lifecycle.h"
#include "runtime/registry.h"
#include "runtime/status.h"

Test(lifecycle, names)
{
	const char *good[] = {"a", "web-1", "A.b_c", "0", NULL};
	const char *bad[] = {"",    ".",   "..", ".hidden", "-x",
			     "a/b", "a b", "é",	 "a\n",	    NULL};
	char longest[LTD_NAME_MAX + 2];

	for (int i = 0; good[i]; i++)
		cr_assert(ltd_name_ok(good[i]), "%s", good[i]);
	for (int i = 0; bad[i]; i++)
		cr_assert_not(ltd_name_ok(bad[i]), "%s", bad[i]);
	memset(longest, 'x', sizeof(longest));
	longest[LTD_NAME_MAX] = '\0';
	cr_assert(ltd_name_ok(longest));
	longest[LTD_NAME_MAX] = 'x';
	longest[LTD_NAME_MAX + 1] = '\0';
	cr_assert_not(ltd_name_ok(longest));
}

Test(lifecycle, entry_round_trip)
{
	char *waived[] = {"--unsafe-bind-home: / (everything)"};
	struct ltd_entry e =
				 {
					 .name = "dev",
					 .launcher_pid = 100,
					 .launcher_start = 123456,
					 .init_pid = 101,
					 .init_start = 123460,
					 .command_pid = 102,
					 .ns = {1, 2, 3, 4, 5, 6,
						4026531835ULL},
					 .network = "allowlist",
					 .seccomp = "enforce",
					 .tier = "strict",
					 .project = "/home/u/p \"q\"",
					 .started_at = 1795999857,
					 .keep_running = true,
					 .waived = waived,
					 .n_waived = 1,
				 },
			 back;
	struct ltd_err err = {0};
	char *text = ltd_entry_format(&e);

	cr_assert_not_null(text);
	cr_assert_eq(text[strlen(text) - 1], '\n', "one line");
	cr_assert_eq(strchr(text, '\n'), text + strlen(text) - 1);
	cr_assert_eq(ltd_entry_parse(text, &back, &err), 0, "%s", err.msg);
	cr_assert_str_eq(back.name, "dev");
	cr_assert_eq(back.launcher_pid, 100);
	cr_assert_eq(back.launcher_start, 123456);
	cr_assert_eq(back.init_pid, 101);
	cr_assert_eq(back.init_start, 123460);
	cr_assert_eq(back.command_pid, 102);
	cr_assert_eq(back.ns[LTD_NS_CGROUP], 4026531835ULL);
	cr_assert_eq(back.ns[LTD_NS_USER], 1);
	cr_assert_str_eq(back.network, "allowlist");
	cr_assert_str_eq(back.project, "/home/u/p \"q\"");
	cr_assert_eq(back.started_at, 1795999857);
	cr_assert(back.keep_running);
	cr_assert_not_null(strstr(text, "\"waived\":[\"--unsafe-bind-home"));
	free(text);
}

Test(lifecycle, entry_refuses_garbage)
{
	struct ltd_entry e;
	struct ltd_err err = {0};

	cr_assert_lt(ltd_entry_parse("", &e, &err), 0);
	cr_assert_lt(ltd_entry_parse("[]", &e, &err), 0);
	cr_assert_lt(ltd_entry_parse("{\"name\":\"../x\",\"launcher_pid\":1,"
				     "\"launcher_start\":1}",
				     &e, &err),
		     0, "a name that is a path");
	cr_assert_lt(ltd_entry_parse("{\"name\":\"x\",\"launcher_pid\":1}", &e,
				     &err),
		     0, "no start time: the pid alone is never trusted");
	cr_assert_lt(ltd_entry_parse("{\"name\":\"x\",\"name\":\"y\","
				     "\"launcher_pid\":1,\"launcher_start\":1}",
				     &e, &err),
		     0, "duplicate keys");
}

Test(lifecycle, stat_starttime)
{
	unsigned long long t = 0;
	/* comm may contain spaces and ')' */
	const char *stat = "1234 (a) b (c)) S 1 1234 1234 0 -1 4194560 100 0 0 "
			   "0 0 0 0 0 20 0 1 0 98765 1000 100 ...";

	cr_assert_eq(ltd_stat_starttime(stat, &t), 0);
	cr_assert_eq(t, 98765);
	cr_assert_lt(ltd_stat_starttime("1234 (x) S 1 2", &t), 0);
	cr_assert_lt(ltd_stat_starttime("no paren", &t), 0);
}

static json_t *parse_line(char *text)
{
	json_error_t jerr;
	json_t *o;

	cr_assert_not_null(text);
	cr_assert_eq(text[strlen(text) - 1], '\n');
	cr_assert_eq(strchr(text, '\n'), text + strlen(text) - 1,
		     "one object per line");
	o = json_loads(text, 0, &jerr);
	cr_assert_not_null(o, "%s: %s", text, jerr.text);
	free(text);
	return o;
}

Test(lifecycle, status_started)
{
	char *waived[] = {"w1", "w2"};
	struct ltd_publish pub[2];
	struct ltd_err err = {0};
	struct ltd_status s = {
		.name = "dev",
		.cage_pid = 10,
		.command_pid = 11,
		.command_pid_in_cage = 2,
		.ns = {7, 8, 9, 0, 11, 12, 13},
		.network = "none",
		.waived = waived,
		.n_waived = 2,
		.published = pub,
		.n_published = 2,
	};
	json_t *o, *p1;

	cr_assert_eq(ltd_publish_parse("8080:80", "--publish", &pub[0], &err),
		     0);
	cr_assert_eq(ltd_publish_parse("[::1]:9000:3000", "--publish", &pub[1],
				       &err),
		     0);
	o = parse_line(ltd_status_started(&s));

	cr_assert_str_eq(json_string_value(json_object_get(o, "event")),
			 "started");
	cr_assert_str_eq(json_string_value(json_object_get(o, "name")), "dev");
	cr_assert_eq(json_integer_value(json_object_get(o, "cage_pid")), 10);
	cr_assert_eq(json_integer_value(json_object_get(o, "command_pid")), 11);
	cr_assert_eq(
		json_integer_value(json_object_get(o, "command_pid_in_cage")),
		2);
	cr_assert_eq(json_integer_value(json_object_get(
			     json_object_get(o, "namespaces"), "pid")),
		     9);
	cr_assert_null(json_object_get(json_object_get(o, "namespaces"), "net"),
		       "an unknown id is left out, not 0");
	cr_assert_eq(json_array_size(json_object_get(o, "waived")), 2);
	cr_assert_eq(json_array_size(json_object_get(o, "published")), 2);
	p1 = json_array_get(json_object_get(o, "published"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(p1, "address")),
			 "::1");
	cr_assert_eq(json_integer_value(json_object_get(p1, "host_port")),
		     9000);
	cr_assert_eq(json_integer_value(json_object_get(p1, "cage_port")),
		     3000);
	json_decref(o);

	s.name = NULL;
	o = parse_line(ltd_status_started(&s));
	cr_assert(json_is_null(json_object_get(o, "name")));
	json_decref(o);
}

Test(lifecycle, status_exited)
{
	json_t *o = parse_line(ltd_status_exited(3 << 8));

	cr_assert_str_eq(json_string_value(json_object_get(o, "event")),
			 "exited");
	cr_assert_eq(json_integer_value(json_object_get(o, "exit_code")), 3);
	cr_assert_null(json_object_get(o, "signal"));
	json_decref(o);

	o = parse_line(ltd_status_exited(SIGKILL));
	cr_assert_eq(json_integer_value(json_object_get(o, "signal")), 9);
	cr_assert_str_eq(json_string_value(json_object_get(o, "signal_name")),
			 "KILL");
	cr_assert_eq(json_integer_value(json_object_get(o, "exit_code")), 137);
	json_decref(o);

	o = parse_line(ltd_status_ended());
	cr_assert_str_eq(json_string_value(json_object_get(o, "event")),
			 "ended");
	json_decref(o);
}

Test(lifecycle, info_is_bubblewraps)
{
	struct ltd_status s = {.cage_pid = 42, .ns = {1, 2, 3, 4, 5, 6, 7}};
	char *text = ltd_status_info(&s);
	json_t *o = json_loads(text, 0, NULL);

	cr_assert_not_null(o);
	cr_assert_eq(json_integer_value(json_object_get(o, "child-pid")), 42);
	cr_assert_eq(json_integer_value(json_object_get(o, "mnt-namespace")),
		     2);
	cr_assert_eq(json_integer_value(json_object_get(o, "cgroup-namespace")),
		     7);
	cr_assert_null(json_object_get(o, "user-namespace"));
	json_decref(o);
	free(text);
}

Test(lifecycle, signals)
{
	cr_assert_eq(ltd_signal_parse("TERM"), SIGTERM);
	cr_assert_eq(ltd_signal_parse("SIGKILL"), SIGKILL);
	cr_assert_eq(ltd_signal_parse("hup"), SIGHUP);
	cr_assert_eq(ltd_signal_parse("15"), 15);
	cr_assert_eq(ltd_signal_parse("0"), 0);
	cr_assert_eq(ltd_signal_parse("NOPE"), 0);
	cr_assert_eq(ltd_signal_parse("999"), 0);
}

Test(lifecycle, landlock_ruleset_crosses_to_exec)
{
	struct ltd_ll_rule rules[] = {
		{.path = "/usr", .access = LTD_LL_READ},
		{.path = "/home/u/p", .access = LTD_LL_WRITE},
		{.path = "/dev/null",
		 .access = LTD_LL_DEVICE,
		 .optional = true},
	};
	struct ltd_landlock ll = {.abi = 6,
				  .handled_fs = 0xffff,
				  .handled_net = 2,
				  .scoped = 3,
				  .rules = rules,
				  .n_rules = 3,
				  .ports = {80, 443},
				  .n_ports = 2},
			    back;
	struct ltd_exec_info info = {0};
	char *buf = NULL;

	cr_assert_eq(ltd_ll_pack(&ll, &info, &buf), 0);
	cr_assert_eq(ltd_ll_unpack(&info, buf, &back), 0);
	cr_assert_eq(back.abi, 6);
	cr_assert_eq(back.handled_fs, 0xffff);
	cr_assert_eq(back.handled_net, 2);
	cr_assert_eq(back.scoped, 3);
	cr_assert_eq(back.n_ports, 2);
	cr_assert_eq(back.ports[1], 443);
	cr_assert_eq(back.n_rules, 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_str_eq(back.rules[i].path, rules[i].path);
		cr_assert_eq(back.rules[i].access, rules[i].access);
		cr_assert_eq(back.rules[i].optional, rules[i].optional);
	}
	ltd_landlock_free(&back);

	/* A truncated or lying message is refused, never read past. */
	info.ll_len -= 3;
	cr_assert_lt(ltd_ll_unpack(&info, buf, &back), 0);
	ltd_landlock_free(&back);
	info.ll_len += 3;
	info.ll_n_rules = 4;
	cr_assert_lt(ltd_ll_unpack(&info, buf, &back), 0);
	ltd_landlock_free(&back);
	free(buf);
}
