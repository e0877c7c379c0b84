# interpreter4j python REPL driver, run as `python -u -c <this file>`.
# Protocol: each block on the original stdin is a line "<marker> <size> <name>" followed by <size> bytes of
# UTF-8 code (a line "<marker> <path-of-code-file>" runs a file instead). The code runs in one persistent
# __main__ namespace; then "\x02<marker> <status> <flags>\n" goes to stdout and to stderr so the Java side
# knows both streams are complete. User code sees stdin at end-of-file.
# Images a block shows (display(x), matplotlib figures) go to stdout's private copy as lines
# "\x02<marker>:image <source> <base64 of the file>\n" before the end line; the Java side checks, limits and saves them.
# HTML it shows (display() of an object with _repr_html_ only) goes the same way as "\x02<marker>:html <base64>\n",
# after its text is printed for the model.
def _i4j_main():
    # not importlib.abc: on python 3.11 it imports importlib.resources, pathlib, tempfile and more (a third of the
    # driver's start); a finder and a loader need only their methods. Not ast either: its C half (_ast) has the node
    # classes and the flag that makes compile() parse, and ast.py costs 1.5-4 ms of every spawned (sandboxed)
    # python's start. traceback stays: imported here, before sys.path[0] becomes the working directory, no file of
    # the user's can stand in for it (or for the modules it imports) when a block fails
    import _ast, builtins, importlib.machinery, importlib.util, linecache, os, signal, sys, traceback, types

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
    # SIGINT raises KeyboardInterrupt while a block runs and does nothing while the driver is idle (a late interrupt
    # must not break the read loop); one handler that looks at a flag, rather than two signal.signal() calls per
    # block, which cost a tenth of a trivial block's round trip
    running = [False]

    def on_interrupt(signum, frame):
        if running[0]:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        from _signal import getsignal  # signal.getsignal wraps the answer in an enum, at a cost per block
    except ImportError:
        getsignal = signal.getsignal

    block = {"marker": None}  # the running block's marker, for images shown while it runs

    def write_all(fd, data):
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]

    def send_image(data, source):
        import base64
        flush_all()  # text printed before the image stays before it
        write_all(marker_out, b"".join([b"\x02", block["marker"].encode("ascii"), b":image ", source.encode("ascii"),
                                        b" ", base64.b64encode(data), b"\n"]))

    def send_html(markup):
        import base64
        flush_all()
        write_all(marker_out, b"".join([b"\x02", block["marker"].encode("ascii"), b":html ",
                                        base64.b64encode(markup.encode("utf-8", "replace")), b"\n"]))

    def image_kind(data):
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            return "PNG"
        if data[:3] == b"\xff\xd8\xff":
            return "JPEG"
        if data[:4] == b"GIF8":
            return "GIF"
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return "WebP"
        return None

    def figure_png(fig):
        import io
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()

    def html_text(markup):
        from html.parser import HTMLParser

        class Text(HTMLParser):
            def __init__(self):
                super().__init__()
                self.parts, self.skip = [], 0

            def handle_starttag(self, tag, attrs):
                if tag in ("script", "style"):
                    self.skip += 1
                elif tag in ("br", "p", "div", "tr", "li", "h1", "h2", "h3", "table"):
                    self.parts.append("\n")
                elif tag in ("td", "th"):
                    self.parts.append("\t")

            def handle_endtag(self, tag):
                if tag in ("script", "style") and self.skip:
                    self.skip -= 1

            def handle_data(self, data):
                if not self.skip:
                    self.parts.append(data)

        parser = Text()
        parser.feed(markup)
        lines = [line.strip() for line in "".join(parser.parts).splitlines()]
        return "\n".join(line for line in lines if line.strip())

    def display(*objs):
        """Shows images in the conversation, as IPython's display: a path (str, pathlib.Path) of a PNG, JPEG,
        GIF or WebP file, bytes of such an image, a PIL image, a matplotlib figure, or an object with
        _repr_png_, _repr_jpeg_ or _repr_html_; anything else is printed."""
        for obj in objs:
            show_one(obj)

    def show_one(obj):
        if block["marker"] is None:
            print("display(): no block is running", file=sys.stderr)
            return
        import base64
        what, data = None, None
        try:
            if isinstance(obj, (str, os.PathLike)):
                what = "display(%r)" % (os.fspath(obj),)
                with open(obj, "rb") as f:
                    data = f.read()
            elif isinstance(obj, (bytes, bytearray, memoryview)):
                what, data = "display(bytes)", bytes(obj)
            elif type(obj).__module__.startswith("matplotlib") and hasattr(obj, "savefig"):
                what, data = "display(figure)", figure_png(obj)
            elif type(obj).__module__.startswith("PIL") and hasattr(obj, "save") and hasattr(obj, "mode"):
                import io
                buffer = io.BytesIO()
                image = obj if obj.mode in ("RGB", "RGBA", "L", "LA", "P", "1", "I;16") else obj.convert("RGBA")
                image.save(buffer, format="PNG")
                what, data = "display(PIL image)", buffer.getvalue()
            else:
                for method in ("_repr_png_", "_repr_jpeg_"):
                    produce = getattr(obj, method, None)
                    if callable(produce):
                        result = produce()
                        if isinstance(result, tuple):
                            result = result[0]  # (data, metadata)
                        if result is not None:
                            what = "display(%s.%s())" % (type(obj).__name__, method)
                            data = result if isinstance(result, bytes) else base64.b64decode(result)
                            break
                if data is None:
                    produce = getattr(obj, "_repr_html_", None)
                    html = produce() if callable(produce) else None
                    if isinstance(html, tuple):
                        html = html[0]
                    if not isinstance(html, str):
                        print(repr(obj))
                        return
                    print(html_text(html))
                    send_html(html)
                    return
        except Exception as e:
            print("%s: cannot show it: %s: %s" % (what or "display()", type(e).__name__, e), file=sys.stderr)
            return
        if image_kind(data) is None:
            print("%s: not a PNG, JPEG, GIF or WebP image (%d bytes); nothing shown" % (what, len(data)),
                  file=sys.stderr)
            return
        send_image(data, "display")

    def show_figures():
        """Every open matplotlib figure becomes an image, then is closed (plt.show() and the end of a block)."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None or block["marker"] is None:
            return
        for number in list(pyplot.get_fignums()):
            figure = pyplot.figure(number)
            try:
                send_image(figure_png(figure), "matplotlib")
            except Exception as e:
                print("matplotlib figure %s: cannot save it: %s: %s" % (number, type(e).__name__, e),
                      file=sys.stderr)
            finally:
                pyplot.close(figure)

    class MatplotlibBackend:
        """The backend module "_i4j_backend": Agg (no window) whose show() turns the open figures into images.
        matplotlib is pointed at it as it is imported (unless MPLBACKEND names another); the environment of child
        processes is left alone, since they could not import this module."""
        name = "_i4j_backend"

        def __init__(self):
            self.matplotlib_seen = False

        def find_spec(self, fullname, path=None, target=None):
            if fullname == self.name:
                return importlib.util.spec_from_loader(fullname, self)
            if fullname != "matplotlib" or self.matplotlib_seen:
                return None
            self.matplotlib_seen = True
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or spec.loader is None or "MPLBACKEND" in os.environ:
                return spec
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                module.rcParams["backend"] = "module://" + self.name

            spec.loader.exec_module = exec_module
            return spec

        def create_module(self, spec):
            return None

        def exec_module(self, module):
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.backend_bases import FigureManagerBase
            module.FigureCanvas = FigureCanvasAgg
            module.FigureManager = FigureManagerBase

            def show(*args, **kwargs):
                show_figures()

            module.show = show

    sys.meta_path.insert(0, MatplotlibBackend())

    user_main = types.ModuleType("__main__")
    user_main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = user_main  # pickle, dataclasses and doctest look user classes up here
    namespace = user_main.__dict__
    namespace["display"] = display
    computer_api = os.environ.pop("I4J_COMPUTER_API", None)  # computer use: the `computer` global (computer_api.py)
    if computer_api and os.environ.get("I4J_COMPUTER_SOCKET"):
        api = {}
        exec(compile(computer_api, "<i4j computer>", "exec"), api)
        api["_i4j_computer_api"](os.environ["I4J_COMPUTER_SOCKET"], send_image, namespace)
    sys.argv = [""]
    sys.path[0] = ""

    def user_traceback(exc, path):
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next  # drop the driver's own frames
        last = tb
        while last is not None and last.tb_next is not None:
            if last.tb_next.tb_frame.f_code is on_interrupt.__code__:
                last.tb_next = None  # and the SIGINT handler's, where the interrupt was raised
                break
            last = last.tb_next
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
        tree = compile(source, path, "exec", _ast.PyCF_ONLY_AST)  # what ast.parse(source, path) does
        last = None
        if tree.body and isinstance(tree.body[-1], _ast.Expr):
            # a trailing expression is shown like the interactive prompt does, through sys.displayhook
            last = _ast.Interactive(body=[tree.body.pop()])
        if tree.body or last is None:
            # compile() is most of a trivial block's time: a block that is one expression compiles once
            exec(compile(tree, path, "exec", dont_inherit=True), namespace)
        if last is not None:
            exec(compile(last, path, "single", dont_inherit=True), namespace)

    def execute(path, source):
        flags = []
        try:
            try:
                running[0] = True
                run(path, source)
                status = 0
            finally:
                running[0] = False
                if getsignal(signal.SIGINT) is not on_interrupt:
                    signal.signal(signal.SIGINT, on_interrupt)  # the block set its own: it lasts as long as the block
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
        block["marker"] = marker
        try:
            status, flags = execute(path, source)
            show_figures()
        except KeyboardInterrupt:
            status, flags = 130, []  # an interrupt that landed inside the driver's own bookkeeping
        flush_all()
        block["marker"] = None
        done = ("\x02%s %d %s\n" % (marker, status, ",".join(flags) or "-")).encode("ascii")
        os.write(marker_out, done)
        os.write(marker_err, done)


_i4j_main()
