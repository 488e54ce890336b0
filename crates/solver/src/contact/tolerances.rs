//! Named tolerances and iteration counts of the contact solver, with unit
//! and reason (Box2D `constants.h` style: meaning, unit, normal value, warning).

/// The speculative contact margin (m): contact points are generated for
/// shapes closer than this, and a separated point may close by at most its
/// gap (plus the resting depth [`RESTING_DEPTH`]) during the step, so a
/// body approaching at up to `CONTACT_MARGIN / dt` lands on the surface
/// instead of passing into it.
///
/// 0.02 m: large enough that a body resting under gravity at any usual step
/// (`g dt^2 = 2.7 mm` at 60 Hz) always has its support inside the margin, so
/// resting contacts never flicker; small enough that it stays a numerical
/// skin, below 1/5 of a 0.1 m radius. The discrete mode keeps tunnelling in
/// its reference case (a 0.1 m sphere 0.05 m above a floor at 30 m/s, step
/// 0.01 s: `tests/tests/discrete_tunneling.rs`), which is what the
/// continuous mode exists to fix: any margin below that 0.05 m gap keeps it.
/// Warning: enlarging it makes fast bodies stop short of surfaces (they
/// may bounce from up to this distance away) and CCD defers contacts whose
/// closing travel exceeds it ("How a step works" in
/// docs/continuous-collision.md): the margin is not to be enlarged to hide
/// tunnelling.
pub const CONTACT_MARGIN: f32 = 0.02;

/// The overlap (m) up to which the continuous mode holds (does not sweep)
/// a slow contact: 0.005 m, Box2D's `b2_linearSlop` (`held_band` of the
/// turning sweeps: the smaller of this and a sixteenth of the shape's inner
/// radius). Resting points settle at [`RESTING_DEPTH`], below it. It is
/// well below [`CONTACT_MARGIN`], so a resting body stays within the
/// margin. Warning: the resting depth must stay below it.
pub const PENETRATION_SLOP: f64 = 0.005;

/// The resting depth (m): 0, the surface itself. A contact point short of
/// it (a gap) may close until it reaches it (the speculative target), one
/// beyond it (an overlap) is pushed back to it by the soft contact
/// ([`CONTACT_HERTZ`]), so every resting point settles at this one depth,
/// less the sinking of its load: a box lies level whatever depths its
/// corners landed at (Box2D v3 and rapier settle at one depth too, their
/// `linearSlop` and `allowed_linear_error`).
///
/// Why not a small overlap, as Box2D's 5 mm: the continuous mode holds a
/// turning shape's slow contact only above a floor a fraction of its
/// radius deep, and presses a shape found deeper back out by a fraction
/// of its tolerance per sub-step; a resting overlap of 1 mm already runs
/// those sub-steps out (`ccd_max_substeps`) for boxes of 5 cm and more
/// (measured: `contact_boxes_rest_flat.rs` in SPHERE_MESH_CCD).
/// Warning: a positive value needs the continuous mode's held band to
/// contain it.
pub const RESTING_DEPTH: f64 = 0.0;

/// Substeps of the contact solve (count): 5. Each substep applies a fifth
/// of the step's gravity, warm-starts, solves every point once with the
/// soft bias, moves the bodies (the points' separations follow), and
/// solves once more without the bias (relax). Box2D v3 takes 4; with 4 a
/// column of 20 one-metre cubes sways by centimetres at 60 Hz (the soft
/// contacts of [`CONTACT_HERTZ`] are then capped at 60 Hz by the substep
/// rate), with 5 it stands within millimetres and a pyramid of 210 stands
/// (measured: `world_stacking_boxes.rs`, the `box_stacks` scenes), in
/// both collision modes. 15 passes over the points per step.
pub const SUBSTEPS: usize = 5;

/// The stiffness (Hz) of the soft contact that pushes overlap out: 60 Hz,
/// and never more than a quarter of the substep rate (Box2D v3's rule: a
/// stiffer spring rings). A resting point is a spring of stiffness
/// `m ω²` (`m` the point's effective mass, `ω = 2π` times this): under a
/// load `W` it sinks by `W / (m ω²)`. A one-metre cube resting on another
/// under `n` cubes of its mass sinks by about `2 n g / ω²`, 0.14 mm per cube
/// above: a column of 20 settles by about 2.8 cm in all. Warning: softer
/// contacts sink more under load and let tall stacks sway (Box2D's 30 Hz
/// buckles a column of 20 here); stiffer ones ring.
pub const CONTACT_HERTZ: f64 = 60.0;

/// The damping ratio (dimensionless) of the soft contact: 10, Box2D v3's
/// `contactDampingRatio`: heavily over-damped, so the push-out never
/// overshoots into a bounce.
pub const CONTACT_DAMPING_RATIO: f64 = 10.0;

/// The fastest (m/s) the soft contact pushes overlap out: 3 m/s, Box2D
/// v3's `contactPushMaxVelocity`, so a deep overlap (a body placed inside
/// another) separates over a few steps instead of exploding. The pose
/// change this leaves is carried by the split velocity, never by the
/// stored velocity (the relaxing solve removes it).
pub const MAX_PUSH_SPEED: f64 = 3.0;
