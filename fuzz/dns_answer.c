// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the DNS filter's other input: the upstream's answer
 * (dnsd/dnsmsg.c), which decides which addresses the firewall opens and
 * is relayed to the cage with its TTLs capped.  An upstream is trusted
 * less than it seems (a spoofed datagram, a hostile resolver).  The input
 * is the answer to "ok.test" (its id is taken from its first two bytes).
 * Checks beyond ASan + UBSan:
 *   - at most as many addresses as asked for, each of a real family;
 *   - capping the TTLs is idempotent, and what then still parses carries
 *     no TTL above the ceiling: the cage caches no address longer than the
 *     firewall keeps it open.
 *
 *   make fuzz            # with the other targets; corpus in build/
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "dnsd/dnsmsg.h"

#define MAX	8
#define CEILING 3600

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct ltd_dns_addr *a, size_t n)
{
	if (n > MAX)
		abort();
	for (size_t i = 0; i < n; i++)
		if (a[i].family != AF_INET && a[i].family != AF_INET6)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltd_dns_addr addrs[MAX], after[MAX];
	uint16_t id = size >= 2 ? (uint16_t)(data[0] << 8 | data[1]) : 0;
	uint8_t *once, *twice;
	size_t n = 0, m = 0;

	if (ltd_dns_answer_addrs(data, size, id, "ok.test", addrs, MAX, &n) < 0)
		return 0;
	check(addrs, n);
	once = malloc(size ? size : 1);
	twice = malloc(size ? size : 1);
	if (!once || !twice)
		abort();
	memcpy(once, data, size);
	if (ltd_dns_cap_ttls(once, size, CEILING) == 0) {
		memcpy(twice, once, size);
		if (ltd_dns_cap_ttls(twice, size, CEILING) != 0 ||
		    memcmp(once, twice, size) != 0)
			abort();
		if (ltd_dns_answer_addrs(once, size, id, "ok.test", after, MAX,
					 &m) >= 0) {
			check(after, m);
			for (size_t i = 0; i < m; i++)
				if (after[i].ttl > CEILING)
					abort();
		}
	}
	free(once);
	free(twice);
	return 0;
}
