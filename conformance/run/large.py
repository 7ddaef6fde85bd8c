"""Large tensors in a worker: the size budget, and outputs compared with the oracle's in chunks.

The budget counts what one case holds at its peak: the input and outputs, the backend's own
copies of them (`Backend.tensor_copies`: ONNX Runtime's output is copied into numpy, the
DirectML runner stages everything through pipes and upload/readback heaps), and the oracle's
expected outputs (one chunk at a time for a stress case that can be cut along axis 0, all of them otherwise); a composition (a small
DML graph) counts every node's tensors.  A case over it is `unsupported` with the sizes, before its input
is built.  A stress case's outputs are
compared with the oracle chunk by chunk along axis 0; its record keeps a sha256 digest of
every output on both sides and the first differing elements, never the tensors.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from oracle import Descriptor
from oracle.graph import GraphSpec
from oracle.size import fmt_bytes, tensor_bytes

from ..backends.base import Backend
from ..cases.stress import CHUNK_BYTES, cuttable, expected_chunks
from ..judging.compare import Comparison, compare_outputs, output_problem
from .record import Category, Digests, Record

DEFAULT_COPIES = Backend.tensor_copies  # a backend that does not say (or says nonsense): the base class's default


def tensor_copies(backend: Backend) -> float:
    """The backend's `tensor_copies` estimate, or DEFAULT_COPIES when it gives none that is a number >= 0."""
    copies = getattr(backend, "tensor_copies", DEFAULT_COPIES)
    ok = isinstance(copies, (int, float)) and not isinstance(copies, bool) and math.isfinite(copies) and copies >= 0
    return float(copies) if ok else DEFAULT_COPIES


def output_names(desc: Descriptor) -> list[str]:
    """The output tensors' names in `desc.tensors`, which lists the inputs first, then the outputs."""
    return list(desc.tensors)[len(desc.input_tensors) :]


def over_budget(desc: Descriptor, backend: Backend, max_bytes: int | None, chunked: bool = False) -> str | None:
    """Why the case does not fit in `max_bytes` (None: it fits, or there is no budget); nothing is allocated."""
    if max_bytes is None:
        return None
    sizes = tensor_bytes(desc)
    tensors = sum(sizes.values())
    outputs = sum(sizes[name] for name in output_names(desc))
    copies = tensor_copies(backend)
    expected = min(outputs, CHUNK_BYTES) if chunked and cuttable(desc) else outputs  # else computed whole
    needed = int(tensors * (1 + copies)) + expected
    if needed <= max_bytes:
        return None
    parts = "; ".join(
        f"{name} {t.data_type.value} [{','.join(map(str, t.sizes))}] = {fmt_bytes(sizes[name])}"
        for name, t in desc.tensors.items()
    )
    return (
        f"over the memory budget: needs {fmt_bytes(needed)} (the tensors, {fmt_bytes(tensors)}, "
        f"x {1 + copies:g}: the run's own and {copies:g} held by {backend.name or 'the backend'} (tensor_copies), "
        f"+ {fmt_bytes(expected)} of expected output), but --max-bytes is {fmt_bytes(max_bytes)}: {parts}"
    )


def graph_over_budget(graph: GraphSpec, backend: Backend, max_bytes: int | None) -> str | None:
    """Why a DML graph (a composition) does not fit in `max_bytes`, as `over_budget` for a case; every node's
    tensors are counted (an intermediate twice: as one node's output and the next's input), a bound from above."""
    if max_bytes is None:
        return None
    tensors = sum(sum(tensor_bytes(node).values()) for node in graph.nodes)
    outputs = sum(math.prod(t.sizes) * t.data_type.numpy.itemsize for t in graph.outputs)
    copies = tensor_copies(backend)
    needed = int(tensors * (1 + copies)) + outputs
    if needed <= max_bytes:
        return None
    return (
        f"over the memory budget: the graph of {len(graph.nodes)} node(s) needs {fmt_bytes(needed)} (its nodes' "
        f"tensors, {fmt_bytes(tensors)}, x {1 + copies:g}, + {fmt_bytes(outputs)} of expected output), but "
        f"--max-bytes is {fmt_bytes(max_bytes)}"
    )


def oversized(desc: Descriptor, outputs: list[np.ndarray]) -> str | None:
    """Why an output is larger than its tensor desc says (None if none is): such an output is not read."""
    for j, (t, array) in enumerate(zip(desc.output_tensors, outputs)):
        allowed = math.prod(t.sizes) * t.data_type.numpy.itemsize
        if array.nbytes > allowed:
            return (
                f"output {j} is {fmt_bytes(array.nbytes)} ({array.dtype} {list(array.shape)}), larger than the "
                f"{fmt_bytes(allowed)} its tensor desc says ({t.data_type.value} [{','.join(map(str, t.sizes))}]): "
                "not read"
            )
    return None


def judge_chunked(
    desc: Descriptor, xs: list[np.ndarray], outputs: list[np.ndarray], record: Record, chunk_bytes: int = CHUNK_BYTES
) -> None:
    """Compare `outputs` with the oracle's, chunk by chunk along axis 0; record digests and the first differences."""
    names = output_names(desc)
    problem = _shape_problem(desc, outputs, names)
    if problem:
        record.mismatch = Comparison(False, [problem])
        record.set(Category.FAIL, problem)
        return
    hashes = [(hashlib.sha256(), hashlib.sha256()) for _ in names]
    result = Comparison(True)
    chunks = 0
    for j, row, expected in expected_chunks(desc, xs, chunk_bytes):
        chunks += 1
        actual = outputs[j][row : row + expected.shape[0]]
        hashes[j][0].update(_raw(expected))
        hashes[j][1].update(_raw(actual))
        result.absorb(compare_outputs([expected], [actual]), j, row)
    record.digests = Digests([e.hexdigest() for e, _ in hashes], [a.hexdigest() for _, a in hashes], chunks)
    if result.equal:
        record.set(Category.PASS, f"bit-exact (compared in {chunks} chunk(s); sha256 digests recorded)")
        return
    record.mismatch = result
    record.set(Category.FAIL, result.summary())


def _raw(array: np.ndarray) -> memoryview:
    """The array's bytes in row-major order (what its digest covers)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8).data


def _shape_problem(desc: Descriptor, outputs: list[np.ndarray], names: list[str]) -> str | None:
    if len(outputs) != len(names):
        return f"expected {len(names)} output(s), got {len(outputs)}"
    too_big = oversized(desc, outputs)
    if too_big:
        return too_big
    for j, (name, array) in enumerate(zip(names, outputs)):
        t = desc.tensors[name]
        problem = output_problem(j, t.data_type.numpy, t.sizes, array)
        if problem:
            return problem
    return None
