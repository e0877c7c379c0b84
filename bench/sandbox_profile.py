# The pieces of a sandboxed python's start, each alone (docs/performance.md, "Round three: the sandboxed first block"):
#   python3 bench/sandbox_profile.py [runs] [python]
# Starts each variant as the worker starts a sandboxed interpreter (setsid, the sh that ignores SIGINT, bwrap with a
# session's mounts, python running the REPL driver), sends one print(1) block where the driver runs, and prints the
# minimum and median wall time of each, the variants alternating. Needs bwrap.
import os, shutil, statistics, subprocess, sys, tempfile, time

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
python = sys.argv[2] if len(sys.argv) > 2 else os.path.realpath(shutil.which("python3"))
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
driver = open(os.path.join(root, "i4j-runtime/src/main/resources/io/interpreter4j/runtime/repl/python_driver.py")).read()
home = os.path.expanduser("~")
d = tempfile.mkdtemp(prefix="i4j-sandbox-profile-")
work, session = os.path.join(d, "work"), os.path.join(d, "data/sessions/s1")
os.makedirs(work), os.makedirs(session)
sh = ["setsid", "/bin/sh", "-c", "trap '' INT; \"$0\" \"$@\"; exit $?"]
bwrap = ["bwrap", "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--ro-bind", "/", "/", "--dev", "/dev",
         "--proc", "/proc", "--tmpfs", "/tmp", "--bind", work, work, "--bind", session, session,
         "--setenv", "XDG_CACHE_HOME", "/tmp/.cache", "--chdir", work, "--"]
minimal = ["bwrap", "--die-with-parent", "--unshare-pid", "--ro-bind", "/", "/", "--chdir", work, "--"]
no_dev_proc = [a for i, a in enumerate(bwrap) if a not in ("--dev", "--proc") and bwrap[i - 1] not in ("--dev", "--proc")]
env = dict(os.environ, PYTHONUNBUFFERED="1", I4J_SHARED_PROCESS_GROUP="1")
block = b"print(1)"
variants = {
    "setsid sh true": (sh + ["/bin/true"], False),
    "bwrap true": (sh + bwrap + ["/bin/true"], False),
    "bwrap (ro / and pid only) true": (sh + minimal + ["/bin/true"], False),
    "bwrap without --dev --proc true": (sh + no_dev_proc + ["/bin/true"], False),
    "python -S -c pass": ([python, "-S", "-c", "pass"], False),
    "python -c pass": ([python, "-c", "pass"], False),
    "driver + print(1)": ([python, "-u", "-c", driver], True),
    "driver -S + print(1)": ([python, "-S", "-u", "-c", driver], True),
    "bwrap driver + print(1)": (sh + bwrap + [python, "-u", "-c", driver], True),
}


def run(argv, with_block):
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    if with_block:
        p.stdin.write(b"M1 %d <block-1>\n" % len(block) + block)
        p.stdin.flush()
        seen = b""
        while b"\x02M1" not in seen:
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                raise SystemExit("the driver ended early: %r" % seen)
            seen += chunk
        took = time.perf_counter() - start
        p.stdin.close()
    else:
        p.stdin.close()
        p.stdout.read()
        took = time.perf_counter() - start
    p.wait()
    return took * 1000


try:
    times = {name: [] for name in variants}
    for _ in range(runs):
        for name, (argv, with_block) in variants.items():
            times[name].append(run(argv, with_block))
    print("load average %.1f %.1f %.1f; %d runs each; python %s" % (os.getloadavg() + (runs, python)))
    for name, values in times.items():
        print("%-34s min %6.1f ms  median %6.1f ms" % (name, min(values), statistics.median(values)))
finally:
    shutil.rmtree(d, ignore_errors=True)
