"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.shape``."""

from parapet.extensions.physics.shape import *  # noqa: F403
from parapet.extensions.physics.shape import __all__ as __all__
