"""DML_TILE -> ONNX Tile, its Repeats as the `repeats` input (int64): what ONNX Runtime's DirectML provider
runs as DML_TILE.  ONNX's Tile is numpy's tile, whole copies along each axis, as TILE.1 (E-TILE-2)."""

from __future__ import annotations

from oracle import TileDesc

from .graph import Inexpressible, Lowering, int64s

OPERATOR = "TILE"


def lower(desc: TileDesc) -> Lowering:
    rank = desc.input_tensor.dimension_count
    if len(desc.repeats) != rank:
        # ONNX takes one repeat per axis of the data, and no RepeatsCount to state otherwise.
        raise Inexpressible(f"ONNX Tile takes one repeat per axis: {len(desc.repeats)} repeats for rank {rank}")
    return Lowering(
        "Tile",
        "TILE",
        desc.input_tensor.data_type,
        rank,
        1,
        parameters={"repeats": int64s(desc.repeats)},
    )
