"""The ONNX graph of a lowered descriptor: the Lowering record, one-node and batch models.

Why graphs are shaped this way: an ONNX Runtime session costs milliseconds to create and a
small run microseconds, so every per-case number (slice starts/ends/steps, pads, the pad
constant, split sizes) is a graph *input*.  A graph then depends only on its signature
(ONNX operator, data type, rank, mode, axis, output count) and thousands of cases share one
compiled session.  The data tensor is always a graph input, never an initializer, so no
runtime can constant-fold the operator away.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from oracle import DataType, Descriptor

from ..support.lazy import lazy_import

# Imported on first use: the run's own process imports the lowerings with a backend's module, and builds no model.
if TYPE_CHECKING:
    import onnx
else:
    onnx = lazy_import("onnx")

OPSET = 13  # the first opset where Slice, Pad and Split all take their numbers as inputs
# The lowest IR version that carries OPSET: every runtime new enough for opset 13 reads it,
# whereas onnx's own IR_VERSION is often newer than the installed runtime accepts.
# onnx.helper.find_min_ir_version_for gives 7 for opset 13 (tests/backends/test_lowering.py holds it).
IR_VERSION = 7
# Pad's 'wrap' mode (DML_PADDING_MODE_WRAP) arrived in opset 19: its lowerings, and a model holding one, are opset 19.
WRAP_OPSET = 19
INT64_MIN = int(np.iinfo(np.int64).min)
DATA = "data"


class Inexpressible(Exception):
    """The descriptor has no faithful single-node ONNX form; the message says why."""


@dataclass(frozen=True)
class SideInput:
    """A case input that is not data of the node's type and rank (REVERSE_SUBSEQUENCES' lengths, ReverseSequence's
    1-D INT64 sequence_lens): its graph input's dtype and shape, and how the case's array becomes that feed."""

    name: str
    dtype: np.dtype
    shape: tuple[int, ...]
    convert: Callable[[np.ndarray], np.ndarray] = field(compare=False)


@dataclass(frozen=True)
class TensorAttribute:
    """A tensor-valued node attribute (ConstantOfShape's `value`) in a hashable form, so that a Lowering's
    signature can hold it: the element's dtype and raw bytes, made into a TensorProto when the node is."""

    dtype: str
    data: bytes

    @classmethod
    def of(cls, value: np.ndarray) -> TensorAttribute:
        array = np.ascontiguousarray(value)
        return cls(array.dtype.str, array.tobytes())

    def proto(self) -> onnx.TensorProto:
        return onnx.numpy_helper.from_array(np.frombuffer(self.data, dtype=np.dtype(self.dtype)).copy())


@dataclass(frozen=True)
class Lowering:
    """One descriptor as one ONNX node: the graph signature plus the per-case parameter values."""

    onnx_operator: str
    # What ONNX Runtime's DirectML provider turns the node into: Slice -> DML_SLICE1,
    # Pad (opset 11+) -> DML_PADDING1 (typed padding value), Split -> DML_SPLIT, Concat -> DML_JOIN.
    dml_operator: str
    data_type: DataType
    rank: int
    output_count: int
    attributes: dict = field(default_factory=dict)
    parameters: dict[str, np.ndarray] = field(default_factory=dict)  # in the node's input order
    notes: tuple[str, ...] = ()
    input_count: int = 1  # data tensors (JOIN's Concat: several), before the parameters
    opset: int = OPSET  # the node's opset: OPSET, or WRAP_OPSET for Pad 'wrap' (a model takes its nodes' highest)
    side_inputs: tuple[SideInput, ...] = ()  # case inputs after the data ones, fed converted, before the parameters
    output_data_type: DataType | None = None  # the outputs' type when it is not the inputs' (CAST's Cast)
    # The node's inputs in its own order, where that is not data, side inputs, parameters (OneHot: indices, depth,
    # values); () keeps that order.
    node_inputs: tuple[str, ...] = ()
    # Why the node cannot take these case inputs (values ONNX makes an error of: GATHER's out-of-range indices; ScatterElements' duplicate ones), or
    # None: the backends answer such a case unsupported with the reason, before any session.
    refuse: Callable[[Sequence[np.ndarray]], str | None] | None = field(default=None, compare=False)

    def refusal(self, xs: Sequence[np.ndarray]) -> str | None:
        """`refuse` on the case's inputs (None when the lowering takes every value)."""
        return None if self.refuse is None else self.refuse(xs)

    @property
    def data_names(self) -> list[str]:
        """The data inputs' names: `data`, then `data1`, `data2`.. for a node of several."""
        return [DATA if k == 0 else f"{DATA}{k}" for k in range(self.input_count)]

    @functools.cached_property
    def signature(self) -> tuple:
        """What the compiled graph depends on when the parameters are graph inputs (made once: a key of several
        caches)."""
        params = tuple((n, v.dtype.str, v.ndim, v.shape if v.ndim else ()) for n, v in self.parameters.items())
        return (
            self.onnx_operator,
            self.opset,
            self.data_type,
            self.rank,
            self.input_count,
            self.output_count,
            self.output_data_type,
            tuple(sorted(self.attributes.items())),
            params,
            tuple((side.name, side.dtype.str, side.shape) for side in self.side_inputs),
            self.node_inputs,
        )

    @property
    def full_signature(self) -> tuple:
        """The signature when parameters are baked into the graph as initializers (no sharing)."""
        return (*self.signature, tuple(v.tobytes() for v in self.parameters.values()))

    def feeds(self, xs: Sequence[np.ndarray], parameters_as_inputs: bool = True) -> dict[str, np.ndarray]:
        count = self.input_count
        if len(xs) != count + len(self.side_inputs):
            raise ValueError(f"{self.onnx_operator} takes {count + len(self.side_inputs)} inputs, got {len(xs)}")
        feeds = {name: np.ascontiguousarray(x) for name, x in zip(self.data_names, xs[:count])}
        for side, x in zip(self.side_inputs, xs[count:]):
            # np.require keeps a 0-d feed 0-d (SCATTER_ND's single scalar update); ascontiguousarray makes it 1-d
            feeds[side.name] = np.require(side.convert(np.asarray(x)), dtype=side.dtype, requirements="C")
        if parameters_as_inputs:
            feeds.update(self.parameters)
        return feeds


def _graph_parts(lowering: Lowering, prefix: str, parameters_as_inputs: bool, named_dims: bool = True):
    """One lowering's node, inputs, outputs and initializers, every name prefixed with `prefix`.

    `named_dims`: each data dimension a named symbol (a one-node model, as a reader of it sees it); without, the
    dimensions are left unnamed (a batch model: the same meaning to a runtime, and made in a third of the time)."""
    elem = tensor_type(lowering.data_type.numpy)

    def data_info(name: str, dims: str, elem_type: int = elem) -> onnx.ValueInfoProto:
        if named_dims:  # as onnx.helper.make_tensor_value_info makes it, dimension by dimension
            shape = onnx.TensorShapeProto(dim=[{"dim_param": f"{dims}d{i}"} for i in range(lowering.rank)])
            return onnx.ValueInfoProto(name=name, type={"tensor_type": {"elem_type": elem_type, "shape": shape}})
        return onnx.ValueInfoProto(name=name, type=_unnamed_dims(elem_type, lowering.rank))

    inputs = [  # each data input's dimensions are its own (JOIN's inputs differ along the axis)
        data_info(prefix + name, f"{prefix}{'' if name == DATA else name + '_'}") for name in lowering.data_names
    ]
    inputs += [
        onnx.ValueInfoProto(name=prefix + side.name, type=_static_type(side.dtype, side.shape))
        for side in lowering.side_inputs
    ]
    initializers = []
    for name, value in lowering.parameters.items():
        if parameters_as_inputs:
            inputs.append(onnx.ValueInfoProto(name=prefix + name, type=_static_type(value.dtype, value.shape)))
        else:
            initializers.append(_initializer(value, prefix + name))
    out_elem = elem if lowering.output_data_type is None else tensor_type(lowering.output_data_type.numpy)
    outputs = [data_info(f"{prefix}out{j}", f"{prefix}out{j}_", out_elem) for j in range(lowering.output_count)]
    names = lowering.node_inputs or (
        *lowering.data_names,
        *(side.name for side in lowering.side_inputs),
        *lowering.parameters,
    )
    node = onnx.NodeProto(
        op_type=lowering.onnx_operator,
        input=[prefix + n for n in names],
        output=[o.name for o in outputs],
        name=f"{prefix}{lowering.onnx_operator}",
        # as onnx.helper.make_node makes them: by name, a None left out
        attribute=[_attribute(k, v) for k, v in sorted(lowering.attributes.items()) if v is not None],
    )
    return node, inputs, outputs, initializers


@functools.cache
def _static_type(dtype: np.dtype, shape: tuple[int, ...]) -> onnx.TypeProto:
    """A tensor type of fixed sizes (made once, copied into each value that has it)."""
    return onnx.helper.make_tensor_type_proto(tensor_type(dtype), list(shape))


@functools.lru_cache(maxsize=4096)
def _attribute(name: str, value) -> onnx.AttributeProto:
    """A node attribute as onnx.helper.make_node makes it (made once per value, copied into each node that has it)."""
    return onnx.helper.make_attribute(name, value.proto() if isinstance(value, TensorAttribute) else value)


def model_opset(lowerings: Sequence[Lowering]) -> int:
    """A model's opset: its nodes' highest (the nodes lowered here mean the same at opset 19 as at 13)."""
    return max((lowering.opset for lowering in lowerings), default=OPSET)


@functools.cache
def _unnamed_dims(elem: int, rank: int) -> onnx.TypeProto:
    """A tensor type of `rank` unnamed dimensions (made once, copied into each value: make_tensor_value_info is
    most of a batch model's making)."""
    return onnx.helper.make_tensor_type_proto(elem, [None] * rank)


def _model(nodes, inputs, outputs, initializers, name: str, opset: int = OPSET) -> onnx.ModelProto:
    graph = onnx.helper.make_graph(nodes, name, inputs, outputs, initializers)
    opsets = [onnx.helper.make_opsetid("", opset)]
    model = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="dml-conformance")
    model.ir_version = IR_VERSION if opset == OPSET else onnx.helper.find_min_ir_version_for(opsets)
    return model


def build_model(lowering: Lowering, *, parameters_as_inputs: bool = True) -> onnx.ModelProto:
    """A one-node model: `data` (dynamic shape) and the parameters in, `out0`.. out."""
    node, inputs, outputs, initializers = _graph_parts(lowering, "", parameters_as_inputs)
    return _model([node], inputs, outputs, initializers, f"dml_{lowering.onnx_operator.lower()}", lowering.opset)


def batch_prefix(index: int) -> str:
    """The names of case `index` in a batch model: `c3_data` in, `c3_out0`.. out."""
    return f"c{index}_"


def build_batch_model(lowerings: Sequence[Lowering]) -> onnx.ModelProto:
    """Many independent one-node graphs in one model, parameters baked in as initializers.

    One session then serves a whole batch of cases: creating a session is what costs (about a
    second on ONNX Runtime's DirectML provider), running it costs milliseconds.
    """
    nodes, inputs, outputs, initializers = [], [], [], []
    for i, lowering in enumerate(lowerings):
        node, ins, outs, inits = _graph_parts(lowering, batch_prefix(i), parameters_as_inputs=False, named_dims=False)
        nodes.append(node)
        inputs += ins
        outputs += outs
        initializers += inits
    return _model(nodes, inputs, outputs, initializers, f"dml_batch_{len(lowerings)}", model_opset(lowerings))


def _initializer(value: np.ndarray, name: str) -> onnx.TensorProto:
    """numpy_helper.from_array(value, name), the same message, made directly for a plain number or bool array (the
    parameters; from_array's generality is most of a batch model's initializers' time)."""
    if value.dtype.kind not in "biuf":
        return onnx.numpy_helper.from_array(value, name)
    return onnx.TensorProto(
        dims=value.shape,
        data_type=tensor_type(value.dtype),
        name=name,
        raw_data=np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("<")).tobytes(),
    )


@functools.cache
def tensor_type(dtype: np.dtype) -> int:
    """ONNX's TensorProto data type of a numpy dtype (onnx imported on first use: the lowerings call this)."""
    return onnx.helper.np_dtype_to_tensor_dtype(dtype)


def _graph_model_parts(graph, lowerings: Sequence[Lowering], prefix: str):
    """One DML graph's ONNX nodes, inputs, outputs and initializers, every name prefixed with `prefix`."""
    nodes, initializers, value_infos = [], [], {}
    for n, lowering in enumerate(lowerings):
        node, _, outs, inits = _graph_parts(lowering, f"{prefix}n{n}_", parameters_as_inputs=False)
        nodes.append(node)
        initializers += inits
        value_infos.update({o.name: o for o in outs})
    for g, n, k in graph.input_edges:
        nodes[n].input[k] = f"{prefix}in{g}"
    for a, j, n, k in graph.intermediate_edges:
        nodes[n].input[k] = f"{prefix}n{a}_out{j}"
    input_names = [f"{prefix}in{g}" for g in range(len(graph.inputs))]
    inputs = [
        onnx.ValueInfoProto(name=name, type=_static_type(t.data_type.numpy, tuple(t.sizes)))
        for name, t in zip(input_names, graph.inputs)
    ]
    by_output = {g: f"{prefix}n{n}_out{j}" for n, j, g in graph.output_edges}
    output_names = [by_output[g] for g in range(len(graph.outputs))]
    return nodes, inputs, [value_infos[name] for name in output_names], initializers, input_names, output_names


def build_graph_model(graph, lowerings: Sequence[Lowering]) -> tuple[onnx.ModelProto, list[str], list[str]]:
    """A DML graph (oracle.graph.GraphSpec) as one ONNX model: node n is lowering n (names prefixed `n<n>_`,
    parameters baked in), graph input g is `in<g>`, each edge a renamed input.  Returns the model, the graph
    inputs' names (in order) and the graph outputs' (in order).  A graph input no edge uses stays declared."""
    nodes, inputs, outputs, initializers, ins, outs = _graph_model_parts(graph, lowerings, "")
    model = _model(nodes, inputs, outputs, initializers, f"dml_graph_{len(nodes)}", model_opset(lowerings))
    return model, ins, outs


def build_graphs_model(items: Sequence[tuple]) -> tuple[onnx.ModelProto, list[tuple[list[str], list[str]]]]:
    """Many (graph, lowerings) in one model, graph i's names prefixed `g<i>_`: one session for a batch of them.
    Returns the model and, per graph, its input and output names."""
    nodes, inputs, outputs, initializers, names = [], [], [], [], []
    for i, (graph, lowerings) in enumerate(items):
        n, ins, outs, inits, in_names, out_names = _graph_model_parts(graph, lowerings, f"g{i}_")
        nodes += n
        inputs += ins
        outputs += outs
        initializers += inits
        names.append((in_names, out_names))
    opset = model_opset([lowering for _, lowerings in items for lowering in lowerings])
    return _model(nodes, inputs, outputs, initializers, f"dml_graphs_{len(items)}", opset), names


def onnx_slice(descriptor: Descriptor, starts: list[int], ends: list[int], steps: list[int]) -> Lowering:
    """An ONNX Slice over every axis: what both DML_SLICE and DML_SLICE1 lower to (reached as DML_SLICE1)."""
    (source,) = descriptor.input_tensors  # SLICE, SLICE1: one input
    rank = source.dimension_count
    return Lowering(
        "Slice",
        "SLICE1",
        source.data_type,
        rank,
        1,
        parameters={
            "starts": int64s(starts),
            "ends": int64s(ends),
            "axes": int64s(range(rank)),
            "steps": int64s(steps),
        },
    )


def int64s(values: Sequence[int]) -> np.ndarray:
    return np.asarray(list(values), dtype=np.int64)
