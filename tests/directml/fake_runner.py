"""A stand-in for the native runner that speaks its protocol and misbehaves on request.

A "run" request's "fields" may hold {"fake": "..."}: "echo" (the default: each output its TotalTensorSizeInBytes of
the input's bytes, then untouched guard bytes), "segfault", "exit" (os._exit(7)), "hang", "garbage" (a header that
is not JSON), "refuse", "oversize" (announces 1 TiB of outputs), "guard" (an echo that wrote its first guard byte),
"lost" (the device removed).  FAKE_RUNNER_CASES, a JSON object, gives a behaviour to the cases whose first input has
those sizes ({"13x17": "segfault"}), in "run" and "batch" requests alike.

A "check_only" case is "accepted" unless its behaviour refuses it.  A "batch" request is answered as the runner
answers it: a frame per case naming its "index", then "batch_done";
in a batch, "clobbered" marks an echo whose inputs someone overwrote, and "lost" ends the batch with a frame that
names no index.  FAKE_RUNNER_INFO, a JSON object, is merged into the "info" answer (a device's caps).  Start-up misbehaviour comes from the FAKE_RUNNER_START environment variable ("fail", "fail-dxgi", "hang").
"""

import json
import os
import signal
import struct
import sys
import time

PREFIX = struct.Struct("<IQ")
GUARD = 256
POISON = b"\xcd"
out = sys.stdout.buffer
inp = sys.stdin.buffer
BY_SIZES = json.loads(os.environ.get("FAKE_RUNNER_CASES") or "{}")


def send(header: dict, payload: bytes = b"") -> None:
    body = json.dumps(header).encode()
    out.write(PREFIX.pack(len(body), len(payload)) + body + payload)
    out.flush()


def start_up() -> None:
    """Ready, or the start-up misbehaviour FAKE_RUNNER_START asks for."""
    start = os.environ.get("FAKE_RUNNER_START", "")
    print("fake runner starting", file=sys.stderr, flush=True)
    if start == "hang":
        time.sleep(3600)
    if start == "fail":
        send({"status": "startup_failed", "call": "LoadLibraryW(DirectML.dll)", "hresult": "0x800700c1"})
        sys.exit(3)
    if start == "fail-dxgi":  # as under Wine without a usable display or Vulkan driver
        print("err: a driver's own words", file=sys.stderr, flush=True)
        send({"status": "startup_failed", "call": "CreateDXGIFactory1", "hresult": "0x887a0004"})
        sys.exit(3)
    send({"status": "ready"})


def _raw(header_len: int, payload_len: int, body: bytes) -> None:
    out.write(PREFIX.pack(header_len, payload_len) + body)
    out.flush()


def behaviour(case: dict) -> str:
    inputs = case.get("tensors", {}).get("inputs") or [{}]
    sizes = "x".join(str(s) for s in inputs[0].get("sizes", ()))
    return case.get("fields", {}).get("fake") or BY_SIZES.get(sizes, "echo")


def outputs(case: dict, payload: bytes, guard: bool = False) -> tuple[dict, bytes]:
    """An echo: each output its total size of the input's bytes (zeros past them), then the guard bytes; a request
    without tensors (the protocol's tests) gets its payload back as it is."""
    if "tensors" not in case:
        return {"status": "ok", "output_bytes": [len(payload)], "guard_written_at": [-1]}, payload
    sizes, data = [], b""
    for tensor in case["tensors"]["outputs"]:
        n = int(tensor.get("total_size", len(payload)))
        data += payload[:n].ljust(n, b"\0") + (b"\1" if guard else POISON) + POISON * (GUARD - 1)
        sizes.append(n + GUARD)
    return {"status": "ok", "output_bytes": sizes, "guard_written_at": [0 if guard else -1] * len(sizes)}, data


REFUSED = {"status": "refused", "call": "IDMLDevice::CreateOperator", "hresult": "0x80070057"}
LOST = {
    "status": "failed",
    "call": "ID3D12Device::GetDeviceRemovedReason (after the dispatch)",
    "hresult": "0x887a0005",
}


def _exit_with_stderr_held() -> None:
    """Exit as a Wine runner does that started the wineserver: a process of another session keeps its stderr open."""
    import subprocess

    sleeper = [sys.executable, "-c", "import time; time.sleep(5)"]
    # Its stderr is the runner's, as the wineserver's is; not its stdout, which the frames are read from.
    subprocess.Popen(sleeper, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
    for k in range(30):
        print(f"fake runner: last words {k}", file=sys.stderr, flush=True)
    os._exit(9)


# What a case's behaviour does wherever it runs (a run request or a batch); the rest answer per request.
CRASHES = {
    "segfault": lambda: os.kill(os.getpid(), signal.SIGSEGV),
    "exit-held": _exit_with_stderr_held,
    "exit": lambda: os._exit(7),
    "hang": lambda: time.sleep(3600),
}


def run(case: dict, payload: bytes) -> None:
    what = behaviour(case)
    print(f"fake runner: {what}", file=sys.stderr, flush=True)
    if case.get("check_only") and what not in CRASHES:
        send(REFUSED if what == "refuse" else {"status": "accepted"})
    elif what in CRASHES:
        CRASHES[what]()
    elif what == "garbage":
        _raw(5, 0, b"notjs")  # a header that is not JSON
    elif what == "oversize":
        _raw(2, 1 << 40, b"{}")  # announces 1 TiB of outputs and sends nothing
    elif what == "refuse":
        send(REFUSED)
    elif what == "lost":
        send(LOST)
    else:
        send(*outputs(case, payload, guard=what == "guard"))


def batch(request: dict, payload: bytes) -> None:
    at = 0
    for index, case in enumerate(request["cases"]):
        mine, at = payload[at : at + case["input_bytes"]], at + case["input_bytes"]
        what = behaviour(case)
        print(f"fake runner: case {index}: {what}", file=sys.stderr, flush=True)
        if what in CRASHES:
            CRASHES[what]()
        if case.get("check_only"):  # CreateOperator alone: accepted, or refused
            send({"index": index, **(REFUSED if what == "refuse" else {"status": "accepted"})})
            continue
        if what == "refuse":
            send({"index": index, **REFUSED})
            continue
        if what == "lost":  # that case's answer, then the end of the batch
            send({"index": index, **LOST})
            send(LOST)
            return
        header, data = outputs(case, mine, guard=what == "guard")
        header |= {"index": index, "submission": 0, "submitted_with": len(request["cases"])}
        if what == "clobber":
            header["clobbered"] = True
        send(header, data)
    send({"status": "batch_done", "cases": len(request["cases"])})


def serve(header: dict, payload: bytes) -> bool:
    """Answer one request; False when the runner should end."""
    if header["op"] == "quit":
        send({"status": "bye"})
        return False
    if header["op"] == "info":
        info = {"status": "ok", "adapter": "fake", "max_feature_level": "6.4", "data_types": {"FLOAT32": True}}
        send(info | json.loads(os.environ.get("FAKE_RUNNER_INFO") or "{}"))
    elif header["op"] == "batch":
        batch(header, payload)
    else:
        run(header, payload)
    return True


def main() -> None:
    start_up()
    while True:
        prefix = inp.read(PREFIX.size)
        if len(prefix) < PREFIX.size:
            return
        header_len, payload_len = PREFIX.unpack(prefix)
        header = json.loads(inp.read(header_len))
        payload = inp.read(payload_len)
        if not serve(header, payload):
            return


if __name__ == "__main__":
    main()
