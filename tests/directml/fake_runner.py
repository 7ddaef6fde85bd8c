"""A stand-in for the native runner that speaks its protocol and misbehaves on request.

The request's "fields" may hold {"fake": "..."}: "echo" (copy the input to one output),
"segfault", "exit" (os._exit(7)), "hang", "garbage" (a header that is not JSON), "refuse",
"oversize" (announces 1 TiB of outputs).
Start-up misbehaviour comes from the FAKE_RUNNER_START environment variable ("fail", "hang").
"""

import json
import os
import signal
import struct
import sys
import time

PREFIX = struct.Struct("<IQ")
out = sys.stdout.buffer
inp = sys.stdin.buffer


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
    send({"status": "ready"})


def _raw(header_len: int, payload_len: int, body: bytes) -> None:
    out.write(PREFIX.pack(header_len, payload_len) + body)
    out.flush()


# The misbehaviours a run request may ask for ("fields": {"fake": ...}); anything else echoes.
BEHAVIOURS = {
    "segfault": lambda payload: os.kill(os.getpid(), signal.SIGSEGV),
    "exit": lambda payload: os._exit(7),
    "hang": lambda payload: time.sleep(3600),
    "garbage": lambda payload: _raw(5, 0, b"notjs"),  # a header that is not JSON
    "oversize": lambda payload: _raw(2, 1 << 40, b"{}"),  # announces 1 TiB of outputs and sends nothing
    "refuse": lambda payload: send(
        {"status": "refused", "call": "IDMLDevice::CreateOperator", "hresult": "0x80070057"}
    ),
}


def echo(payload: bytes) -> None:
    send({"status": "ok", "output_bytes": [len(payload)], "guard_written_at": [-1]}, payload)


def serve(header: dict, payload: bytes) -> bool:
    """Answer one request; False when the runner should end."""
    if header["op"] == "quit":
        send({"status": "bye"})
        return False
    if header["op"] == "info":
        send({"status": "ok", "adapter": "fake", "max_feature_level": "6.4", "data_types": {"FLOAT32": True}})
        return True
    behaviour = header.get("fields", {}).get("fake", "echo")
    print(f"fake runner: {behaviour}", file=sys.stderr, flush=True)
    BEHAVIOURS.get(behaviour, echo)(payload)
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
