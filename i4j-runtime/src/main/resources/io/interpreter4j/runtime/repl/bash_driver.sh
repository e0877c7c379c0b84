# interpreter4j bash REPL driver: bash runs `bash --noprofile --norc /dev/stdin` and reads this prelude (sent without
# its comments and indentation, behind one line that reads it with `read -N` and evals it: ReplDialect.BashPrelude;
# so no multi-line strings or here-documents here, and ASCII only), then per
# block the line `__i4j_x` from the Java side, then a 42-character header (the block's 32-character marker, its
# code's length as 9 digits, `-` for ASCII code or `b` for code counted in UTF-8 bytes) and the code's bytes.
# bash parses a script from a pipe one byte per read(2), so only that short line goes through the parser: it is an
# alias for the block's command line (below), and the header and code are taken by `read -N` from the same
# descriptor (255, the script's). The code is sourced at top level, not run in a function, so declare/cd/functions/
# traps persist and `return` or an interrupt ends the block.
# The shell reads its script through its own close-on-exec descriptor, so fd 0 can become /dev/null: user
# code (read, cat, children) sees end-of-file instead of stealing the next command or hanging.
# fixed high fds rather than {var} allocation, which bash 3.2 (macOS) lacks. 63 is /dev/null, opened once: the
# driver's own calls send their xtrace there (`2>&63`, a dup) instead of opening /dev/null twice per block.
exec 0</dev/null 61>&1 62>&2 63>/dev/null
__i4j_running=
# set by the sourced fd 59 (or by __i4j_begin's argument on the other paths): whether the block's file really ran
__i4j_in=1
# the blocks' own expand_aliases setting (off in a script), restored for each block: the driver's alias needs it on
__i4j_ua=
# fd 59: a file holding `__i4j_in=1;eval "$__i4j_code"`, sourced by each block. `.` of a regular file reads it in one
# read(2); a here-string costs a pipe, a write and more per block. It is a here-document's temporary file (BASH_COMPAT
# 5.0 keeps bash 5.1+ from using a pipe), created owner-only and unlinked by bash itself, so no block can delete or
# replace it by name; /dev/fd/59 opens it again from the start each time. Where that does not hold (no writable
# TMPDIR, /dev/fd sharing the offset as on macOS), the blocks are sourced from a here-string as before.
__i4j_open59() {
  __i4j_t=${BASH_COMPAT-unset}
  BASH_COMPAT=50
  exec 59<<<'__i4j_in=1;eval "$__i4j_code"'
  if [ "$__i4j_t" = unset ]; then
    unset BASH_COMPAT
  else
    BASH_COMPAT=$__i4j_t
  fi
  __i4j_t=0
  __i4j_code='__i4j_t=$((__i4j_t + 1))'
  [ -f /dev/fd/59 ] && . /dev/fd/59 && . /dev/fd/59 && [ "$__i4j_t" = 2 ]
}
# I4J_BASH_NO_FD59=1 tests the here-string path
if [ -z "${I4J_BASH_NO_FD59-}" ]; then
  { __i4j_open59;} 2>&63
  __i4j_file=$?
else
  __i4j_file=1
fi
__i4j_code=
__i4j_t=
if [ "$__i4j_file" = 0 ]; then
  __i4j_plain='__i4j_begin;. /dev/fd/59;{ __i4j_done $?;} 2>&63'
else
  exec 59<&-
  __i4j_plain='{ __i4j_begin 60;} 2>&63;. /dev/fd/60 60<<<"$__i4j_code";{ __i4j_done $?;} 2>&63'
fi
# while the blocks trace (set -x), the driver's calls send their trace to 63 and the code is sourced from a
# here-string, so the trace shows the block's commands, not an `eval` of them
__i4j_traced='{ __i4j_begin 60;} 2>&63;. /dev/fd/60 60<<<"$__i4j_code";{ __i4j_done $?;} 2>&63'
__i4j_lost59() {
  builtin printf '%s\n' "interpreter4j: this block did not run: an earlier block closed or replaced file descriptor 59, which the shell driver reads each block's code through. The driver has opened it again; run the block again (and leave descriptors 59 and 61-63 alone)." >&62
  { __i4j_open59;} 2>&63 || {
    exec 59<&-
    __i4j_plain=$__i4j_traced
  }
  __i4j_code=
  __i4j_t=
}
if [ -z "${I4J_BASH_NO_READ_N-}" ] && ((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 1)))
then
  __i4j_begin() {
    # Re-installed before every block because bash can lose the trap after a `return` out of it, and a block may
    # set its own.
    builtin trap 'if [[ $__i4j_running ]]; then return 130; fi' INT
    # -N: exactly so many characters, not split on IFS, in one read(2); `b`: the code is not ASCII, so its length
    # is in UTF-8 bytes, read in the C locale whatever locale the blocks set. A TMOUT the blocks set must not time
    # these reads out.
    [[ -z ${TMOUT+set} ]] || local TMOUT
    builtin read -r -N 42 -u 255 __i4j_marker
    if [[ ${__i4j_marker:41} == - ]]; then
      builtin read -r -N "${__i4j_marker:32:9}" -u 255 __i4j_code
    else
      LC_ALL=C builtin read -r -N "${__i4j_marker:32:9}" -u 255 __i4j_code
    fi
    __i4j_marker=${__i4j_marker:0:32}
    [[ $__i4j_ua ]] || builtin shopt -u expand_aliases
    __i4j_in=${1-}
    __i4j_running=1
  }
else
  # bash before 4.1 (macOS's 3.2) has no -N: -n takes as many characters, a byte per read(2), up to a NUL that never
  # comes (the Java side leaves NUL bytes out); IFS= keeps blanks at either end. I4J_BASH_NO_READ_N=1 tests this path.
  __i4j_begin() {
    builtin trap 'if [[ $__i4j_running ]]; then return 130; fi' INT
    [[ -z ${TMOUT+set} ]] || local TMOUT
    IFS= builtin read -r -d '' -n 42 -u 255 __i4j_marker
    __i4j_code=
    if [[ ${__i4j_marker:32:9} == 000000000 ]]; then
      :
    elif [[ ${__i4j_marker:41} == - ]]; then
      IFS= builtin read -r -d '' -n "${__i4j_marker:32:9}" -u 255 __i4j_code
    else
      LC_ALL=C IFS= builtin read -r -d '' -n "${__i4j_marker:32:9}" -u 255 __i4j_code
    fi
    __i4j_marker=${__i4j_marker:0:32}
    [[ $__i4j_ua ]] || builtin shopt -u expand_aliases
    __i4j_in=${1-}
    __i4j_running=1
  }
fi
__i4j_done() {
  __i4j_running=
  [[ $__i4j_in ]] || __i4j_lost59
  __i4j_code=
  if builtin shopt -q expand_aliases; then
    __i4j_ua=1
  else
    __i4j_ua=
    builtin shopt -s expand_aliases
  fi
  # the next block's command line: again if a block removed it (unalias -a), the traced one while set -x is on
  case $- in
    *x*) [[ ${BASH_ALIASES[__i4j_x]-} == "$__i4j_traced" ]] || builtin alias __i4j_x="$__i4j_traced" ;;
    *) [[ ${BASH_ALIASES[__i4j_x]-} == "$__i4j_plain" ]] || builtin alias __i4j_x="$__i4j_plain" ;;
  esac
  # markers go to private copies of fds 1 and 2: same pipes, so they come after the block's output
  builtin printf '\002%s %d -\n' "$__i4j_marker" "$1" >&61
  builtin printf '\002%s %d -\n' "$__i4j_marker" "$1" >&62
}
builtin trap 'if [[ $__i4j_running ]]; then return 130; fi' INT
builtin alias __i4j_x="$__i4j_plain"
builtin shopt -s expand_aliases
