# The floor of a bash block round trip: one persistent shell, no runtime. Reads "<marker> <nbytes>\n<code>" on
# stdin (the framing i4j's driver uses), evaluates the code at top level, answers "\x02<marker> <status> -\n".
while IFS=' ' read -r __marker __size; do
  IFS= read -r -d '' -N "$__size" __code
  eval "$__code"
  printf '\002%s %d -\n' "$__marker" "$?"
done
