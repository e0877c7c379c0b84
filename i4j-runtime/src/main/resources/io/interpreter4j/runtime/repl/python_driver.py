# interpreter4j python REPL driver, run as `python -u -c <this file>`.
# Protocol: each block on the original stdin is a line "<marker> <size> <name>" followed by <size> bytes of
# UTF-8 code (a line "<marker> <path-of-code-file>" runs a file instead). The code runs in one persistent
# __main__ namespace; then "\x02<marker> <status> <flags>\n" goes to stdout and to stderr so the Java side
# knows both streams are complete. User code sees stdin at end-of-file.
def _i4j_main():
    import ast, builtins, linecache, os, signal, sys, traceback, types

    # Keep the command channel on a private fd (dup'ed fds are not inherited by children) and give
    # fd 0 to /dev/null, so input(), sys.stdin and child processes see end-of-file instead of hanging.
    commands = os.fdopen(os.dup(0), "rb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # markers go to private copies of fds 1 and 2, in order with user output on the same pipes,
    # even if user code redirects or closes sys.stdout/fd 1
    marker_out, marker_err = os.dup(1), os.dup(2)
    try:
        # below a sandbox the launcher leads the group already, and leaving it would put the code out of reach
        shared = os.environ.pop("I4J_SHARED_PROCESS_GROUP", None)
        if os.getpgrp() != os.getpid() and not shared:
            os.setsid()  # own process group, so an interrupt reaches the code's children too
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # idle: a late interrupt must not break the read loop

    user_main = types.ModuleType("__main__")
    user_main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = user_main  # pickle, dataclasses and doctest look user classes up here
    namespace = user_main.__dict__
    sys.argv = [""]
    sys.path[0] = ""

    def user_traceback(exc, path):
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next  # drop the driver's own frames
        sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
        traceback.print_exception(type(exc), exc, tb)

    def run(path, source):
        if source is None:
            with open(path, "rb") as f:
                source = f.read()
        else:
            # tracebacks and inspect show the lines of code that never was a file
            text = source.decode("utf-8", "replace")
            linecache.cache[path] = (len(text), None, text.splitlines(True), path)
        tree = ast.parse(source, path, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            # a trailing expression is shown like the interactive prompt does, through sys.displayhook
            last = ast.Interactive(body=[tree.body.pop()])
        exec(compile(tree, path, "exec", dont_inherit=True), namespace)
        if last is not None:
            exec(compile(last, path, "single", dont_inherit=True), namespace)

    def execute(path, source):
        flags = []
        try:
            try:
                signal.signal(signal.SIGINT, signal.default_int_handler)
                run(path, source)
                status = 0
            finally:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
        except SystemExit as e:
            # sys.exit() ends the block, not the interpreter
            if e.code is None or e.code is True or e.code is False:
                status = int(bool(e.code))
            elif isinstance(e.code, int):
                status = e.code & 0xFF
            else:
                print(e.code, file=sys.stderr)
                status = 1
        except KeyboardInterrupt as e:
            user_traceback(e, path)
            status = 130
        except BaseException as e:
            if isinstance(e, EOFError) and str(e) == "EOF when reading a line":
                flags.append("stdin")
            user_traceback(e, path)
            status = 1
        return status, flags

    def flush_all():
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                if stream is not None:
                    stream.flush()
            except Exception:
                pass

    while True:
        line = commands.readline()
        if not line:
            return  # the Java side closed our stdin: stop
        marker, _, rest = line.decode("utf-8").rstrip("\n").partition(" ")
        size, _, name = rest.partition(" ")
        if name and size.isdigit():
            path, source = name, commands.read(int(size))
        else:
            path, source = rest, None
        try:
            status, flags = execute(path, source)
        except KeyboardInterrupt:
            status, flags = 130, []  # an interrupt that landed inside the driver's own bookkeeping
        flush_all()
        done = ("\x02%s %d %s\n" % (marker, status, ",".join(flags) or "-")).encode("ascii")
        os.write(marker_out, done)
        os.write(marker_err, done)


_i4j_main()
