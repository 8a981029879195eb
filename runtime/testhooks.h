/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test only: stop the set-up before a named step, so that a test can
 * SIGKILL the launcher there and see that nothing of the cage is left
 * (tests/stress).  Present only where LTD_NATIVE_TEST_HOOKS=1 is in the
 * launcher's environment, like the --test-* options; then
 * LTD_NATIVE_TEST_STOP_AT=TABLE:STEP ("launcher:clone", "init:mount-plan",
 * "command:seccomp") names where.
 */
#ifndef LTD_TESTHOOKS_H
#define LTD_TESTHOOKS_H

/*
 * @table:@step is about to run.  If it is the one named, the process
 * renames itself "ltd-stopped" (what the test waits for) and stops:
 * SIGSTOP, or, for the cage's init (which cannot signal itself), waits
 * forever.  The environment is read on the first call, which comes before
 * the launcher clones (init scrubs its copy of it).
 */
void ltd_test_stop_at(const char *table, const char *step);

/* LTD_NATIVE_TEST_TRIM_MS=N (with LTD_NATIVE_TEST_HOOKS=1): the launcher
 * and init trim their memory N ms into the wait (runtime/memtrim.h), 0 at
 * once, so that a test suite runs everything after on a trimmed process;
 * -1 when not set.  Read with the rest, before clone. */
int ltd_test_trim_ms(void);

/* ltd_steps_run()'s @before for the launcher's, init's and the command's
 * tables. */
void ltd_test_before_launch(const char *step);
void ltd_test_before_init(const char *step);
void ltd_test_before_command(const char *step);

#endif
