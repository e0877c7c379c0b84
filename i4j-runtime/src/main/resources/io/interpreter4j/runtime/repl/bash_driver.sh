# interpreter4j bash REPL driver: bash runs `bash --noprofile --norc /dev/stdin` and reads this prelude, then
# one line per block from the Java side:
#   { __i4j_begin; } 2>&63; . '<code file>'; { __i4j_done <marker> $?; } 2>&63
# The shell reads its script through its own close-on-exec descriptor, so fd 0 can become /dev/null: user
# code (read, cat, children) sees end-of-file instead of stealing the next command or hanging.
# Blocks are sourced at top level, not run in a function, so declare/cd/functions/traps persist.
# fixed high fds rather than {var} allocation, which bash 3.2 (macOS) lacks. 63 is /dev/null, opened once: the
# driver's own calls send their xtrace there (`2>&63`, a dup) instead of opening /dev/null twice per block.
exec 0</dev/null 61>&1 62>&2 63>/dev/null
__i4j_running=
__i4j_trap_int() {
  # An interrupt returns from the sourced block (not from the shell); when idle it does nothing.
  # Re-installed before every block because bash can lose the trap after a `return` out of it.
  trap 'if [ -n "$__i4j_running" ]; then return 130; fi' INT
}
__i4j_begin() {
  __i4j_trap_int
  __i4j_running=1
}
__i4j_done() {
  __i4j_running=
  # markers go to private copies of fds 1 and 2: same pipes, so they come after the block's output
  printf '\002%s %d -\n' "$1" "$2" >&61
  printf '\002%s %d -\n' "$1" "$2" >&62
}
__i4j_trap_int
