"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.collide``."""

from parapet.extensions.physics.collide import *  # noqa: F403
from parapet.extensions.physics.collide import __all__ as __all__
