"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.collide``."""

from parapet.extensions.physics.collide import (
    CONTACT_MARGIN,
    ContactEvent,
    ContactKind,
    RayHit,
)

__all__ = [
    "CONTACT_MARGIN",
    "ContactEvent",
    "ContactKind",
    "RayHit",
]
