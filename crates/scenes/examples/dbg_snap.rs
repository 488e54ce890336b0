//! temporary debugging harness (not committed): DBG file dt [substeps]
use parapet::prelude::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let dt: f32 = std::env::args().nth(2).unwrap().parse().unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let mut w = parapet::snapshot::from_json(&text).unwrap();
    let show = |w: &PhysicsWorld| {
        for (id, b) in w.bodies() {
            println!(
                "  {id:?} {:?} p={:?} v={:?} w={:?}",
                b.kind(),
                b.position(),
                b.linear_velocity(),
                b.angular_velocity()
            );
        }
    };
    show(&w);
    match w.step(dt) {
        Ok(()) => println!("ok: {:?}", w.ccd_report()),
        Err(e) => println!("refused: {e}"),
    }
    show(&w);
    for e in w.events() {
        println!("  event {e:?}");
    }
}
