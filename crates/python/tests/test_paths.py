"""The contract's module paths: parapet.extensions.physics.* for new
scripts, parapet.extensions.carla.physics.* as compatibility paths that
re-export the very same objects."""

import importlib

import parapet

PHYSICS = ["shape", "body", "collide", "world", "quantities", "ccd"]
CARLA = ["shape", "body", "collide", "world", "quantities"]

# The names the contract requires in each module (at least these).
REQUIRED = {
    "shape": ["Shape", "Material", "MassProperties", "ShapeError"],
    "body": ["RigidBody", "BodyKind", "BodyId", "BodyError", "CollisionGroups"],
    "collide": ["ContactEvent", "ContactKind", "RayHit"],
    "world": ["PhysicsWorld", "CollisionDetection", "DISCRETE", "SPHERE_MESH_CCD", "StepError", "WorldError", "RayError"],
    "quantities": ["torque", "kinetic_energy", "linear_momentum", "units"],
    "ccd": ["CollisionDetection", "DISCRETE", "SPHERE_MESH_CCD", "CcdMode", "CcdReport", "BodyCcdStats", "CcdRefusal"],
}


def test_every_module_exports_its_names_and_only_objects_it_holds():
    for name in PHYSICS:
        module = importlib.import_module(f"parapet.extensions.physics.{name}")
        for required in REQUIRED[name]:
            assert required in module.__all__, (name, required)
        for exported in module.__all__:
            assert hasattr(module, exported), (name, exported)


def test_the_carla_paths_are_the_same_objects():
    for name in CARLA:
        physics = importlib.import_module(f"parapet.extensions.physics.{name}")
        carla = importlib.import_module(f"parapet.extensions.carla.physics.{name}")
        assert carla.__all__ == physics.__all__
        for exported in physics.__all__:
            if exported == "units":
                continue
            assert getattr(carla, exported) is getattr(physics, exported), (name, exported)
    from parapet.extensions.carla.physics.quantities import units as carla_units
    from parapet.extensions.physics.quantities import units

    assert carla_units.DEGREE == units.DEGREE == parapet._parapet.UNITS["DEGREE"]


def test_the_carla_world_exports_the_same_mode_type_and_constants():
    from parapet.extensions.carla.physics import world as carla_world
    from parapet.extensions.physics import ccd

    assert carla_world.CollisionDetection is ccd.CollisionDetection
    assert carla_world.SPHERE_MESH_CCD == ccd.SPHERE_MESH_CCD
    assert carla_world.DISCRETE == ccd.DISCRETE
    assert carla_world.SPHERE_MESH_CCD != carla_world.DISCRETE


def test_a_body_made_through_either_path_enters_the_same_world():
    from parapet.extensions.carla.physics.body import RigidBody as CarlaBody
    from parapet.extensions.carla.physics.shape import Shape as CarlaShape
    from parapet.extensions.carla.physics.world import SPHERE_MESH_CCD
    from parapet.extensions.physics.body import RigidBody
    from parapet.extensions.physics.shape import Shape
    from parapet.extensions.physics.world import PhysicsWorld

    world = PhysicsWorld()
    world.collision_detection = SPHERE_MESH_CCD
    a = world.add_body(CarlaBody.new_dynamic(CarlaShape.sphere(0.5), 1.0))
    b = world.add_body(RigidBody.new_dynamic(Shape.sphere(0.5), 1.0).with_position((2.0, 0.0, 0.0)))
    assert world.ids() == [a, b]
    assert type(world.body(a)) is type(world.body(b)) is parapet.RigidBody


def test_the_modes_are_not_integers():
    from parapet import CcdMode, CollisionDetection, SPHERE_MESH_CCD

    assert CollisionDetection.from_code(SPHERE_MESH_CCD.code) == SPHERE_MESH_CCD
    assert CcdMode.from_code(CcdMode.Auto.code) == CcdMode.Auto
    for bad in (2, 7, -1, 256):
        try:
            CollisionDetection.from_code(bad)
        except ValueError as e:
            assert "is not a mode" in str(e)
        else:
            raise AssertionError(f"{bad} gave a mode")
    assert SPHERE_MESH_CCD != 1 and repr(SPHERE_MESH_CCD) == "SPHERE_MESH_CCD"
