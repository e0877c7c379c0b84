# interpreter4j bash REPL driver: bash runs `bash --noprofile --norc /dev/stdin` with this driver in its environment
# (__I4J_BASH_DRIVER) and reads a one-line prelude that evaluates it and unsets the variable (read from the pipe, this
# file would cost a read(2) per byte), then per block one short line from the Java side, then the block's
# 32-character marker and its code's bytes:
#   { __i4j_begin <count> [bytes];} 2>&63;. /dev/fd/60 60<<<"$__i4j_code";{ __i4j_done $?;} 2>&63
# bash parses a script from a pipe one byte per read(2), so only that line goes through the parser; the marker and
# the code are taken by `read -N` from the same descriptor (255, the script's), and the code is sourced at top level,
# not run in a function, so declare/cd/functions/traps persist and `return` or an interrupt ends the block.
# The shell reads its script through its own close-on-exec descriptor, so fd 0 can become /dev/null: user
# code (read, cat, children) sees end-of-file instead of stealing the next command or hanging.
# fixed high fds rather than {var} allocation, which bash 3.2 (macOS) lacks. 63 is /dev/null, opened once: the
# driver's own calls send their xtrace there (`2>&63`, a dup) instead of opening /dev/null twice per block.
exec 0</dev/null 61>&1 62>&2 63>/dev/null
__i4j_running=
__i4j_trap_int() {
  # An interrupt returns from the sourced block (not from the shell); when idle it does nothing.
  # Re-installed before every block because bash can lose the trap after a `return` out of it.
  trap 'if [ -n "$__i4j_running" ]; then return 130; fi' INT
}
if [ -z "${I4J_BASH_NO_READ_N-}" ] && ((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 1)))
then
  __i4j_begin() {
    __i4j_trap_int
    # -N: exactly so many characters, not split on IFS, in one read(2); `bytes`: the code is not ASCII, so <count>
    # is its UTF-8 bytes, read in the C locale whatever locale the blocks set. A TMOUT the blocks set must not time
    # these reads out.
    if [ -n "${TMOUT+set}" ]; then
      local TMOUT
    fi
    builtin read -r -N 32 -u 255 __i4j_marker
    if [ -z "${2-}" ]; then
      builtin read -r -N "$1" -u 255 __i4j_code
    else
      LC_ALL=C builtin read -r -N "$1" -u 255 __i4j_code
    fi
    __i4j_running=1
  }
else
  # bash before 4.1 (macOS's 3.2) has no -N: -n takes as many characters, a byte per read(2), up to a NUL that never
  # comes (the Java side leaves NUL bytes out); IFS= keeps blanks at either end. I4J_BASH_NO_READ_N=1 tests this path.
  __i4j_begin() {
    __i4j_trap_int
    if [ -n "${TMOUT+set}" ]; then
      local TMOUT
    fi
    IFS= builtin read -r -d '' -n 32 -u 255 __i4j_marker
    __i4j_code=
    if [ "$1" -gt 0 ] && [ -z "${2-}" ]; then
      IFS= builtin read -r -d '' -n "$1" -u 255 __i4j_code
    elif [ "$1" -gt 0 ]; then
      LC_ALL=C IFS= builtin read -r -d '' -n "$1" -u 255 __i4j_code
    fi
    __i4j_running=1
  }
fi
__i4j_done() {
  __i4j_running=
  __i4j_code=
  # markers go to private copies of fds 1 and 2: same pipes, so they come after the block's output
  printf '\002%s %d -\n' "$__i4j_marker" "$1" >&61
  printf '\002%s %d -\n' "$__i4j_marker" "$1" >&62
}
__i4j_trap_int
