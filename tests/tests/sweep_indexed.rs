//! `sweep_sphere_triangles_indexed` (the bounds tree's candidates) against
//! `sweep_sphere_triangles` (every triangle): the same outcome, bit for bit,
//! on terrains, soups and overlapping layouts, for sweeps near the surface,
//! long sweeps across the mesh, and inputs the sweeps refuse. The brute
//! force is the oracle of the candidate set: a triangle the tree dropped
//! would change a hit, a tie or a refusal.

use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_math::Vec3;
use parapet_narrow::sweep::{sweep_sphere_triangles, sweep_sphere_triangles_indexed};
use parapet_tests::meshes::{
    overlapping, soup, sweeps_near, terrain, Directions, IndexedMesh, SplitMix64,
};

/// Sweeps of each mesh (`PARAPET_SWEEP_INDEXED_CASES`, default 2,000).
fn cases() -> usize {
    std::env::var("PARAPET_SWEEP_INDEXED_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

fn check(name: &str, mesh: &IndexedMesh) {
    let tris = mesh.triangles();
    let tree = TriangleBoundsTree::build(&tris).unwrap();
    let dt = 1.0 / 60.0;
    let mut rng = SplitMix64::new(0x1D3);
    let mut hits = 0;
    for (k, s) in sweeps_near(mesh, cases(), 0x5EED).iter().enumerate() {
        // Every fourth sweep is stretched across the mesh (up to 100 m per
        // step), every tenth gets a radius or speed past the domain limits.
        let mut velocity = (s.end - s.start) / dt;
        let mut radius = s.radius;
        if k % 4 == 1 {
            velocity = rng.direction() * rng.range_f32(100.0, 6000.0);
        }
        if k % 10 == 3 {
            radius = [0.0, 1e-9, 1e9][k % 3];
        }
        let brute = sweep_sphere_triangles(s.start, radius, velocity, dt, &tris);
        let indexed = sweep_sphere_triangles_indexed(s.start, radius, velocity, dt, &tris, &tree);
        assert_eq!(indexed, brute, "{name} sweep {k}: {s:?}");
        hits += usize::from(brute.time().is_some());
    }
    // The comparison must see contacts, not only misses.
    assert!(hits > cases() / 10, "{name}: only {hits} contacts");
}

#[test]
fn the_indexed_sphere_sweep_equals_the_brute_force_one() {
    check("terrain", &terrain(32, 32, 7));
    check("soup", &soup(2048, 8));
    check("overlapping", &overlapping(512, 4.0, 9));
}

#[test]
fn a_tree_of_another_mesh_is_ignored() {
    let a = terrain(8, 8, 1).triangles();
    let b = terrain(4, 4, 2).triangles();
    let other = TriangleBoundsTree::build(&b).unwrap();
    let c = Vec3::new(1.0, 1.0, 2.0);
    let v = Vec3::new(0.0, 0.0, -200.0);
    assert_eq!(
        sweep_sphere_triangles_indexed(c, 0.2, v, 0.02, &a, &other),
        sweep_sphere_triangles(c, 0.2, v, 0.02, &a)
    );
}
