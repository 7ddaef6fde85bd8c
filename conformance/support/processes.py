"""Child processes that take everything they start with them: the one way the suite starts a process tree.

A case's worker, the native runner it starts and the Xvfb beside it must all end when their parent
ends them or dies.  POSIX: the child leads its own process group (killed as one with killpg) and,
on Linux, gets SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG).  Windows: the child
is created suspended, put in a Job Object that kills every process in it when its last handle
closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE), then resumed, so nothing it starts can escape the job;
ending the job ends the tree, and the parent's death closes the handle.  It is given no console
window of its own (CREATE_NO_WINDOW), so Ctrl-C and Ctrl-Break in the user's console reach only the
front end, which stops the run.  Jobs nest (Windows 8 and later; Wine 8 too, measured).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from typing import Any, NoReturn

CREATE_SUSPENDED = 0x00000004
CREATE_NEW_PROCESS_GROUP = 0x00000200
CREATE_NO_WINDOW = 0x08000000
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x00002000
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9


def exit_now(code: int) -> NoReturn:
    """End this process with `code` at once, its two standard streams flushed (a reader that went away is told
    nothing): no object freed, no interpreter shutdown (the CLI's and a worker's last step)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def read_some(fd: int) -> bytes:
    """What a child's pipe holds, up to 64 KiB (waiting for some); b"" at its end or once it is gone."""
    try:
        return os.read(fd, 1 << 16)
    except OSError:
        return b""


def _pdeathsig() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Linux: SIGKILL this child when the thread that started it ends."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # not Linux, or no prctl: the process group still lets the parent kill it
        pass


class JobObject:
    """A Windows Job Object with kill-on-close (ctypes; only constructed on Windows)."""

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        self._ctypes: Any = ctypes  # its Windows-only parts (WinDLL, get_last_error), untyped off Windows
        self._k32 = k32 = self._ctypes.WinDLL("kernel32", use_last_error=True)
        self._ntdll = self._ctypes.WinDLL("ntdll")
        k32.CreateJobObjectW.restype = wintypes.HANDLE
        k32.CreateJobObjectW.argtypes = [ctypes.c_void_p, wintypes.LPCWSTR]
        k32.SetInformationJobObject.argtypes = [wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD]
        k32.AssignProcessToJobObject.argtypes = [wintypes.HANDLE, wintypes.HANDLE]
        k32.TerminateJobObject.argtypes = [wintypes.HANDLE, wintypes.UINT]
        k32.CloseHandle.argtypes = [wintypes.HANDLE]
        self._ntdll.NtResumeProcess.argtypes = [wintypes.HANDLE]
        self.handle = k32.CreateJobObjectW(None, None)
        if not self.handle:
            raise self._error("CreateJobObjectW")
        info = _extended_limit_information(ctypes)()
        info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        if not k32.SetInformationJobObject(
            self.handle, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS, ctypes.byref(info), ctypes.sizeof(info)
        ):
            error = self._error("SetInformationJobObject(JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE)")
            self.close()
            raise error

    def _error(self, call: str) -> OSError:
        code = self._ctypes.get_last_error()
        return OSError(code, f"{call} failed: {self._ctypes.FormatError(code).strip()}")

    def adopt(self, proc: subprocess.Popen) -> None:
        """Put a child created suspended into the job, then let it run."""
        handle = int(proc._handle)  # type: ignore[attr-defined]
        if not self._k32.AssignProcessToJobObject(self.handle, handle):
            error = self._error("AssignProcessToJobObject")
            proc.kill()
            raise error
        status = self._ntdll.NtResumeProcess(handle)
        if status != 0:
            proc.kill()
            raise OSError(status, f"NtResumeProcess failed: NTSTATUS 0x{status & 0xFFFFFFFF:08x}")

    def terminate(self, code: int = 1) -> None:
        if self.handle:
            self._k32.TerminateJobObject(self.handle, code)

    def close(self) -> None:
        """Release the handle: kill-on-close ends whatever is still in the job."""
        if self.handle:
            self._k32.CloseHandle(self.handle)
            self.handle = None


def _extended_limit_information(ctypes: Any) -> Any:
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION, as winnt.h lays it out."""

    class Basic(ctypes.Structure):
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", ctypes.c_uint32),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", ctypes.c_uint32),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", ctypes.c_uint32),
            ("SchedulingClass", ctypes.c_uint32),
        ]

    class Extended(ctypes.Structure):
        _fields_ = [
            ("BasicLimitInformation", Basic),
            ("IoInfo", ctypes.c_uint64 * 6),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    return Extended


class Tree:
    """A started child and everything it starts: `kill()` ends them all; `release()` once it is gone."""

    def __init__(self, args: list[str], *, pdeathsig: bool = False, **popen: Any):
        self.job: JobObject | None = None
        if sys.platform == "win32":
            self.job = JobObject()
            flags = popen.pop("creationflags", 0) | CREATE_SUSPENDED | CREATE_NO_WINDOW | CREATE_NEW_PROCESS_GROUP
            try:
                self.proc = subprocess.Popen(args, creationflags=flags, **popen)
                self.job.adopt(self.proc)
            except BaseException:
                self.job.close()
                raise
        else:
            self.proc = subprocess.Popen(
                args, start_new_session=True, preexec_fn=_pdeathsig if pdeathsig else None, **popen
            )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        """Kill the child and everything it started, even if the child itself is already gone."""
        if self.job is not None:
            self.job.terminate()
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            with contextlib.suppress(OSError):
                self.proc.kill()

    def release(self) -> None:
        if self.job is not None:
            self.job.close()
