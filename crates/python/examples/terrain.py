"""The demo's generated terrains in Python: the same height fields as the
Rust scenes (a SplitMix64 generator, a coarse lattice of random heights
interpolated bilinearly plus a per-vertex roughness, heights rounded to
f32), so that the Python demo lands on the same triangles.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from parapet import Shape

MASK = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: 64 random bits per call."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def range(self, low: float, high: float) -> float:
        """A uniform float in [low, high): the top 53 bits."""
        unit = (self.next_u64() >> 11) * (1.0 / (1 << 53))
        return low + (high - low) * unit


class HeightField:
    """A field of nx x ny square cells of side `cell` (m) centred on the
    origin, heights in about [-amplitude, amplitude]."""

    def __init__(self, seed: int, nx: int, ny: int, cell: float, amplitude: float) -> None:
        rng = SplitMix64(seed)
        coarse = 4
        cx, cy = nx // coarse + 2, ny // coarse + 2
        lattice = [rng.range(-amplitude, amplitude) for _ in range(cx * cy)]
        heights: List[float] = []
        for j in range(ny + 1):
            for i in range(nx + 1):
                gx, gy = i / coarse, j / coarse
                ix, iy = int(gx), int(gy)
                fx, fy = gx - ix, gy - iy

                def at(a: int, b: int) -> float:
                    return lattice[b * cx + a]

                smooth = (1.0 - fy) * ((1.0 - fx) * at(ix, iy) + fx * at(ix + 1, iy)) + fy * (
                    (1.0 - fx) * at(ix, iy + 1) + fx * at(ix + 1, iy + 1)
                )
                rough = rng.range(-0.1 * amplitude, 0.1 * amplitude)
                heights.append(smooth + rough)
        self.nx, self.ny, self.cell = nx, ny, cell
        self.origin = (-nx * cell / 2.0, -ny * cell / 2.0)
        self.heights = np.array(heights, dtype=np.float32).reshape(ny + 1, nx + 1)

    def triangles(self) -> Tuple[np.ndarray, np.ndarray]:
        """Vertices (f32) and counter-clockwise triangles (front up), each
        cell split along its diagonal from (i, j) to (i + 1, j + 1)."""
        j, i = np.mgrid[0 : self.ny + 1, 0 : self.nx + 1]
        x = (self.origin[0] + i * self.cell).astype(np.float32)
        y = (self.origin[1] + j * self.cell).astype(np.float32)
        vertices = np.stack([x.ravel(), y.ravel(), self.heights.ravel()], axis=1)
        cj, ci = np.mgrid[0 : self.ny, 0 : self.nx]
        a = (cj * (self.nx + 1) + ci).ravel()
        b, c, d = a + 1, a + self.nx + 2, a + self.nx + 1
        tris = np.empty((2 * a.size, 3), dtype=np.uint32)
        tris[0::2] = np.stack([a, b, c], axis=1)
        tris[1::2] = np.stack([a, c, d], axis=1)
        return vertices, tris

    def mesh(self) -> Shape:
        vertices, tris = self.triangles()
        return Shape.mesh(vertices, tris)


def walker_terrain() -> HeightField:
    """The capsule walker's terrain: 40 x 40 cells of 0.5 m, +-0.5 m."""
    return HeightField(2026, 40, 40, 0.5, 0.5)


def vehicle_terrain() -> HeightField:
    """The vehicles' rough terrain: 64 x 64 cells of 1 m, +-0.3 m."""
    return HeightField(0x76656869, 64, 64, 1.0, 0.3)
