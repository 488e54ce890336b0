"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.world``."""

from parapet.extensions.physics.world import *  # noqa: F403
from parapet.extensions.physics.world import __all__ as __all__
