"""The CARLA physics module paths, ``parapet.extensions.carla.physics``."""
