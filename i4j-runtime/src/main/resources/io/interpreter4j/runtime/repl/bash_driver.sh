# interpreter4j bash REPL driver: bash runs `bash --noprofile --norc /dev/stdin` and reads this prelude, then
# one line per block from the Java side, followed by <n> bytes: the block's marker, a space and its code.
#   { __i4j_b <n> [C];} 2>&63;. /dev/fd/60;{ __i4j_d $?;} 2>&63
# bash reads a script from a pipe one byte per read(2), so the line is short and the code comes in one `read -N`
# (C: the code is not ASCII, so it is counted in bytes, in the C locale); __i4j_b puts it on fd 60 as a
# here-string, and `.` runs it at top level as a file would be run (state persists, and the INT trap's `return`
# ends the block). A block written to a file instead: { __i4j_f <marker>;} 2>&63;. '<file>';{ __i4j_d $?;} 2>&63
# The shell reads its script through its own close-on-exec descriptor, so fd 0 can become /dev/null: user
# code (read, cat, children) sees end-of-file instead of stealing the next command or hanging.
# fixed high fds rather than {var} allocation, which bash 3.2 (macOS) lacks. 63 is /dev/null, opened once: the
# driver's own calls send their xtrace there (`2>&63`, a dup) instead of opening /dev/null twice per block.
exec 0</dev/null 61>&1 62>&2 63>/dev/null
__i4j_running=
__i4j_m=
__i4j_trap_int() {
  # An interrupt returns from the sourced block (not from the shell); when idle it does nothing.
  # Re-installed before every block because bash can lose the trap after a `return` out of it.
  trap 'if [ -n "$__i4j_running" ]; then return 130; fi' INT
}
if [ "${BASH_VERSINFO[0]}" -gt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -ge 1 ]; }; then
  __i4j_read() { # <n> [C]: n characters (bytes, with C) from the script's own descriptor, in one read
    if [ -n "${2-}" ]; then
      IFS= LC_ALL=C builtin read -r -N "$1" -u 255 __i4j_c
    else
      IFS= builtin read -r -N "$1" -u 255 __i4j_c
    fi
  }
else
  __i4j_read() { # bash before 4.1 has no read -N: -n with no delimiter (the code holds no NUL)
    if [ -n "${2-}" ]; then
      IFS= LC_ALL=C builtin read -r -d '' -n "$1" -u 255 __i4j_c
    else
      IFS= builtin read -r -d '' -n "$1" -u 255 __i4j_c
    fi
  }
fi
__i4j_b() {
  # the trap still set does nothing while __i4j_running is empty, and bash resumes the read after it
  __i4j_read "$@"
  __i4j_m=${__i4j_c%% *}
  exec 60<<<"${__i4j_c#* }"
  __i4j_c=
  __i4j_trap_int
  __i4j_running=1
}
__i4j_f() {
  __i4j_m=$1
  __i4j_trap_int
  __i4j_running=1
}
__i4j_d() {
  __i4j_running=
  exec 60<&-
  # markers go to private copies of fds 1 and 2: same pipes, so they come after the block's output
  builtin printf '\002%s %d -\n' "$__i4j_m" "$1" >&61
  builtin printf '\002%s %d -\n' "$__i4j_m" "$1" >&62
}
__i4j_trap_int
