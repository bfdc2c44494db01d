/* What the PAPI test programs of this directory share: each check prints "ok NAME" or "FAIL NAME: why" (which
 * papi_integration_test.cpp reads) and counts failures for the exit status; new_set makes an event set or exits. */
#ifndef NB_PAPI_CHECK_H
#define NB_PAPI_CHECK_H

#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CHECK(name, cond, ...)                                              \
	do {                                                                \
		if (cond) {                                                 \
			printf("ok %s\n", name);                            \
		} else {                                                    \
			failures++;                                         \
			printf("FAIL %s: ", name);                          \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		}                                                           \
		fflush(stdout);                                             \
	} while (0)

static inline int new_set(const char **events, int n)
{
	int set = PAPI_NULL, i, rc;
	if ((rc = PAPI_create_eventset(&set)) != PAPI_OK) {
		printf("FAIL create_eventset: %s\n", PAPI_strerror(rc));
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if ((rc = PAPI_add_named_event(set, events[i])) != PAPI_OK) {
			printf("FAIL add %s: %s\n", events[i], PAPI_strerror(rc));
			exit(1);
		}
	}
	return set;
}

#endif /* NB_PAPI_CHECK_H */
