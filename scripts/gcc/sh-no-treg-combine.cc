// SPDX-License-Identifier: GPL-2.0
/*
 * A GCC plugin for Debian 12's sh4 cross compiler (GCC 12.2): it turns off
 * the SH back end's sh_treg_combine2 and sh_treg_combine3 passes. With them,
 *
 *	extern int d, x; extern void f(void);
 *	void g(int l) { if (l == -2) x = 1; if (d) f(); }
 *
 * compiles (at -O1, -O2 and -Os) to code that never loads d: its tst is
 * dropped and the branch to f() reads the T bit of the cmp/eq #-2. The
 * kernel has that shape (vprintk_emit()'s printk_delay(), the zImage
 * loader), and does not boot. Both passes only fold T-bit computations;
 * without them the load and the test stay. See docs/arch/sh.md.
 *
 * The target registers these passes when it processes its options, after
 * plugin_init(), so they are replaced at the start of the unit.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "context.h"
#include "tree-pass.h"

int plugin_is_GPL_compatible;

/* one pass object, with a name of its own, per pass replaced */
static const pass_data off_data[] = {
	{ RTL_PASS, "sh_treg_combine2_off", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0 },
	{ RTL_PASS, "sh_treg_combine3_off", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0 },
};
static const char *const replaced[] = { "sh_treg_combine2", "sh_treg_combine3" };

class off_pass : public rtl_opt_pass {
public:
	off_pass(const pass_data &data, gcc::context *ctxt) : rtl_opt_pass(data, ctxt) {}
	bool gate(function *) final override { return false; }
};

static void replace_passes(void *, void *)
{
	static bool done;
	struct register_pass_info info;

	if (done)
		return;
	done = true;
	for (unsigned int i = 0; i < 2; i++) {
		info.pass = new off_pass(off_data[i], g);
		info.reference_pass_name = replaced[i];
		info.ref_pass_instance_number = 1;
		info.pos_op = PASS_POS_REPLACE;
		register_pass(&info);
	}
}

int plugin_init(struct plugin_name_args *args, struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version))
		return 1;
	register_callback(args->base_name, PLUGIN_START_UNIT, replace_passes, NULL);
	return 0;
}
