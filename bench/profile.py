# gdb script for 'make profile': where the instructions of one traced call go.
#
# Attached to QEMU's gdbstub (-s) with the bench kernel's vmlinux
# (PROFILE_ARCH: x86_64 or arm64).
# PROFILE_CASES lists label@function, in the order the guest
# (bench/profile-guest.sh) makes one call of each. For each case, a
# hardware breakpoint (ftrace rewrites the first bytes of the function) on
# its function; when the guest enters it, single-step until that call
# returns to its caller and count the instructions per function symbol (a
# pc with no symbol is in a trampoline ftrace allocated). Prints one table
# per case, lines starting with "P ".
import os
import gdb

cases = os.environ["PROFILE_CASES"].split()
top = int(os.environ.get("PROFILE_TOP", "25"))
names = {}


def symbol(pc):
    if pc not in names:
        s = gdb.execute("info symbol %d" % pc, to_string=True)
        names[pc] = s.split(" in section")[0].split(" + ")[0].strip() \
            if "No symbol" not in s else "[trampoline]"
    return names[pc]


# x86_64: the return address is on the stack and the return pops it;
# arm64: it is in x30 and the stack pointer is back where it was
arm64 = os.environ.get("PROFILE_ARCH") == "arm64"
spreg = "sp" if arm64 else "rsp"


def returned(sp):
    now = int(gdb.selected_frame().read_register(spreg)) & (2**64 - 1)
    return now >= sp if arm64 else now > sp


def profile(label):
    frame = gdb.selected_frame()
    sp = int(frame.read_register(spreg)) & (2**64 - 1)
    # (gdb reads arm64's x30 as a signed long)
    ret = int(frame.read_register("x30")) & (2**64 - 1) if arm64 else \
        int(gdb.parse_and_eval("*(unsigned long *)$rsp"))
    counts, order, steps = {}, [], 0
    while True:
        pc = int(gdb.selected_frame().pc())
        if pc == ret and returned(sp):
            break
        name = symbol(pc)
        if name not in counts:
            counts[name] = 0
            order.append(name)
        counts[name] += 1
        steps += 1
        if steps > 200000:
            print("P %s: more than 200000 steps, stopped" % label)
            break
        gdb.execute("stepi", to_string=True)
    if label.startswith("fgraph-") and len(counts) == 1:
        print("P case %s: refused by this kernel" % label)
        return
    print("P case %s: %d instructions" % (label, steps))
    ranked = sorted(order, key=lambda n: -counts[n])
    for name in ranked[:top]:
        print("P   %6d  %s" % (counts[name], name))
    if len(ranked) > top:
        rest = sum(counts[n] for n in ranked[top:])
        print("P   %6d  (%d more functions)" % (rest, len(ranked) - top))


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :%s" % os.environ.get("PROFILE_PORT", "1234"))
for case in cases:
    label, func = case.split("@")
    gdb.execute("hbreak %s" % func, to_string=True)
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        print("P case %s: the guest ended before calling %s" % (label, func))
        break
    gdb.execute("delete", to_string=True)
    try:
        profile(label)
    except gdb.error:
        print("P case %s: the guest ended before calling %s" % (label, func))
        break
gdb.execute("detach", to_string=True)
