// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph_bench: what a traced call costs with 0..16 function graph users,
 * and how much shadow stack the tasks hold.
 *
 * Built into the three kernels of 'make bench' (stock 6.1, linux-fgraph,
 * stock 6.12) by scripts/bench.sh: neither base exports
 * register_ftrace_graph() to modules. The same source serves all three; the
 * only difference is the callback signatures and how a user is filtered to
 * one function (stock 6.1: the global filter; the others: the filter of the
 * ftrace_ops in each fgraph_ops).
 *
 * Interface, /proc/fgraph_bench (write a command, read its result line):
 *   off 0 [CALLS [REPS]]          no tracing
 *   function 0 [CALLS [REPS]]     one ftrace_ops on the target
 *   fgraph USERS [CALLS [REPS]]   USERS fgraph_ops on the target
 *   fgraph-times USERS [CALLS [REPS]]  the same, each asking for the
 *                                 call's timestamps as function_graph does
 *                                 (FGRAPH_FL_TIMES; the stock kernels
 *                                 take them for every user anyway)
 *   hold USERS | release          keep USERS registered / unregister them
 *   mem                           shadow stacks held by tasks
 *   deep LEVELS                   LEVELS nested calls of fgraph_bench_deep()
 *                                 (fewer if the kernel stack runs low);
 *                                 prints "deep LEVELS RAN"
 * A timed case prints "CASE USERS CALLS T1 T2 ...": guest time for CALLS
 * calls of the target in each repetition, interrupts off (bench_now()).
 * Under QEMU with -icount shift=0 a unit is one executed instruction, so
 * runs repeat.
 * A refused case prints "CASE USERS error ERRNO".
 */
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <asm/timex.h>

#if defined(FGRAPH_ARRAY_SIZE) || LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define BENCH_MULTI	1	/* fgraph_ops carry their own ftrace_ops */
#else
#define BENCH_MULTI	0	/* stock 6.1: one user, global filter */
#endif

#define BENCH_MAX_USERS	16
#define BENCH_MAX_REPS	31
#define BENCH_TARGET	"fgraph_bench_target"
/* guest time after registering, before timing (see bench_timed()) */
#define BENCH_SETTLE_MS	1000

static DEFINE_MUTEX(bench_lock);
static char bench_result[1024];
static struct fgraph_ops bench_gops[BENCH_MAX_USERS];
static int bench_held;

void fgraph_bench_target(void);

/* The traced function: not inlined, no arguments, no work */
noinline void fgraph_bench_target(void)
{
	asm volatile("");
}

int fgraph_bench_deep(int n);

/* Is a quarter of the kernel stack still free? */
static noinline notrace bool bench_stack_ok(void)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	unsigned long base = (unsigned long)task_stack_page(current);

	return sp > base + THREAD_SIZE / 4 && sp < base + THREAD_SIZE;
}

/* Up to @n nested calls of itself; returns how many ran */
noinline int fgraph_bench_deep(int n)
{
	int r = 0;

	if (n > 1 && bench_stack_ok())
		r = fgraph_bench_deep(n - 1);
	asm volatile("" : "+r" (r) : : "memory");
	return r + 1;
}

#if BENCH_MULTI
static int bench_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	return 1;
}

static void bench_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
}
#else
static int bench_entry(struct ftrace_graph_ent *trace)
{
	return 1;
}

static void bench_return(struct ftrace_graph_ret *trace)
{
}
#endif

static void bench_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops bench_fops = {
	.func = bench_func,
};

static int bench_set_filter(struct ftrace_ops *ops)
{
	return ftrace_set_filter(ops, (unsigned char *)BENCH_TARGET,
				 strlen(BENCH_TARGET), 1);
}

static void bench_unregister(int users)
{
	int i;

	for (i = users - 1; i >= 0; i--) {
		unregister_ftrace_graph(&bench_gops[i]);
#if BENCH_MULTI
		ftrace_free_filter(&bench_gops[i].ops);
#endif
	}
#if !BENCH_MULTI
	if (users)
		ftrace_set_global_filter(NULL, 0, 1);
#endif
}

static int bench_register(int users, bool times)
{
	int i, ret;

	if (users < 1 || users > BENCH_MAX_USERS)
		return -EINVAL;
#if !BENCH_MULTI
	ftrace_set_global_filter((unsigned char *)BENCH_TARGET,
				 strlen(BENCH_TARGET), 1);
#endif
	for (i = 0; i < users; i++) {
		memset(&bench_gops[i], 0, sizeof(bench_gops[i]));
		bench_gops[i].entryfunc = bench_entry;
		bench_gops[i].retfunc = bench_return;
#ifdef FGRAPH_FL_TIMES
		if (times)
			bench_gops[i].flags = FGRAPH_FL_TIMES;
#endif
#if BENCH_MULTI
		ret = bench_set_filter(&bench_gops[i].ops);
		if (ret)
			goto fail;
#endif
		ret = register_ftrace_graph(&bench_gops[i]);
		if (ret) {
#if BENCH_MULTI
			ftrace_free_filter(&bench_gops[i].ops);
#endif
			goto fail;
		}
	}
	return 0;
fail:
	bench_unregister(i);
#if !BENCH_MULTI
	if (!i)
		ftrace_set_global_filter(NULL, 0, 1);
#endif
	return ret;
}

/*
 * One unit per instruction under -icount shift=0: the TSC on x86; elsewhere
 * the clock's nanoseconds (arm64's get_cycles() is the generic timer, which
 * QEMU ticks at 62.5 MHz: one tick per 16 instructions).
 */
static u64 bench_now(void)
{
	u64 c = IS_ENABLED(CONFIG_X86) ? get_cycles() : 0;

	return c ? c : ktime_get_ns();
}

static u64 bench_loop(unsigned int calls)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = bench_now();
	for (i = 0; i < calls; i++)
		fgraph_bench_target();
	t1 = bench_now();
	local_irq_restore(flags);
	return t1 - t0;
}

static void bench_timed(const char *what, int users, unsigned int calls,
			unsigned int reps)
{
	size_t len;
	int ret = 0;
	unsigned int r;

	if (!strcmp(what, "function")) {
		ret = bench_set_filter(&bench_fops);
		if (!ret)
			ret = register_ftrace_function(&bench_fops);
	} else if (!strncmp(what, "fgraph", 6)) {
		ret = bench_register(users, !strcmp(what, "fgraph-times"));
	}
	if (ret) {
		scnprintf(bench_result, sizeof(bench_result), "%s %d error %d\n",
			  what, users, ret);
		return;
	}
	/*
	 * Time the steady state of a tracing session, not its first moments:
	 * the kernel settles after ftrace changed its code (RCU callbacks;
	 * linux-fgraph tests the filter of a filtered user on each of its
	 * calls until no task can still be in the code from before).
	 */
	msleep(BENCH_SETTLE_MS);

	len = scnprintf(bench_result, sizeof(bench_result), "%s %d %u", what,
			users, calls);
	for (r = 0; r < reps; r++)
		len += scnprintf(bench_result + len, sizeof(bench_result) - len,
				 " %llu", bench_loop(calls));
	scnprintf(bench_result + len, sizeof(bench_result) - len, "\n");

	if (!strcmp(what, "function")) {
		/* not ftrace_free_filter(): 6.1 leaves the freed hashes in */
		unregister_ftrace_function(&bench_fops);
	} else if (!strncmp(what, "fgraph", 6)) {
		bench_unregister(users);
	}
}

/* Shadow stacks held by all tasks and by the idle tasks, in bytes */
static void bench_mem(void)
{
	unsigned long tasks = 0, with = 0, bytes = 0;
	unsigned long idle = 0, idle_with = 0, idle_bytes = 0;
	struct task_struct *g, *t;
	int cpu;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		tasks++;
		if (t->ret_stack) {
			with++;
			bytes += ksize(t->ret_stack);
		}
	}
	rcu_read_unlock();
	for_each_online_cpu(cpu) {
		t = idle_task(cpu);
		idle++;
		if (t->ret_stack) {
			idle_with++;
			idle_bytes += ksize(t->ret_stack);
		}
	}
	scnprintf(bench_result, sizeof(bench_result),
		  "mem tasks %lu with_stack %lu bytes %lu idle %lu idle_with_stack %lu idle_bytes %lu\n",
		  tasks, with, bytes, idle, idle_with, idle_bytes);
}

static ssize_t bench_command(char *buf)
{
	unsigned int calls = 10000, reps = 7;
	int users = 0, ret;
	char what[16];

	if (sscanf(buf, "%15s", what) != 1)
		return -EINVAL;

	if (!strcmp(what, "off") || !strcmp(what, "function") ||
	    !strcmp(what, "fgraph") || !strcmp(what, "fgraph-times")) {
		sscanf(buf, "%*s %d %u %u", &users, &calls, &reps);
		if (reps < 1 || reps > BENCH_MAX_REPS || !calls)
			return -EINVAL;
		if (!strncmp(what, "fgraph", 6) ?
		    users < 1 || users > BENCH_MAX_USERS : users != 0)
			return -EINVAL;
		if (bench_held)
			return -EBUSY;
		bench_timed(what, users, calls, reps);
	} else if (!strcmp(what, "hold")) {
		if (sscanf(buf, "%*s %d", &users) != 1)
			return -EINVAL;
		if (bench_held)
			return -EBUSY;
		ret = bench_register(users, false);
		if (!ret)
			bench_held = users;
		scnprintf(bench_result, sizeof(bench_result), "hold %d %s %d\n",
			  users, ret ? "error" : "ok", ret);
	} else if (!strcmp(what, "release")) {
		bench_unregister(bench_held);
		scnprintf(bench_result, sizeof(bench_result), "release %d ok 0\n",
			  bench_held);
		bench_held = 0;
	} else if (!strcmp(what, "mem")) {
		bench_mem();
	} else if (!strcmp(what, "deep")) {
		if (sscanf(buf, "%*s %d", &users) != 1 || users < 1 || users > 1000)
			return -EINVAL;
		scnprintf(bench_result, sizeof(bench_result), "deep %d %d\n",
			  users, fgraph_bench_deep(users));
	} else {
		return -EINVAL;
	}
	return 0;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[64];
	ssize_t ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&bench_lock);
	ret = bench_command(buf);
	mutex_unlock(&bench_lock);
	return ret ? ret : count;
}

static ssize_t bench_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_result,
				      strlen(bench_result));
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct proc_ops bench_proc_ops = {
	.proc_read	= bench_read,
	.proc_write	= bench_write,
	.proc_lseek	= default_llseek,
};

static int __init fgraph_bench_init(void)
{
	return proc_create("fgraph_bench", 0600, NULL, &bench_proc_ops) ? 0 : -ENOMEM;
}
late_initcall(fgraph_bench_init);
