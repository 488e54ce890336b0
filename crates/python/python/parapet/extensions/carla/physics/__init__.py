"""The CARLA physics modules ``shape``, ``body``, ``collide``, ``world`` and
``quantities``: compatibility paths that re-export the very objects of
``parapet.extensions.physics`` (no wrappers: a body made through either path
enters the same world, and ``world`` exports the same mode type and
constants). They have no planned removal."""

from parapet.extensions.carla.physics import body, collide, quantities, shape, world

__all__ = ["body", "collide", "quantities", "shape", "world"]
