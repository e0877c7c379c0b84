# Round trip of one block through a Jupyter kernel, the way Open Interpreter runs python: BlockingKernelClient
# execute, then iopub messages until the kernel reports idle for that request (and the shell reply).
# argv: code warmup iterations. code "@FILE": a JSON list of blocks in FILE, executed in turn (cycling).
# Prints one line: {"samples_ms": [...], "python": "...", "ipykernel": "..."}
import itertools, json, sys, time
import ipykernel
from jupyter_client.manager import start_new_kernel

code, warmup, iterations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if code.startswith("@"):
    with open(code[1:], encoding="utf-8") as f:
        codes = itertools.cycle(json.load(f))
else:
    codes = itertools.repeat(code)
km, kc = start_new_kernel(kernel_name="python3")
try:
    def round_trip():
        block = next(codes)
        start = time.perf_counter()
        msg_id = kc.execute(block)
        while True:
            msg = kc.get_iopub_msg(timeout=30)
            if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                    and msg["content"]["execution_state"] == "idle"):
                break
        kc.get_shell_msg(timeout=30)
        return (time.perf_counter() - start) * 1000.0

    for _ in range(warmup):
        round_trip()
    samples = [round_trip() for _ in range(iterations)]
    print(json.dumps({"samples_ms": samples, "python": sys.version.split()[0], "ipykernel": ipykernel.__version__}))
    sys.stdout.flush()
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
