"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.body``."""

from parapet.extensions.physics.body import *  # noqa: F403
from parapet.extensions.physics.body import __all__ as __all__
