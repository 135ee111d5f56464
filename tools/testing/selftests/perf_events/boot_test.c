// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel says at boot about the PMU.
 *
 * Without a hardware PMU driver (as under QEMU TCG) the x86 code prints a
 * "Performance Events: ..." line saying that only software events are
 * available.  The test reads the whole kernel log through /dev/kmsg and
 * looks for that line; on a machine where the line says something else (a
 * real PMU was found) it skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define PREFIX		"Performance Events:"
#define SW_ONLY		"software events only"

/* A /dev/kmsg record is "prio,seq,time,flags;text\n" plus dictionary lines. */
#define RECORD_MAX	8192

TEST(software_events_only)
{
	char rec[RECORD_MAX + 1], line[RECORD_MAX + 1] = "";
	int fd, records = 0;
	char *text, *end;
	ssize_t n;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd) {
		TH_LOG("/dev/kmsg: %s", strerror(errno));
	}

	for (;;) {
		n = read(fd, rec, RECORD_MAX);
		if (n < 0 && errno == EPIPE)	/* records lost to wrap-around */
			continue;
		if (n < 0 && errno == EAGAIN)	/* the end of the log */
			break;
		ASSERT_LT(0, n) {
			TH_LOG("read /dev/kmsg: %s", strerror(errno));
		}
		records++;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		end = strchr(text, '\n');
		if (end)
			*end = '\0';
		if (strstr(text, PREFIX)) {
			strcpy(line, text);
			break;
		}
	}
	close(fd);

	ASSERT_LT(0, records);
	ASSERT_NE(0, line[0]) {
		TH_LOG("no \"%s\" line among %d records", PREFIX, records);
	}
	if (!strstr(line, SW_ONLY))
		SKIP(return, "a PMU driver is present: %.200s", line);
	TH_LOG("%s", line);
}

TEST_HARNESS_MAIN
