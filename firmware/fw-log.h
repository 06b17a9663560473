/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Messages of the firmware: errors name the problem, info is for humans. */
#ifndef FW_LOG_H
#define FW_LOG_H

#include <stdio.h>

/* Quiet by default in the library, as the tests link it. */
extern int fw_verbose;

#define fw_err(...)	fprintf(stderr, "vcap-fw: " __VA_ARGS__)
#define fw_info(...)						\
	do {							\
		if (fw_verbose)					\
			fprintf(stderr, "vcap-fw: " __VA_ARGS__); \
	} while (0)

#endif /* FW_LOG_H */
