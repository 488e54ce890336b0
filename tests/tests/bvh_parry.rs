//! Differential test of the triangle bounds tree against parry3d 0.31's BVH
//! on a `TriMesh` built from the same triangles: on the triangle-index workloads
//! (terrain grid and random soup) and the shared sweep generator, a box query
//! with f32 corners returns exactly the triangles parry's `intersect_aabb`
//! returns (both test closed boxes against the triangles' exact f32 bounds),
//! and the swept-ball query returns a subset of its own box's candidates
//! (that it keeps every triangle its path reaches is `bvh_rounding.rs`'s job).

use parapet_geometry::bvh::{Bounds, BoundsQuery, SweptBall, TriangleBoundsTree};
use parapet_math::Vec3;
use parapet_tests::meshes::{soup, sweeps_near, terrain_with, IndexedMesh};
use parapet_tests::parry::parry3d::bounding_volume::Aabb;
use parapet_tests::parry::parry3d::shape::TriMesh;
use parapet_tests::parry::to_parry;

fn parry_mesh(mesh: &IndexedMesh) -> TriMesh {
    TriMesh::new(
        mesh.vertices.iter().map(|&v| to_parry(v)).collect(),
        mesh.indices.clone(),
    )
    .expect("non-empty mesh")
}

fn check_workload(mesh: &IndexedMesh, seed: u64) {
    let tris = mesh.triangles();
    let tree = TriangleBoundsTree::build(&tris).expect("finite workload");
    tree.validate(&tris).expect("fresh tree");
    let parry = parry_mesh(mesh);
    let mut ours = Vec::new();
    let mut total = 0;
    for s in sweeps_near(mesh, 2000, seed) {
        // The same f32 box for both.
        let r = Vec3::repeat(s.radius);
        let (lo, hi) = (s.start.inf(&s.end) - r, s.start.sup(&s.end) + r);
        let mut theirs: Vec<u32> = parry
            .bvh()
            .intersect_aabb(&Aabb::new(to_parry(lo), to_parry(hi)))
            .collect();
        theirs.sort_unstable();
        tree.query(&Bounds::new(lo.cast(), hi.cast()).unwrap(), &mut ours);
        assert_eq!(ours, theirs, "box {lo:?}..{hi:?}");
        total += ours.len();

        // The swept ball: its candidates are among the box's candidates of its
        // own (outward-rounded, so possibly one f64 ulp wider) box.
        let sweep = SweptBall::new(s.start.cast(), s.end.cast(), s.radius as f64).unwrap();
        tree.query(&sweep, &mut ours);
        let wide = tree.query_vec(&sweep.bounds());
        assert!(ours.iter().all(|i| wide.contains(i)));
    }
    // The workload is not vacuous: sweeps near the surface find triangles.
    assert!(total > 1000, "only {total} candidates in 2000 sweeps");
}

#[test]
fn box_queries_match_parry_on_the_terrain_workload() {
    check_workload(&terrain_with(2048, 11), 12);
}

#[test]
fn box_queries_match_parry_on_the_soup_workload() {
    check_workload(&soup(2048, 13), 14);
}

#[test]
fn retained_memory_is_below_parrys() {
    // parapet: 2T - 1 nodes of 32 bytes, about 64 bytes per triangle; parry's
    // BVH keeps wide nodes, parent links and leaf indices (about 80).
    for t in [2048, 8192] {
        let mesh = terrain_with(t, 5);
        let tree = TriangleBoundsTree::build(&mesh.triangles()).unwrap();
        let parry = parry_mesh(&mesh);
        let ours = tree.memory_bytes();
        let theirs = parry.bvh().total_memory_size();
        assert!(
            ours <= theirs,
            "{t} triangles: parapet {ours} B, parry {theirs} B"
        );
        assert!(
            tree.bytes_per_triangle() < 64.1,
            "{}",
            tree.bytes_per_triangle()
        );
    }
}
