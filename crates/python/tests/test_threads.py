"""`step` releases the GIL: another Python thread runs while a world steps."""

import threading
import time

from parapet import PhysicsWorld, RigidBody, Shape


def heavy_world() -> PhysicsWorld:
    """A block of 3,000 overlapping spheres: one step takes a tenth of a
    second or more on this project's machines."""
    world = PhysicsWorld()
    template = RigidBody.new_dynamic(Shape.sphere(0.5), 1.0)
    for i in range(3000):
        body = template.copy()
        body.position = (0.4 * (i % 15), 0.4 * ((i // 15) % 15), 0.4 * (i // 225))
        world.add_body(body)
    return world


def test_another_thread_runs_while_a_world_steps():
    world = heavy_world()
    started = threading.Event()
    span = {}

    def stepper():
        started.set()
        span["start"] = time.perf_counter()
        world.step(0.01)
        span["end"] = time.perf_counter()

    thread = threading.Thread(target=stepper)
    stamps = []
    thread.start()
    started.wait()
    while thread.is_alive():
        stamps.append(time.perf_counter())
    thread.join()
    inside = [t for t in stamps if span["start"] < t < span["end"]]
    duration = span["end"] - span["start"]
    # Were the GIL held through the step, this thread could run inside the
    # span only before the step's call took the interpreter back: one
    # switch interval (5 ms by default). Released, it runs throughout: its
    # stamps cover most of the span.
    assert duration > 0.05, f"the step took only {duration:.3f} s: too short to tell"
    assert inside and max(inside) - min(inside) > 0.5 * duration


def test_touching_a_world_while_it_steps_raises_instead_of_tearing_it():
    world = heavy_world()
    view = world.body(world.ids()[0])
    assert view is not None
    errors = []
    thread = threading.Thread(target=lambda: world.step(0.01))
    thread.start()
    while thread.is_alive():
        for read in (world.positions, lambda: view.position):
            try:
                read()
            except RuntimeError as e:
                errors.append(str(e))
    thread.join()
    # Refused while the step ran (the world is borrowed by it), readable
    # again after.
    assert errors, "no read overlapped the step"
    assert any("in use" in e for e in errors) and all("borrow" in e or "in use" in e for e in errors)
    assert world.positions().shape == (3000, 3) and view.position == tuple(world.positions()[0])
