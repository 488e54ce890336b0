"""Rigid bodies: motion modes, mass properties, forces and impulses,
collision groups, and the id a world gives a body."""

from parapet._parapet import BodyError, BodyId, BodyKind, CollisionGroups, RigidBody

__all__ = ["BodyError", "BodyId", "BodyKind", "CollisionGroups", "RigidBody"]
