"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.quantities``."""

from parapet.extensions.physics.quantities import *  # noqa: F403
from parapet.extensions.physics.quantities import __all__ as __all__
