// SPDX-License-Identifier: GPL-2.0
/*
 * getppid-loop CALLS REPS: the whole-kernel workload of 'make bench'.
 * Prints "CALLS T1 T2 ...": guest time for CALLS getppid() system calls,
 * per repetition, in units of one instruction under QEMU -icount shift=0:
 * the TSC on x86_64, CLOCK_MONOTONIC_RAW's nanoseconds elsewhere (on arm64
 * the generic timer ticks once per 16 instructions there, so a figure is
 * good to 16 instructions per repetition). Built static on the host by
 * scripts/bench.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <time.h>
#ifdef __x86_64__
#include <x86intrin.h>
#define now()	__rdtsc()
#else
static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}
#endif

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000;
	int reps = argc > 2 ? atoi(argv[2]) : 5;

	printf("%ld", calls);
	for (int r = 0; r < reps; r++) {
		unsigned long long t0 = now();

		for (long i = 0; i < calls; i++)
			syscall(SYS_getppid);
		printf(" %llu", now() - t0);
	}
	printf("\n");
	return 0;
}
