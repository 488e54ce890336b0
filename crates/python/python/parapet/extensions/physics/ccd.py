"""Continuous collision detection: the world's mode (``DISCRETE``,
``SPHERE_MESH_CCD``), a body's own policy (``CcdMode``), what the last step
swept (``CcdReport``, ``BodyCcdStats``) and what the next one would refuse
(``CcdRefusal``, from ``PhysicsWorld.check_ccd``)."""

from parapet._parapet import (
    AUTO_MOTION_FRACTION,
    CHECK_CCD_DEFAULT_DT,
    DISCRETE,
    SPHERE_MESH_CCD,
    BodyCcdStats,
    CcdMode,
    CcdRefusal,
    CcdReport,
    CollisionDetection,
)

__all__ = [
    "AUTO_MOTION_FRACTION",
    "CHECK_CCD_DEFAULT_DT",
    "DISCRETE",
    "SPHERE_MESH_CCD",
    "BodyCcdStats",
    "CcdMode",
    "CcdRefusal",
    "CcdReport",
    "CollisionDetection",
]
