#!/bin/sh
# A stand-in for ssh in tests (GNU parallel's PARALLEL_SSH): drops ssh's options and the host
# name and runs the command on this machine, so `combosim sweep --hosts --transfer` can be
# run end to end without a remote host (its rsync transfers then copy onto the same paths).
# Logs each call to $FAKESSH_LOG when set.
# sshd gives the remote command the login shell in SHELL, and GNU parallel's remote wrapper
# execs $SHELL: without it (CI starts tests with SHELL unset) every remote job fails.
export SHELL="${SHELL:-/bin/sh}"
[ -n "${FAKESSH_LOG:-}" ] && echo "$*" >>"$FAKESSH_LOG"
while [ $# -gt 0 ]; do
	case $1 in
	-o | -p | -l | -i | -S | -F) shift 2 ;;
	-*) shift ;;
	*) shift; break ;;
	esac
done
[ "${1:-}" = "--" ] && shift
exec sh -c "$*"
