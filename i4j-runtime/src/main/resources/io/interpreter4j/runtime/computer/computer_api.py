# interpreter4j computer API: the global `computer` of the python interpreter when computer use is on.
# Run by the python driver with exec(); it is given send_image(data, source) and namespace (the user's globals).
# Each call is one line of JSON over the session's Unix socket ($I4J_COMPUTER_SOCKET) to the JVM, which owns the
# screen and the browser, and one line of JSON back: {"ok", "text", "png", "url"}.
def _i4j_computer_api(socket_path, send_image, namespace):
    import base64, json, socket

    class ComputerError(Exception):
        """An action on the computer failed; the message says why and what to do."""

    def call(target, action, **args):
        request = json.dumps({"target": target, "action": action,
                              "args": {k: v for k, v in args.items() if v is not None}}) + "\n"
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(socket_path)
                s.sendall(request.encode("utf-8"))
                s.shutdown(socket.SHUT_WR)
                chunks = []
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
        except OSError as e:
            raise ComputerError("cannot reach the session's computer channel (%s): the session may have ended" % e)
        reply = json.loads(b"".join(chunks).decode("utf-8") or '{"ok": false, "text": "no answer"}')
        if not reply.get("ok"):
            raise ComputerError(reply.get("text") or "the action failed")
        if reply.get("png"):
            send_image(base64.b64decode(reply["png"]), "screenshot")
        return reply.get("text") or ""

    def point(value, name):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError("%s must be a number, not %r" % (name, value))
        return value

    class Display:
        def view(self, grid=None):
            """Takes a screenshot (shown to you as an image; coordinates as in size()) and returns its description."""
            return call("display", "view", grid=grid)

        def size(self):
            """(width, height) of the screen in your coordinates."""
            w, _, h = call("display", "size").partition("x")
            return int(w), int(h)

        def __repr__(self):
            return "computer.display (view(), size())"

    class Mouse:
        def move(self, x, y):
            return call("mouse", "move", x=point(x, "x"), y=point(y, "y"))

        def click(self, x=None, y=None, button="left", clicks=1, text=None):
            """click(x, y), click() where the pointer is, or click("Submit"): the visible text, found with OCR."""
            if isinstance(x, str) and y is None:
                x, text = None, x
            return call("mouse", "click", x=point(x, "x"), y=point(y, "y"), button=button, clicks=clicks, text=text)

        def double_click(self, x=None, y=None):
            return self.click(x, y, clicks=2)

        def right_click(self, x=None, y=None):
            return self.click(x, y, button="right")

        def scroll(self, dy, dx=0, x=None, y=None):
            """Turns the wheel dy steps (positive: down) and dx steps (positive: right), at (x, y) if given."""
            return call("mouse", "scroll", dy=dy, dx=dx, x=point(x, "x"), y=point(y, "y"))

        def drag(self, x1, y1, x2, y2):
            return call("mouse", "drag", x1=point(x1, "x1"), y1=point(y1, "y1"), x2=point(x2, "x2"), y2=point(y2, "y2"))

        def position(self):
            """(x, y) of the pointer in your coordinates."""
            x, _, y = call("mouse", "position").partition(",")
            return int(x), int(y)

        def __repr__(self):
            return "computer.mouse (move, click, scroll, drag, position)"

    class Keyboard:
        def write(self, text, secret=False):
            """Types text into the focused window (secret=True marks a password)."""
            return call("keyboard", "write", text=str(text), secret=bool(secret) or None)

        def press(self, keys, presses=1):
            """Presses a key or chord: "enter", "tab", "ctrl+a" (xdotool key names)."""
            return call("keyboard", "press", keys=str(keys), presses=presses)

        def hotkey(self, *keys):
            """Holds keys together: hotkey("ctrl", "c")."""
            return call("keyboard", "hotkey", keys=[str(k) for k in keys])

        def __repr__(self):
            return "computer.keyboard (write, press, hotkey)"

    class Browser:
        def go(self, url):
            return call("browser", "go", url=str(url))

        def snapshot(self):
            """The page's accessibility tree as text, each element with [ref=eN]."""
            return call("browser", "snapshot")

        def click(self, ref):
            return call("browser", "click", ref=str(ref))

        def type(self, ref, text, submit=False):
            return call("browser", "type", ref=str(ref), text=str(text), submit=bool(submit))

        def press(self, key):
            return call("browser", "press", key=str(key))

        def view(self):
            """A screenshot of the page, shown to you as an image."""
            return call("browser", "view")

        def text(self):
            """The page's visible text."""
            return call("browser", "text")

        def __repr__(self):
            return "computer.browser (go, snapshot, click, type, press, view, text)"

    class Computer:
        display = Display()
        mouse = Mouse()
        keyboard = Keyboard()
        browser = Browser()
        Error = ComputerError

        def __repr__(self):
            return "computer (display, mouse, keyboard, browser)"

    namespace["computer"] = Computer()
    namespace["ComputerError"] = ComputerError
