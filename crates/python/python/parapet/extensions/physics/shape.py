"""Shapes, materials and mass properties."""

from parapet._parapet import (
    ACTIVE_EDGE_ANGLE,
    MAX_COORDINATE,
    THIN_TRIANGLE_RATIO,
    MassProperties,
    Material,
    MaterialError,
    Shape,
    ShapeError,
)

__all__ = [
    "ACTIVE_EDGE_ANGLE",
    "MAX_COORDINATE",
    "THIN_TRIANGLE_RATIO",
    "MassProperties",
    "Material",
    "MaterialError",
    "Shape",
    "ShapeError",
]
