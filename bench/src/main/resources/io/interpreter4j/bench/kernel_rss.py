# Memory of one idle Jupyter kernel, the interpreter Open Interpreter starts for every session's python:
# starts a kernel, runs one trivial cell, waits for it to settle, prints {"kernel_rss_kib": N, "client_rss_kib": N}.
import json, os, time
from jupyter_client.manager import start_new_kernel


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


km, kc = start_new_kernel(kernel_name="python3")
try:
    kc.execute_interactive("print(1)", timeout=30, output_hook=lambda msg: None)
    time.sleep(1.0)
    pid = km.provisioner.pid if getattr(km, "provisioner", None) is not None else km.kernel.pid
    print(json.dumps({"kernel_rss_kib": rss_kib(pid), "client_rss_kib": rss_kib(os.getpid())}))
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
