# interpreter4j per-block runner, run as `sh -c <this file> i4j-<language>`: languages without a persistent
# REPL run each block as a fresh process, and this POSIX shell stays to give them the same guarantees.
# Protocol: one line per block on the original stdin, "<marker> <argv, each word single-quoted>". The command
# runs in the foreground with stdin at /dev/null and without the runner's private descriptors; then
# "\002<marker> <status> -" goes to private copies of stdout and stderr, after everything the command wrote.
exec 3<&0 4>&1 5>&2 </dev/null
unset I4J_SHARED_PROCESS_GROUP # the runner never leaves its process group; the note is of no use to the code
# a handler, not an ignore: the command gets SIGINT (it is in our process group) and the runner survives it
trap ':' INT
while :; do
  if IFS= read -r __i4j_line <&3; then
    __i4j_marker=${__i4j_line%% *}
    eval "set -- ${__i4j_line#* }"
    "$@" 3<&- 4>&- 5>&-
    __i4j_status=$?
    printf '\002%s %d -\n' "$__i4j_marker" "$__i4j_status" >&4
    printf '\002%s %d -\n' "$__i4j_marker" "$__i4j_status" >&5
  elif [ $? -le 128 ]; then
    exit 0 # end of the command channel: the worker is done with us
  fi
done
