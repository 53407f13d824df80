// SPDX-License-Identifier: GPL-2.0
/*
 * getppid-loop CALLS REPS: the whole-kernel workload of 'make bench'.
 * Prints "CALLS T1 T2 ...": guest cycles (rdtsc; one instruction each
 * under QEMU -icount shift=0) for CALLS getppid() system calls, per
 * repetition. Built static on the host by scripts/bench.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <x86intrin.h>

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000;
	int reps = argc > 2 ? atoi(argv[2]) : 5;

	printf("%ld", calls);
	for (int r = 0; r < reps; r++) {
		unsigned long long t0 = __rdtsc();

		for (long i = 0; i < calls; i++)
			syscall(SYS_getppid);
		printf(" %llu", __rdtsc() - t0);
	}
	printf("\n");
	return 0;
}
