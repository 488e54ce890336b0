"""The physics world (bodies, the step, events, rays, errors) with the
collision-detection mode type and constants."""

from parapet._parapet import (
    CCD_MAX_IMPACTS_LIMIT,
    CCD_MAX_SUBSTEPS_LIMIT,
    CONTACT_MARGIN,
    DEFAULT_CCD_MAX_IMPACTS,
    DEFAULT_CCD_MAX_SUBSTEPS,
    DEFAULT_GRAVITY,
    DISCRETE,
    SPHERE_MESH_CCD,
    BodyId,
    CollisionDetection,
    ContactEvent,
    ContactKind,
    PhysicsWorld,
    RayError,
    RayHit,
    StepError,
    WorldError,
)

__all__ = [
    "CCD_MAX_IMPACTS_LIMIT",
    "CCD_MAX_SUBSTEPS_LIMIT",
    "CONTACT_MARGIN",
    "DEFAULT_CCD_MAX_IMPACTS",
    "DEFAULT_CCD_MAX_SUBSTEPS",
    "DEFAULT_GRAVITY",
    "DISCRETE",
    "SPHERE_MESH_CCD",
    "BodyId",
    "CollisionDetection",
    "ContactEvent",
    "ContactKind",
    "PhysicsWorld",
    "RayError",
    "RayHit",
    "StepError",
    "WorldError",
]
