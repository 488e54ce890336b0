"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.shape``."""

from parapet.extensions.physics.shape import (
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
