"""The module paths of the physics API contract: ``parapet.extensions.physics``
for new scripts and ``parapet.extensions.carla.physics`` for CARLA scripts
(re-exports of the very same objects)."""
