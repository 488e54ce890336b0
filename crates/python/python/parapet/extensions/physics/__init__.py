"""The physics modules: ``shape``, ``body``, ``collide``, ``world``,
``quantities`` and ``ccd``, re-exports of the objects of ``parapet``."""

from parapet.extensions.physics import body, ccd, collide, quantities, shape, world

__all__ = ["body", "ccd", "collide", "quantities", "shape", "world"]
