#!/usr/bin/env bash
# make help is the reference for targets and variables: every target the
# Makefile declares (.PHONY) and every variable that scripts/*.sh read
# with a default (${VAR:-...}, ${VAR:+...}) is in it, but for the keys
# of qemu/<arch>.conf (qemu/README.md documents them) and the settings
# one script hands another.
cd "$(dirname "$0")/../.." || exit 1
internal="T0 SRC OBJ RUNDIR VARIANT SERIES BUILD GUEST_FILES GCC_PLUGIN_SO"
keys=$(sed -n '/^ARCH_CONF_KEYS="/,/"$/p' scripts/lib.sh | tr -d '"' | sed 's/^ARCH_CONF_KEYS=//')
[ -n "$keys" ] || { echo "help: no ARCH_CONF_KEYS in scripts/lib.sh"; exit 1; }
help=$(make -s help) || { echo "help: make help failed"; exit 1; }
bad=0 nt=0 nv=0
for t in $(sed -n 's/^\.PHONY: *//p' Makefile); do
	nt=$((nt + 1))
	grep -qE "^  $t( |$)" <<< "$help" || { echo "help: target $t is not in make help"; bad=1; }
done
for v in $(grep -ohE '\$\{[A-Z_][A-Z0-9_]*(:-|:\+|-)' scripts/*.sh | sed 's/^\${//; s/[:+-]*$//' | sort -u); do
	case " $internal $(echo $keys) " in *" $v "*) continue ;; esac
	nv=$((nv + 1))
	grep -qE "^  ([A-Z_, ]+, )?$v( |,|$)" <<< "$help" || { echo "help: variable $v (read by $(grep -l "\${$v[:+-]" scripts/*.sh | tr '\n' ' ')) is not in make help"; bad=1; }
done
[ $bad = 0 ] && echo "help: all $nt targets and $nv variables are in make help"
exit $bad
