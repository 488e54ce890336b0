"""CARLA compatibility path: the very objects of ``parapet.extensions.physics.quantities``."""

from parapet.extensions.physics.quantities import (
    angular_momentum,
    critical_damping,
    kinetic_energy,
    linear_momentum,
    natural_angular_frequency,
    orbital_angular_momentum,
    rotational_kinetic_energy,
    spring_force,
    spring_potential_energy,
    stiffness_for_frequency,
    torque,
    translational_kinetic_energy,
)
from parapet.extensions.carla.physics.quantities import units

__all__ = [
    "angular_momentum",
    "critical_damping",
    "kinetic_energy",
    "linear_momentum",
    "natural_angular_frequency",
    "orbital_angular_momentum",
    "rotational_kinetic_energy",
    "spring_force",
    "spring_potential_energy",
    "stiffness_for_frequency",
    "torque",
    "translational_kinetic_energy",
    "units",
]
