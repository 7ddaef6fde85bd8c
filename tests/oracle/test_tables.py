"""oracle.tables and oracle.errata equal the sources they were copied from.

The tensor-support tables are parsed straight out of the seed pages (English, Korean and
Chinese), so a typo in oracle/tables.py cannot agree with itself; clause ids and errata ids
are read from ../shared/spec, and past the seed pages from docs/spec/beyond-seeds.md.  Skipped, with
the reason, when ../shared is absent.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

import oracle
from oracle import (
    op_gather,
    op_gather_elements,
    op_gather_nd,
    op_gather_nd1,
    op_one_hot,
    op_reverse_subsequences,
    op_scatter,
    op_scatter_nd,
)
from oracle.registry import SUPPORT
from oracle.tables import DataType, FeatureLevel, SupportRow

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
BEYOND = Path(__file__).resolve().parents[2] / "docs" / "spec" / "beyond-seeds.md"
SEEDS = {
    "SLICE": ["002_e13a9c6f00fe5ba4.txt"],  # Chinese
    "SLICE1": ["000_9a338deee1dc608b.txt", "003_2c8cf8c88a3d4f14.txt"],  # English, Korean
    "PADDING": ["001_f6230be9978f9bf3.txt"],  # Korean
    "SPLIT": ["004_62d11e62c511bcd0.txt"],  # English
}
HEADER = re.compile(r"^DML_FEATURE_LEVEL_(\d+)_(\d+)(?!\d)")
ROW = re.compile(r"^(Input\w*Tensors?|Output\w*Tensors?)\b(.*)$")  # InputGradientTensor too
TYPE = re.compile(r"\b(" + "|".join(t.value for t in DataType) + r")\b")


def _read(path: Path) -> str:
    if not path.is_file():
        pytest.skip(f"{path} is absent (../shared is not checked out next to this repository)")
    return path.read_text(encoding="utf-8")


def parse_support_tables(text: str) -> tuple[SupportRow, ...]:
    """Every "DML_FEATURE_LEVEL_x_y <and above>" header and its Input/Output rows, newest first.

    A row is "<tensor> <kind> <dims> <types>": dims is "1 to 8", "1~8개", "1-8", "1 到 8" or "4";
    the types are separated by ", " or "、".  Input and output rows must agree.
    """
    rows: list[SupportRow] = []
    level: FeatureLevel | None = None
    found: dict[str, tuple] = {}
    for line in (raw.strip() for raw in text.splitlines()):
        header = HEADER.match(line)
        if header:
            level = FeatureLevel.parse(f"{header.group(1)}.{header.group(2)}")
            found = {}
            continue
        row = ROW.match(line)
        if level is None or not row or not TYPE.search(line):
            continue
        rest = row.group(2)
        first_type = TYPE.search(rest)
        numbers = [int(n) for n in re.findall(r"\d+", rest[: first_type.start()])]
        assert len(numbers) in (1, 2), f"cannot read dimension counts in {line!r}"
        ranks = tuple(range(numbers[0], numbers[-1] + 1))
        types = tuple(DataType[t] for t in TYPE.findall(rest))
        found["input" if row.group(1).startswith("Input") else "output"] = (ranks, types)
        if len(found) == 2:
            assert found["input"] == found["output"], f"input and output rows differ at {level}"
            rows.append(SupportRow(level, *found["input"]))
            level = None
    return tuple(rows)


@pytest.mark.parametrize(("operator", "seed"), [(op, s) for op, seeds in SEEDS.items() for s in seeds])
def test_support_table_matches_seed_page(operator: str, seed: str) -> None:
    parsed = parse_support_tables(_read(SHARED / "seeds" / seed))
    assert parsed, f"no support table found in {seed}"
    assert parsed == SUPPORT[operator]


def test_parser_reads_all_three_languages() -> None:
    """The parser itself: one line in each language's style."""
    text = "\n".join(
        [
            "DML_FEATURE_LEVEL_3_1 이상",
            "InputTensor 입력 1~8개 FLOAT32, FLOAT16",
            "OutputTensor 출력 1~8개 FLOAT32, FLOAT16",
            "DML_FEATURE_LEVEL_2_1和更新版本",
            "InputTensor 輸入 4 到 5 INT8、UINT8",
            "OutputTensor 輸出 4 到 5 INT8、UINT8",
            "DML_FEATURE_LEVEL_1_0 and above",
            "InputTensor Input 4 FLOAT32",
            "OutputTensors Array of outputs 4 FLOAT32",
        ]
    )
    assert parse_support_tables(text) == (
        SupportRow(FeatureLevel.FL_3_1, tuple(range(1, 9)), (DataType.FLOAT32, DataType.FLOAT16)),
        SupportRow(FeatureLevel.FL_2_1, (4, 5), (DataType.INT8, DataType.UINT8)),
        SupportRow(FeatureLevel.FL_1_0, (4,), (DataType.FLOAT32,)),
    )


CLAUSE_ID = re.compile(
    r"^- `([A-Z][A-Z0-9]*\.\d+)`",  # any clause id (an operator's prefix, COMMON, LAYOUT, GRAPH, WRAP)
    re.MULTILINE,
)
ERRATUM_ID = re.compile(r"^- `([EU]-[A-Z0-9]+-\d+)`", re.MULTILINE)


def test_clause_ids_equal_the_spec() -> None:
    """The seed pages' clauses (../shared/spec), then the ones past them (docs/spec), in that order."""
    in_spec = CLAUSE_ID.findall(_read(SHARED / "spec" / "operators.md"))
    beyond = CLAUSE_ID.findall(BEYOND.read_text(encoding="utf-8"))
    assert beyond and len(in_spec + beyond) == len(set(in_spec + beyond))
    assert list(oracle.CLAUSES) == in_spec + beyond
    assert [c for c in oracle.CLAUSES if oracle.beyond_seeds(c)] == beyond


def test_errata_ids_equal_the_spec() -> None:
    in_spec = ERRATUM_ID.findall(_read(SHARED / "spec" / "errata.md"))
    beyond = ERRATUM_ID.findall(BEYOND.read_text(encoding="utf-8"))
    assert beyond
    assert list(oracle.ERRATA) == in_spec + beyond


def test_beyond_seed_errata_name_only_beyond_seed_clauses() -> None:
    """An entry of docs/spec/beyond-seeds.md never decides a seed page's clause, and the other way round."""
    beyond = set(ERRATUM_ID.findall(BEYOND.read_text(encoding="utf-8")))
    for erratum in oracle.ERRATA.values():
        assert {oracle.beyond_seeds(c) for c in erratum.clauses} == {erratum.id in beyond}, erratum.id


def _beyond_section(struct: str) -> str:
    """The section of docs/spec/beyond-seeds.md that restates `struct`'s page."""
    text = BEYOND.read_text(encoding="utf-8")
    start = text.index(f"## {struct} ")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


@pytest.mark.parametrize(
    ("operator", "struct"),
    [
        ("PADDING1", "DML_PADDING1_OPERATOR_DESC"),
        ("JOIN", "DML_JOIN_OPERATOR_DESC"),
        ("ELEMENT_WISE_IDENTITY", "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC"),
        ("TILE", "DML_TILE_OPERATOR_DESC"),
        ("SPACE_TO_DEPTH", "DML_SPACE_TO_DEPTH_OPERATOR_DESC"),
        ("SPACE_TO_DEPTH1", "DML_SPACE_TO_DEPTH1_OPERATOR_DESC"),
        ("DEPTH_TO_SPACE", "DML_DEPTH_TO_SPACE_OPERATOR_DESC"),
        ("DEPTH_TO_SPACE1", "DML_DEPTH_TO_SPACE1_OPERATOR_DESC"),
        ("SLICE_GRAD", "DML_SLICE_GRAD_OPERATOR_DESC"),
        ("REVERSE_SUBSEQUENCES", "DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC"),
        ("CAST", "DML_CAST_OPERATOR_DESC"),
        ("GATHER_ND", "DML_GATHER_ND_OPERATOR_DESC"),
        ("GATHER_ND1", "DML_GATHER_ND1_OPERATOR_DESC"),
        ("GATHER", "DML_GATHER_OPERATOR_DESC"),
        ("GATHER_ELEMENTS", "DML_GATHER_ELEMENTS_OPERATOR_DESC"),
    ],
)
def test_beyond_seed_support_tables_match_their_restated_pages(operator: str, struct: str) -> None:
    """The tables as docs/spec/beyond-seeds.md copies DirectML's pages (PAD1.6, JOIN.7)."""
    assert parse_support_tables(_beyond_section(struct)) == SUPPORT[operator]


@pytest.mark.parametrize(
    ("struct", "tensor", "tables"),
    [
        ("DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC", "SequenceLengthsTensor", op_reverse_subsequences.LENGTHS_TABLES),
        ("DML_GATHER_OPERATOR_DESC", "IndicesTensor", op_gather.INDICES_TABLES),
        ("DML_GATHER_ELEMENTS_OPERATOR_DESC", "IndicesTensor", op_gather_elements.INDICES_TABLES),
    ],
    ids=["REVSEQ.8", "GATHER.9", "GELEM.8"],
)
def test_second_input_table_matches_its_restated_page(struct: str, tensor: str, tables) -> None:
    """The second input's rows (REVSEQ.8's lengths, GATHER.9's indices) of docs/spec/beyond-seeds.md's copy of the
    page, as data."""
    text = _beyond_section(struct)
    as_second = "\n".join(
        line.replace(f"{tensor} Input", "InputTensor Input")
        + "\n"
        + line.replace(f"{tensor} Input", "OutputTensor Output")
        if line.strip().startswith(tensor)
        else line
        for line in text.splitlines()
        if not line.strip().startswith(("InputTensor", "OutputTensor"))
    )
    assert parse_support_tables(as_second) == tables.support


@pytest.mark.parametrize(
    ("operator", "struct"),
    [("GATHER_ND", "DML_GATHER_ND_OPERATOR_DESC"), ("GATHER_ND1", "DML_GATHER_ND1_OPERATOR_DESC")],
)
def test_gather_nd_indices_table_matches_its_restated_page(operator: str, struct: str) -> None:
    """GND.9, GND1.9: the IndicesTensor rows of docs/spec/beyond-seeds.md's copy of each page, as data."""
    text = _beyond_section(struct)
    as_indices = "\n".join(
        line.replace("IndicesTensor Input", "InputTensor Input")
        + "\n"
        + line.replace("IndicesTensor Input", "OutputTensor Output")
        if line.strip().startswith("IndicesTensor")
        else line
        for line in text.splitlines()
        if not line.strip().startswith(("InputTensor", "OutputTensor"))
    )
    module = op_gather_nd if operator == "GATHER_ND" else op_gather_nd1
    assert parse_support_tables(as_indices) == module.INDICES_TABLES.support


def _one_hot_rows_as_input(tensor: str, drop: tuple[str, ...]) -> str:
    """DML_ONE_HOT's restated tables with `tensor`'s rows read as InputTensor's (and OutputTensor's where the
    table has none left), the `drop` rows left out: the parser reads an input and an output row per level."""
    lines = []
    for line in _beyond_section("DML_ONE_HOT_OPERATOR_DESC").splitlines():
        if line.strip().startswith(drop):
            continue
        if line.strip().startswith(tensor):
            line = line.replace(f"{tensor} Input", "InputTensor Input")
            if "OutputTensor" in drop:
                line += "\n" + line.replace("InputTensor Input", "OutputTensor Output")
        lines.append(line)
    return "\n".join(lines)


def test_one_hot_tables_match_its_restated_page() -> None:
    """ONEHOT.9 (ValuesTensor's and OutputTensor's rows) and ONEHOT.10 (IndicesTensor's), as data."""
    values = _one_hot_rows_as_input("ValuesTensor", ("IndicesTensor",))
    assert parse_support_tables(values) == SUPPORT["ONE_HOT"]
    indices = _one_hot_rows_as_input("IndicesTensor", ("ValuesTensor", "OutputTensor"))
    assert parse_support_tables(indices) == op_one_hot.INDICES_TABLES.support


@pytest.mark.parametrize(
    ("struct", "module"),
    [("DML_SCATTER_OPERATOR_DESC", op_scatter), ("DML_SCATTER_ND_OPERATOR_DESC", op_scatter_nd)],
)
def test_scatter_indices_tables_match_their_restated_pages(struct: str, module) -> None:
    """SCATTER.9, SCATND.10: the IndicesTensor rows of docs/spec/beyond-seeds.md's copies of the pages, as data."""
    text = _beyond_section(struct)
    as_indices = "\n".join(
        line.replace("IndicesTensor Input", "InputTensor Input")
        + "\n"
        + line.replace("IndicesTensor Input", "OutputTensor Output")
        if line.strip().startswith("IndicesTensor")
        else line
        for line in text.splitlines()
        if not line.strip().startswith(("InputTensor", "OutputTensor"))
    )
    assert parse_support_tables(as_indices) == module.INDICES_TABLES.support


def test_errata_point_at_real_clauses_and_code() -> None:
    """Each entry's clauses exist, and every `oracle.x.y` it names as decided_by resolves."""
    for erratum in oracle.ERRATA.values():
        assert set(erratum.clauses) <= set(oracle.CLAUSES), erratum.id
        assert erratum.kind == ("erratum" if erratum.id.startswith("E-") else "unspecified")
        for dotted in re.findall(r"oracle\.[A-Za-z_][\w.]*", erratum.decided_by):
            parts = dotted.split(".")
            target = importlib.import_module(".".join(parts[:2]))
            for name in parts[2:]:
                if dataclasses.is_dataclass(target) and name in {f.name for f in dataclasses.fields(target)}:
                    break
                assert hasattr(target, name), f"{erratum.id}: {dotted} does not resolve"
                target = getattr(target, name)
