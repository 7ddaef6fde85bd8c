"""A spec oracle for DirectML's data-movement operators: DML_SLICE, DML_SLICE1, DML_PADDING, DML_SPLIT (the seed
pages), and DML_PADDING1 and DML_JOIN (DirectML's own pages, beyond the seeds: docs/spec/beyond-seeds.md).

Every clause of the reference pages (../shared/seeds, restated in ../shared/spec/operators.md)
is implemented exactly, bit for bit, for all eleven data types and ranks 1 to 8.
"""

from . import layout
from .api import (
    Descriptor,
    case_tensor,
    compute,
    descriptor_from_json,
    descriptor_to_json,
    explain,
    gather_desc,
    gather_elements_desc,
    gather_nd_desc,
    join,
    join_desc,
    one_hot_desc,
    padding,
    padding1,
    padding1_desc,
    padding_desc,
    reverse_subsequences_desc,
    scatter_desc,
    scatter_nd_desc,
    slice,
    slice1,
    slice1_desc,
    slice_desc,
    split,
    split_desc,
    tile,
    tile_desc,
    unspecified,
    validate,
)
from .buffers import release as release_buffers
from .checks import InvalidDescriptor, TensorDesc
from .depth_space import DepthSpaceOrder
from .errata import ERRATA, Erratum
from .masks import unspecified_mask
from .op_cast import CastDesc
from .op_depth_to_space import DepthToSpaceDesc
from .op_depth_to_space1 import DepthToSpace1Desc
from .op_diagonal_matrix import DiagonalMatrixDesc
from .op_diagonal_matrix1 import DiagonalMatrix1Desc
from .op_element_wise_identity import IdentityDesc, ScaleBias
from .op_fill_value_constant import FillValueConstantDesc
from .op_fill_value_sequence import FillValueSequenceDesc
from .op_gather import GatherDesc
from .op_gather_elements import GatherElementsDesc
from .op_gather_nd import GatherNdDesc
from .op_gather_nd1 import GatherNd1Desc
from .op_join import JoinDesc
from .op_one_hot import OneHotDesc
from .op_padding import PaddingDesc, PaddingMode
from .op_padding1 import Padding1Desc
from .op_reverse_subsequences import ReverseSubsequencesDesc
from .op_scatter import ScatterDesc
from .op_scatter_nd import ScatterNdDesc
from .op_slice import SliceDesc
from .op_slice1 import Slice1Desc
from .op_slice_grad import SliceGradDesc
from .op_space_to_depth import SpaceToDepthDesc
from .op_space_to_depth1 import SpaceToDepth1Desc
from .op_split import SplitDesc
from .op_tile import TileDesc
from .padding_value import PaddingValueConversion, convert_padding_value
from .registry import (
    DESCRIPTOR_TYPES,
    OPERATORS,
    REGISTRY,
    SUPPORT,
    OperatorModule,
    beyond_seed_pages,
    min_feature_level,
    support_row,
)
from .size import TooLarge, check_size, default_max_bytes, tensor_bytes
from .tables import ALL_DATA_TYPES, CLAUSES, DEFAULT_FEATURE_LEVEL, DataType, FeatureLevel, beyond_seeds


def __getattr__(name: str) -> str:
    """`VERSION` and `__version__`, read from the package metadata on first use (oracle.version)."""
    if name in ("VERSION", "__version__"):
        from .version import VERSION

        return VERSION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ALL_DATA_TYPES",
    "CLAUSES",
    "DEFAULT_FEATURE_LEVEL",
    "DESCRIPTOR_TYPES",
    "ERRATA",
    "OPERATORS",
    "REGISTRY",
    "SUPPORT",
    "VERSION",
    "CastDesc",
    "DataType",
    # Issue 31: the depth-space family.
    "DepthSpaceOrder",
    "DepthToSpace1Desc",
    "DepthToSpaceDesc",
    "Descriptor",
    "DiagonalMatrix1Desc",
    "DiagonalMatrixDesc",
    "Erratum",
    "FeatureLevel",
    "FillValueConstantDesc",
    "FillValueSequenceDesc",
    "GatherDesc",
    "GatherElementsDesc",
    # Issue 32
    "GatherNd1Desc",
    "GatherNdDesc",
    "IdentityDesc",
    "InvalidDescriptor",
    "JoinDesc",
    "OneHotDesc",
    "OperatorModule",
    "Padding1Desc",
    "PaddingDesc",
    "PaddingMode",
    "PaddingValueConversion",
    "ReverseSubsequencesDesc",
    "ScaleBias",
    "ScatterDesc",
    "ScatterNdDesc",
    "Slice1Desc",
    "SliceDesc",
    "SliceGradDesc",
    "SpaceToDepth1Desc",
    "SpaceToDepthDesc",
    "SplitDesc",
    "TensorDesc",
    "TileDesc",
    "TooLarge",
    "beyond_seed_pages",
    "beyond_seeds",
    "case_tensor",
    "check_size",
    "compute",
    "convert_padding_value",
    "default_max_bytes",
    "descriptor_from_json",
    "descriptor_to_json",
    "explain",
    "gather_desc",
    "gather_elements_desc",
    "gather_nd_desc",
    "join",
    "join_desc",
    "layout",
    "min_feature_level",
    "one_hot_desc",
    "padding",
    "padding1",
    "padding1_desc",
    "padding_desc",
    "release_buffers",
    "reverse_subsequences_desc",
    "scatter_desc",
    "scatter_nd_desc",
    "slice",
    "slice1",
    "slice1_desc",
    "slice_desc",
    "split",
    "split_desc",
    "support_row",
    "tensor_bytes",
    "tile",
    "tile_desc",
    "unspecified",
    "unspecified_mask",
    "validate",
]
