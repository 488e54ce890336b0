"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.quantities.units``."""

from parapet.extensions.physics.quantities.units import *  # noqa: F403
from parapet.extensions.physics.quantities.units import __all__ as __all__
