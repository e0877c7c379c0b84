# interpreter4j python fork server, run as `python -u -c <this file> <fifo folder> <driver source>`.
# One per JVM (PythonForkServer.java). It starts once with the REPL driver's imports loaded and forks a child per
# python interpreter a session asks for, so a new interpreter costs a fork instead of a python start (as
# multiprocessing's forkserver does). The child runs python_driver.py as `python -u -c <driver>` would.
# Requests, one line each on stdin: "fork <id> <json>", json {"cwd": dir, "env": {name: value}} (and
# "open_within_s", 60 when absent: a child whose FIFOs the JVM has not opened by then ends). For each the
# server makes three FIFOs <fifo folder>/<id>.in, .out and .err and forks; the child leads a new session (its own
# process group), opens the FIFOs as its fds 0, 1 and 2 (the JVM opens the other ends in the same order), takes
# the environment and working directory, and runs the driver.
# "exec <id> <json>", json {"cwd", "env", "argv"} (an absolute path first): a program (bash) started directly with
# posix_spawn (no python fork, whose copied pages cost more than the program's own start), in a new session, with
# the FIFOs as its fds 0, 1 and 2, SIGINT, SIGPIPE and SIGXFSZ at their defaults and no signal blocked, as a process
# the JVM spawns has them (the JVM would start jspawnhelper, setsid and env before it). The server opens the
# program's ends itself without waiting (a FIFO end opens at once when the other end is open: the server holds one
# until the JVM has opened its ends and says "opened <id>"), so neither the spawn nor the program's open of
# /dev/stdin waits for the JVM, and a JVM gone before it opened leaves a program that reads end of file and ends.
# With "sigint": "ignore" in the json the program starts with SIGINT ignored instead (bwrap, which must outlive an
# interrupt of its group: the code below it takes SIGINT; the server, single-threaded and living as long as the JVM,
# is then the parent bwrap's --die-with-parent watches, where the JVM needed a shell between them).
# "signal <pgid> <signum>": the signal to a process group (an interpreter's, as `kill -s SIG -- -PGID` would send
# it; the JVM has no killpg of its own and would otherwise start a kill process for it). No reply.
# Replies, one line each on stdout: "ready <pid>" once, "forked <id> <pid>" or "failed <id> <reason>" per request,
# and "exit <pid> <code>" when a child ends (code as Java's Process.exitValue() gives it: 128+N for signal N).
# End of file on stdin (the JVM is gone or closing): the server exits; its children go on until the JVM closes
# their stdin.
import gc, json, os, signal, sys
# what the driver imports at its start, loaded once here for every child
import _ast, builtins, importlib.machinery, importlib.util, linecache, traceback, types


def _i4j_serve(fifos):
    control_in = os.fdopen(os.dup(0), "rb")
    control_out = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)

    def report(line):
        # lines are short (< PIPE_BUF), so one write is whole even when the SIGCHLD handler reports in between
        data = line.encode("utf-8", "replace")
        while data:
            data = data[os.write(control_out, data):]

    def reap(signum=None, frame=None):
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if os.WIFEXITED(status):
                report("exit %d %d\n" % (pid, os.WEXITSTATUS(status)))
            elif os.WIFSIGNALED(status):
                report("exit %d %d\n" % (pid, 128 + os.WTERMSIG(status)))

    signal.signal(signal.SIGCHLD, reap)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C in the JVM's terminal is the JVM's to handle
    gc.collect()
    gc.freeze()  # the children's collections leave the server's objects (and their pages) alone
    held = {}  # exec id -> the server's own ends of its FIFOs, kept until the JVM has opened its ends
    report("ready %d\n" % os.getpid())
    while True:
        line = control_in.readline()
        if not line:
            os._exit(0)
        verb, _, rest = line.decode("utf-8").rstrip("\n").partition(" ")
        ident, _, payload = rest.partition(" ")
        if verb == "signal" and ident.isdigit() and int(ident) > 1 and payload.isdigit():
            try:
                os.killpg(int(ident), int(payload))
            except OSError:
                pass  # the group is gone already (or was never ours to signal)
            continue
        if verb == "opened":
            for fd in held.pop(ident, ()):
                os.close(fd)
            continue
        if verb not in ("fork", "exec") or not ident.isdigit():
            report("failed %s not a request: %r\n" % (ident or "-", line[:80]))
            continue
        try:
            request = json.loads(payload)
            if verb == "exec" and not (isinstance(request.get("argv"), list) and request["argv"]
                                       and os.path.isabs(request["argv"][0])):
                raise ValueError("exec needs argv with an absolute path first")
            paths = [os.path.join(fifos, ident + suffix) for suffix in (".in", ".out", ".err")]
            for path in paths:
                os.mkfifo(path, 0o600)
        except (ValueError, OSError) as e:
            report("failed %s %s: %s\n" % (ident, type(e).__name__, str(e).replace("\n", " ")))
            continue
        if verb == "exec":
            _i4j_spawn(ident, request, paths, held, report)
            continue
        # SIGCHLD waits until "forked" is out: the JVM hears of a child before it hears of its exit
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
        try:
            pid = os.fork()
        except OSError as e:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            report("failed %s fork: %s\n" % (ident, e))
            continue
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            control_in.close()
            os.close(control_out)
            return request, paths
        report("forked %s %d\n" % (ident, pid))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})


def _i4j_spawn(ident, request, paths, held, report):
    """Starts request["argv"] on the FIFOs with posix_spawn; reports "forked" or "failed"."""
    opened = []  # every fd opened here; the program's three are closed after the spawn, the rest when "opened"
    try:
        child_in = os.open(paths[0], os.O_RDONLY | os.O_NONBLOCK)  # opens without waiting for a writer
        opened.append(child_in)
        os.set_blocking(child_in, True)
        opened.append(os.open(paths[0], os.O_WRONLY | os.O_NONBLOCK))  # a writer until the JVM's: no early EOF
        # and a reader until the JVM's writer is open: a program that ends at once (it never reads its stdin) must
        # not leave the JVM's open of its stdin waiting for a reader that is gone
        opened.append(os.open(paths[0], os.O_RDONLY | os.O_NONBLOCK))
        ends = [child_in]
        for path in paths[1:]:
            opened.append(os.open(path, os.O_RDONLY | os.O_NONBLOCK))  # a reader, so the writer opens at once
            ends.append(os.open(path, os.O_WRONLY))
            opened.append(ends[-1])
            # and a writer of its own until the JVM's reader is open: a program that ends at once must not leave the
            # JVM's open of its stdout or stderr waiting for a writer that is gone
            opened.append(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        # as a process the JVM spawns has them: python ignores SIGPIPE and SIGXFSZ, and the server SIGINT (an
        # ignored signal stays ignored across exec, and a shell started with SIGINT ignored cannot trap it)
        defaults = [signal.SIGPIPE] + ([signal.SIGXFSZ] if hasattr(signal, "SIGXFSZ") else [])
        if request.get("sigint") != "ignore":
            defaults.append(signal.SIGINT)
        argv = request["argv"]
        os.chdir(request["cwd"])  # posix_spawn has no chdir of its own here; the server is single-threaded
        try:
            # SIGCHLD waits until "forked" is out: the JVM hears of a child before it hears of its exit
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
            pid = os.posix_spawn(argv[0], argv, request["env"],
                                 file_actions=[(os.POSIX_SPAWN_DUP2, fd, n) for n, fd in enumerate(ends)],
                                 setsid=True, setsigdef=defaults, setsigmask=())
        finally:
            os.chdir("/")
    except (OSError, AttributeError, NotImplementedError, TypeError, ValueError) as e:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        for fd in opened:
            os.close(fd)
        for path in paths:
            try:
                os.unlink(path)
            except OSError:
                pass
        report("failed %s %s: %s\n" % (ident, type(e).__name__, str(e).replace("\n", " ")))
        return
    for fd in ends:
        os.close(fd)
        opened.remove(fd)
    held[ident] = opened
    report("forked %s %d\n" % (ident, pid))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})


def _i4j_child(request, paths):
    os.setsid()  # a new session: its own process group, no controlling terminal, as `setsid python` gives
    # a JVM that is gone (killed between its request and its opens) would leave the opens below waiting for ever, a
    # process nobody owns: SIGALRM's default action ends the child if the JVM has not opened its ends by then (the
    # JVM itself kills a child that has not opened within 20 s; this is for when the JVM is not there to)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(request.get("open_within_s", 60)))
    for fd, (path, flags) in enumerate(zip(paths, (os.O_RDONLY, os.O_WRONLY, os.O_WRONLY))):
        opened = os.open(path, flags)  # blocks until the JVM opens the other end
        os.dup2(opened, fd)
        os.close(opened)
    signal.alarm(0)
    os.environ.clear()
    os.environ.update(request["env"])
    try:
        os.chdir(request["cwd"])
    except OSError as e:
        os.write(2, ("cannot start python in %s: %s\n" % (request["cwd"], e.strerror)).encode("utf-8", "replace"))
        os._exit(126)
    sys.argv = ["-c"]


_i4j_driver = compile(sys.argv[2], "<string>", "exec")  # compiled once, for every child
_i4j_request, _i4j_paths = _i4j_serve(sys.argv[1])
_i4j_child(_i4j_request, _i4j_paths)
del _i4j_request, _i4j_paths, _i4j_serve, _i4j_child
exec(_i4j_driver, {"__name__": "__main__", "__builtins__": builtins})
