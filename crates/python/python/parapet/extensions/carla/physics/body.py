"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.body``."""

from parapet.extensions.physics.body import (
    BodyError,
    BodyId,
    BodyKind,
    CollisionGroups,
    RigidBody,
)

__all__ = [
    "BodyError",
    "BodyId",
    "BodyKind",
    "CollisionGroups",
    "RigidBody",
]
