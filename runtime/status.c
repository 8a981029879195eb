// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/status.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "policy/policy.h"

const char *ltd_network_name(int mode)
{
	switch (mode) {
	case LTD_NET_NONE:
		return "none";
	case LTD_NET_ALLOWLIST:
		return "allowlist";
	case LTD_NET_HOST:
		return "host";
	}
	return "?";
}

/* One line: compact JSON and a newline, the object consumed. */
static char *line(json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	char *l = NULL;

	json_decref(o);
	if (s && asprintf(&l, "%s\n", s) < 0)
		l = NULL;
	free(s);
	return l;
}

/* [{"address":..., "host_port":..., "cage_port":...}, ...] */
static json_t *published(const struct ltd_status *s)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < s->n_published; i++) {
		const struct ltd_publish *p = &s->published[i];
		json_t *o = json_object();
		char addr[INET6_ADDRSTRLEN];

		inet_ntop(p->family, p->addr, addr, sizeof(addr));
		json_object_set_new(o, "address", json_string(addr));
		json_object_set_new(o, "host_port", json_integer(p->host_port));
		json_object_set_new(o, "cage_port", json_integer(p->cage_port));
		json_array_append_new(a, o);
	}
	return a;
}

char *ltd_status_started(const struct ltd_status *s)
{
	json_t *o = json_object(), *ns = json_object(), *w = json_array();

	for (int i = 0; i < LTD_NS_COUNT; i++)
		if (s->ns[i])
			json_object_set_new(ns, ltd_ns_names[i],
					    json_integer((json_int_t)s->ns[i]));
	for (size_t i = 0; i < s->n_waived; i++)
		json_array_append_new(w, json_string(s->waived[i]));
	json_object_set_new(o, "event", json_string("started"));
	json_object_set_new(o, "name",
			    s->name ? json_string(s->name) : json_null());
	json_object_set_new(o, "cage_pid", json_integer(s->cage_pid));
	json_object_set_new(o, "command_pid", json_integer(s->command_pid));
	json_object_set_new(o, "command_pid_in_cage",
			    json_integer(s->command_pid_in_cage));
	json_object_set_new(o, "namespaces", ns);
	json_object_set_new(o, "network", json_string(s->network));
	json_object_set_new(o, "waived", w);
	json_object_set_new(o, "published", published(s));
	return line(o);
}

char *ltd_status_exited(int wait_status)
{
	json_t *o = json_object();

	json_object_set_new(o, "event", json_string("exited"));
	if (WIFSIGNALED(wait_status)) {
		int sig = WTERMSIG(wait_status);
		const char *abbrev = sigabbrev_np(sig);

		json_object_set_new(o, "signal", json_integer(sig));
		json_object_set_new(o, "signal_name",
				    abbrev ? json_string(abbrev) : json_null());
		json_object_set_new(o, "exit_code", json_integer(128 + sig));
	} else {
		json_object_set_new(o, "exit_code",
				    json_integer(WEXITSTATUS(wait_status)));
	}
	return line(o);
}

char *ltd_status_ended(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "event", json_string("ended"));
	return line(o);
}

char *ltd_status_info(const struct ltd_status *s)
{
	json_t *o = json_object();
	char *text, *l = NULL;

	json_object_set_new(o, "child-pid", json_integer(s->cage_pid));
	for (int i = 0; i < LTD_NS_COUNT; i++) {
		char key[32];

		if (!s->ns[i] || i == LTD_NS_USER)
			continue; /* bubblewrap lists these five */
		snprintf(key, sizeof(key), "%s-namespace", ltd_ns_names[i]);
		json_object_set_new(o, key, json_integer((json_int_t)s->ns[i]));
	}
	text = json_dumps(o, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (text && asprintf(&l, "%s\n", text) < 0)
		l = NULL;
	free(text);
	return l;
}

int ltd_status_write(int fd, char *text)
{
	size_t len = text ? strlen(text) : 0, off = 0;
	int ret = text ? 0 : -ENOMEM;

	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = -errno;
			break;
		}
		off += (size_t)n;
	}
	free(text);
	return ret;
}
