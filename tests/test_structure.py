"""The code's shape: one folder a layer, imports point down the tree, no circle anywhere.

The import graph is read from the source (ast), every `import` counted: those inside functions (a
lazy import is still a dependency) and those in `if TYPE_CHECKING:` blocks (a type-only import
still ties a layer to the one it names).  A layer may import only the layers ALLOWED gives it;
the oracle never imports the suite; no two modules of the product import each other, directly or
round a longer circle.  conformance/'s folders are its layers (docs: README "Layout").
"""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from pathlib import Path

import pytest

import oracle
from conformance.cases.generation import operators as generation
from conformance.lowering import LOWERINGS
from oracle import registry

ROOT = Path(__file__).resolve().parent.parent

# Layer -> the packages (and modules) in it, bottom to top.  Data flows one way:
# cases -> oracle and backend -> comparison -> results -> report.
LAYERS: dict[str, tuple[str, ...]] = {
    "oracle": ("oracle",),
    # JSON files, the cache folder, the file formats' schemas, child processes.
    "support": ("conformance.support",),
    # Judging an answer: bit-exact comparison, deviation models, waivers (the case loader compares too).
    "judging": ("conformance.judging",),
    # The case format and loader, input values, coverage, generation, strategies, reach, stress.
    "cases": ("conformance.cases",),
    "lowering": ("conformance.lowering",),
    "backends": ("conformance.backends",),
    "run": ("conformance.run",),
    # Standalone reproducers of one case: a C++ program on DirectML's API, an ONNX model and script.
    "repro": ("conformance.repro",),
    # What reads results files: the HTML report, heat maps, regression view, JUnit XML, baselines.
    "report": ("conformance.report",),
    # The front ends: the CLI, the pytest plugin, the schema builder (a tool over every format).
    "front ends": ("conformance.cli", "conformance.plugin", "conformance.schema_build", "conformance"),
}
# Every module must be placed: a new one is in no layer (and fails) until it is added above.
# Layer -> the layers it may import (besides itself).
ALLOWED: dict[str, set[str]] = {
    "oracle": set(),
    "support": set(),
    "judging": {"oracle", "support"},
    "cases": {"oracle", "support", "judging"},
    "lowering": {"oracle", "support"},  # support.lazy: onnx imported on first use
    "backends": {"oracle", "support", "lowering"},
    "run": {"oracle", "support", "judging", "cases", "lowering", "backends"},
    "repro": {"oracle", "support", "cases", "lowering", "backends", "run"},
    "report": {"oracle", "support", "judging", "cases", "run"},
    "front ends": set(LAYERS),
}
# The folders of conformance/ and the top-level modules: the layout the README's table documents.
LAYOUT_FOLDERS = {"support", "judging", "cases", "lowering", "backends", "run", "repro", "report"}
LAYOUT_MODULES = {"__init__", "cli", "plugin", "schema_build"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The oracle and conformance modules `path` imports (relative imports resolved)."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # type-only imports count too
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            # `from . import x` names a module; `from .m import x` names m.
            found |= {f"{module}.{a.name}" for a in node.names} if node.module is None else {module}
    return {m for m in found if m.split(".")[0] in ("oracle", "conformance")}


def import_graph() -> dict[str, set[str]]:
    """Module -> the oracle and conformance modules it imports, for every .py file of both packages."""
    return {
        _module_name(path): _imports(path)
        for package in ("oracle", "conformance")
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def layer_of(module: str) -> str:
    """The layer whose longest prefix names `module`."""
    best = ""
    for layer, prefixes in LAYERS.items():
        for prefix in prefixes:
            below = module.startswith(prefix + ".") and prefix != "conformance"  # the package itself only
            if (module == prefix or below) and len(prefix) > len(best):
                best, found = prefix, layer
    if not best:
        raise KeyError(f"{module} is in no layer: add it to LAYERS in tests/test_structure.py")
    return found


def part_of(module: str) -> str:
    """conformance's part a module belongs to: its subpackage or top-level module (`conformance.run`)."""
    return ".".join(module.split(".")[:2])


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path (first node repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt, [*path, nxt])):
                return cycle
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start, [start])):
            return cycle
    return None


GRAPH = import_graph()


def test_the_graph_is_read() -> None:
    """The reader finds known edges (a reader that finds nothing would pass every rule below)."""
    assert "oracle.registry" in GRAPH["oracle.api"]
    assert "conformance.lowering" in GRAPH["conformance.backends.lowered"]
    assert "conformance.run.record" in GRAPH["conformance.report.html"]
    assert "conformance.cases.generation.common" in GRAPH["conformance.cases.generation.operators"]


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for module in GRAPH:
        try:
            layer_of(module)
        except KeyError as e:
            unplaced.append(str(e))
    assert not unplaced, "\n".join(unplaced)


def test_oracle_never_imports_the_suite() -> None:
    bad = sorted(
        f"{m} -> {t}" for m, ts in GRAPH.items() if m.startswith("oracle") for t in ts if t.startswith("conformance")
    )
    assert not bad, "the oracle must stay usable without the suite:\n" + "\n".join(bad)


def test_layers_point_one_way() -> None:
    bad = sorted(
        f"{m} ({layer_of(m)}) -> {t} ({layer_of(t)})"
        for m, targets in GRAPH.items()
        for t in targets
        if layer_of(t) != layer_of(m) and layer_of(t) not in ALLOWED[layer_of(m)]
    )
    assert not bad, "imports against the layers (tests/test_structure.py LAYERS, ALLOWED):\n" + "\n".join(bad)


def test_no_cycle_between_conformance_parts() -> None:
    edges: dict[str, set[str]] = {}
    for module, targets in GRAPH.items():
        if module.startswith("conformance.") and module.count(".") >= 1:
            edges.setdefault(part_of(module), set()).update(
                part_of(t) for t in targets if t.startswith("conformance.") and part_of(t) != part_of(module)
            )
    assert find_cycle(edges) is None, f"cycle between conformance's parts: {' -> '.join(find_cycle(edges) or [])}"


def test_no_circle_between_modules() -> None:
    """No module of the product reaches itself through its imports, packages' __init__ modules included."""
    edges = {m: {t for t in targets if t in GRAPH and t != m} for m, targets in GRAPH.items()}
    cycle = find_cycle(edges)
    assert cycle is None, f"import circle: {' -> '.join(cycle or [])}"


def test_the_layout_is_one_folder_a_layer() -> None:
    """conformance/ holds the layer folders and the front ends, nothing side by side with them."""
    top = ROOT / "conformance"
    folders = {p.name for p in top.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    modules = {p.stem for p in top.glob("*.py")}
    assert folders == LAYOUT_FOLDERS and modules == LAYOUT_MODULES
    assert {f"conformance.{f}" for f in LAYOUT_FOLDERS} <= {p for layer in LAYERS.values() for p in layer}


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


# --- every registered operator has all its parts -------------------------------------------------


def missing_parts(
    operator: str, oracle_module: object, generation_module: object | None, lowering: object
) -> list[str]:
    """What `operator` lacks: names of the oracle module's protocol, its generation module's, its lowering."""
    missing = [f"oracle module: {n}" for n in registry.REQUIRED if not hasattr(oracle_module, n)]
    missing += [
        f"oracle module: {n} is not callable"
        for n in registry.REQUIRED
        if n.islower() and not callable(getattr(oracle_module, n, None))
    ]
    if generation_module is None:
        missing.append("generation module (conformance/cases/generation/, in GENERATORS)")
    else:
        missing += [f"generation module: {n}" for n in generation.REQUIRED if not hasattr(generation_module, n)]
    if lowering is None:
        missing.append("lowering (conformance/lowering/, in LOWERINGS)")
    return sorted(set(missing))


@pytest.mark.parametrize("operator", oracle.OPERATORS)
def test_every_operator_has_all_its_parts(operator: str) -> None:
    module = registry.REGISTRY[operator]
    assert module.OPERATOR == operator
    assert missing_parts(operator, module, generation.GENERATORS.get(operator), LOWERINGS.get(operator)) == []
    assert generation.GENERATORS[operator].DESCRIPTOR is module.DESCRIPTOR
    assert (ROOT / "conformance" / "lowering" / f"{operator.lower()}.py").is_file()
    assert getattr(module.DESCRIPTOR, "operator", None) == operator


def test_a_missing_part_is_named() -> None:
    """The check above fails for an operator short of a part (so it is not a check that cannot fail)."""
    full = registry.REGISTRY["SLICE"]
    partial = types.SimpleNamespace(**{n: getattr(full, n) for n in registry.REQUIRED if n != "explain"})
    assert missing_parts("SLICE", partial, generation.GENERATORS["SLICE"], LOWERINGS["SLICE"]) == [
        "oracle module: explain",
        "oracle module: explain is not callable",
    ]
    assert missing_parts("SLICE", full, None, None) == [
        "generation module (conformance/cases/generation/, in GENERATORS)",
        "lowering (conformance/lowering/, in LOWERINGS)",
    ]


def test_generators_and_lowerings_name_only_registered_operators() -> None:
    assert list(generation.GENERATORS) == list(oracle.OPERATORS)
    assert list(LOWERINGS) == list(oracle.OPERATORS)


def test_static_descriptor_union_is_the_registry() -> None:
    """oracle.Descriptor is written out for mypy; it must name exactly the registered descriptor classes."""
    assert set(typing.get_args(oracle.Descriptor)) == set(registry.DESCRIPTOR_TYPES.values())
    assert all(dataclasses.is_dataclass(cls) for cls in registry.DESCRIPTOR_TYPES.values())


def test_default_feature_level_is_the_newest_table_row() -> None:
    newest = max(row.level for m in registry.REGISTRY.values() for row in m.TABLES.support)
    assert oracle.DEFAULT_FEATURE_LEVEL is newest


def test_every_clause_belongs_to_common_one_operator_or_a_mode() -> None:
    """WRAP.* describes a DML_PADDING_MODE, not an operator: it belongs to every descriptor with a padding_mode;
    LAYOUT.* describes DML_BUFFER_TENSOR_DESC, every operator's tensors (oracle.layout); GRAPH.* DML graphs of them."""
    prefixes = {op: m.TABLES.clause_prefix for op, m in registry.REGISTRY.items()}
    with_mode = {
        op
        for op, cls in registry.DESCRIPTOR_TYPES.items()
        if "padding_mode" in {f.name for f in dataclasses.fields(cls)}
    }
    assert with_mode == {"PADDING", "PADDING1"}
    assert oracle.op_padding.MODE_INTRODUCED[oracle.PaddingMode.WRAP][1] == "WRAP.1"
    for clause in oracle.CLAUSES:
        owners = [op for op, p in prefixes.items() if clause.startswith(p)]
        assert clause.startswith(("COMMON.", "WRAP.", "LAYOUT.", "GRAPH.")) or len(owners) == 1, (
            f"{clause}: owners {owners}"
        )
