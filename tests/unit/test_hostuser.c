// SPDX-License-Identifier: GPL-2.0-or-later
/* The user database read directly (runtime/hostuser.c): it answers only
 * where glibc's files module would give the same answer, and leaves every
 * other case to NSS. */
#include <criterion/criterion.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/hostuser.h"

Test(hostuser, files_first)
{
	cr_assert(ltd_nss_files_first("passwd: files systemd\n", "passwd"));
	cr_assert(ltd_nss_files_first("# c\npasswd:\tfiles\ngroup: sss\n",
				      "passwd"));
	cr_assert(ltd_nss_files_first("passwd : files # x\n", "passwd"));
	cr_assert(ltd_nss_files_first("passwd: files [NOTFOUND=return]",
				      "passwd") == false);
	cr_assert(!ltd_nss_files_first("passwd: sss files\n", "passwd"));
	cr_assert(!ltd_nss_files_first("passwd: compat\n", "passwd"));
	cr_assert(!ltd_nss_files_first("passwd: filesx\n", "passwd"));
	cr_assert(!ltd_nss_files_first("group: files\n", "passwd"),
		  "no line: glibc's default is not ours to guess");
	cr_assert(
		!ltd_nss_files_first("passwd: files\nPASSWD: sss\n", "passwd"),
		"two lines: NSS decides which one counts");
	cr_assert(
		!ltd_nss_files_first("passwd: sss\npasswd: files\n", "passwd"),
		"two lines, files last");
	cr_assert(!ltd_nss_files_first("#passwd: files\n", "passwd"));
	cr_assert(!ltd_nss_files_first("passwdx: files\n", "passwd"));
	cr_assert(!ltd_nss_files_first("passwd: # files\n", "passwd"));
	cr_assert(ltd_nss_files_first("group: files\npasswd: sss\n", "group"));
}

static int find(const char *text, unsigned long id, char **f, size_t n,
		char **copy)
{
	free(*copy);
	*copy = strdup(text);
	return ltd_dbfile_find(*copy, id, f, n);
}

Test(hostuser, passwd_lines)
{
	char *c = NULL, *f[7];

	cr_assert_eq(find("root:x:0:0:root:/root:/bin/bash\n"
			  "u:x:1001:1001:U,,,:/home/u:/bin/sh\n",
			  1001, f, 7, &c),
		     1);
	cr_assert_str_eq(f[0], "u");
	cr_assert_str_eq(f[5], "/home/u");
	cr_assert_str_eq(f[6], "/bin/sh");
	/* The first entry with the id wins, as in glibc. */
	cr_assert_eq(
		find("a:x:7:7::/ha:/bin/a\nb:x:7:7::/hb:/bin/b", 7, f, 7, &c),
		1);
	cr_assert_str_eq(f[0], "a");
	/* No newline at the end; an empty shell. */
	cr_assert_eq(find("u:x:5:5::/h:", 5, f, 7, &c), 1);
	cr_assert_str_eq(f[6], "");
	/* Comments, blank lines and leading blanks are skipped. */
	cr_assert_eq(
		find("# x:x:5:5::/no:/no\n\n  u:x:5:5::/h:/s\n", 5, f, 7, &c),
		1);
	cr_assert_str_eq(f[0], "u");
	cr_assert_eq(find("root:x:0:0:root:/root:/bin/bash\n", 1001, f, 7, &c),
		     0);
	/* Lines this does not read as glibc does: NSS answers. */
	cr_assert_eq(find("+::::::\nu:x:5:5::/h:/s\n", 5, f, 7, &c), -1);
	/* NIS compat lines, which glibc's files module passes over. */
	cr_assert_eq(find("+n:x:5:5::/h:/s\nu:x:5:5::/h:/s\n", 5, f, 7, &c),
		     -1);
	cr_assert_eq(find("-n:x:5:5::/h:/s\nu:x:5:5::/h:/s\n", 5, f, 7, &c),
		     -1);
	cr_assert_eq(find("+g:x:5:\n", 5, f, 4, &c), -1);
	/* A passwd line whose gid is not a number: glibc skips it. */
	cr_assert_eq(find("n:x:5:abc::/h:/s\nu:x:5:5::/h:/s\n", 5, f, 7, &c),
		     -1);
	cr_assert_eq(find("n:x:5:::/h:/s\n", 5, f, 7, &c), -1);
	cr_assert_eq(find("u:x: 5:5::/h:/s\n", 5, f, 7, &c), -1);
	cr_assert_eq(find("u:x:5:5::/h\n", 5, f, 7, &c), -1);
	cr_assert_eq(find("u:x:5:5::/h:/s:extra\n", 5, f, 7, &c), -1);
	cr_assert_eq(find("u:x:99999999999:5::/h:/s\n", 5, f, 7, &c), -1);
	/* A malformed line after the entry does not matter. */
	cr_assert_eq(find("u:x:5:5::/h:/s\nbroken\n", 5, f, 7, &c), 1);
	free(c);
}

Test(hostuser, group_lines)
{
	char *c = NULL, *f[4];

	cr_assert_eq(find("root:x:0:\nstaff:x:50:a,b\n", 50, f, 4, &c), 1);
	cr_assert_str_eq(f[0], "staff");
	cr_assert_str_eq(f[3], "a,b");
	cr_assert_eq(find("root:x:0:\n", 50, f, 4, &c), 0);
	cr_assert_eq(find("root:x:0\n", 50, f, 4, &c), -1);
	free(c);
}

/* On this machine, the fast path and NSS agree on who runs the tests. */
Test(hostuser, same_as_nss)
{
	const struct ltd_host_user *u = ltd_host_user();
	struct passwd *pw = getpwuid(getuid());

	cr_assert_eq(u->uid, getuid());
	cr_assert_not_null(pw);
	cr_assert_not_null(u->name);
	cr_assert_str_eq(u->name, pw->pw_name);
	cr_assert_str_eq(u->home, pw->pw_dir);
	cr_assert_str_eq(u->shell, pw->pw_shell);
}
