# The floor of a python block round trip: one persistent process, no runtime. Reads "<marker> <nbytes>\n<code>"
# on stdin (the framing i4j's driver uses), runs the code in one namespace, answers "\x02<marker> 0 -\n" on stdout.
import os, sys
commands = sys.stdin.buffer
namespace = {"__name__": "__main__"}
while True:
    header = commands.readline()
    if not header:
        break
    marker, size = header.split()
    code = commands.read(int(size))
    exec(compile(code, "<block>", "exec"), namespace)
    sys.stdout.flush()
    os.write(1, b"\x02" + marker + b" 0 -\n")
