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


def main() -> None:  # noqa: C901 (to split, issue 12)
    start = os.environ.get("FAKE_RUNNER_START", "")
    print("fake runner starting", file=sys.stderr, flush=True)
    if start == "hang":
        time.sleep(3600)
    if start == "fail":
        send({"status": "startup_failed", "call": "LoadLibraryW(DirectML.dll)", "hresult": "0x800700c1"})
        sys.exit(3)
    send({"status": "ready"})
    while True:
        prefix = inp.read(PREFIX.size)
        if len(prefix) < PREFIX.size:
            return
        header_len, payload_len = PREFIX.unpack(prefix)
        header = json.loads(inp.read(header_len))
        payload = inp.read(payload_len)
        if header["op"] == "quit":
            send({"status": "bye"})
            return
        if header["op"] == "info":
            send({"status": "ok", "adapter": "fake", "max_feature_level": "6.4", "data_types": {"FLOAT32": True}})
            continue
        behaviour = header.get("fields", {}).get("fake", "echo")
        print(f"fake runner: {behaviour}", file=sys.stderr, flush=True)
        if behaviour == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif behaviour == "exit":
            os._exit(7)
        elif behaviour == "hang":
            time.sleep(3600)
        elif behaviour == "garbage":
            out.write(PREFIX.pack(5, 0) + b"notjs")
            out.flush()
        elif behaviour == "oversize":  # announces 1 TiB of outputs and sends nothing
            out.write(PREFIX.pack(2, 1 << 40) + b"{}")
            out.flush()
        elif behaviour == "refuse":
            send({"status": "refused", "call": "IDMLDevice::CreateOperator", "hresult": "0x80070057"})
        else:
            send({"status": "ok", "output_bytes": [len(payload)], "guard_written_at": [-1]}, payload)


if __name__ == "__main__":
    main()
