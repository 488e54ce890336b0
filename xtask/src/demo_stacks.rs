//! The stacks of `cargo xtask demo`: the column of 20 cubes and the
//! pyramids of 55 and 210 of `parapet_scenes::box_stacks`, each stood on
//! its tessellated floor for 10 s in DISCRETE and in SPHERE_MESH_CCD, and
//! judged every second by `StackReport` (independent of parapet's
//! contacts: the worst overlap of two cubes, how far a cube moved aside of
//! its place, turned and sank). `--quick` stands the column and the pyramid
//! of 55 for one second.

use std::io::Write;

use parapet::prelude::*;
use parapet_scenes::box_stacks::{
    stack_world, StackLayout, StackReport, DT, MAX_ASIDE, MAX_OVERLAP, MAX_TURN_DEG,
};

use crate::demo_error::DemoError;

/// Steps of a full stack run: 10 s at [`DT`].
pub const STACK_STEPS: usize = 600;

/// Steps between two judgements: one second at [`DT`].
const JUDGE_EVERY: usize = 60;

/// A step the world refused during a stack run.
#[derive(Debug, Clone)]
pub struct StackRefusal {
    /// The index of the refused step (0 for the first).
    pub step: usize,
    /// The error.
    pub error: StepError,
    /// Whether every body was exactly as before the call.
    pub world_unchanged: bool,
}

/// One stack stood in one mode.
#[derive(Debug, Clone)]
pub struct StackRun {
    /// The mode.
    pub mode: CollisionDetection,
    /// Steps that succeeded.
    pub steps_taken: usize,
    /// The judgement after every second (time in s), and after the last step.
    pub samples: Vec<(f64, StackReport)>,
    /// The refused step, if the world refused one (the run stops there).
    pub refusal: Option<StackRefusal>,
}

impl StackRun {
    /// Whether the stack stood through the run: every step taken and every
    /// judgement within the stack limits.
    pub fn stood(&self) -> bool {
        self.refusal.is_none() && self.samples.iter().all(|(_, r)| r.stands())
    }

    /// Whether the run kept the continuous mode's promise: every step taken
    /// and no two cubes ever overlapping by more than the promised depth of
    /// a one-metre cube (`parapet::ccd::tolerances::promised_depth`). How
    /// well a stack stands is the contact solve's (the same substeps in
    /// both modes); the promise is the continuous step's.
    pub fn kept_the_promise(&self) -> bool {
        let cube = parapet::shape::Shape::cuboid(parapet::math::Vec3::new(0.5, 0.5, 0.5))
            .map(|c| parapet::ccd::tolerances::promised_depth(&c))
            .unwrap_or(0.0);
        self.refusal.is_none() && self.samples.iter().all(|(_, r)| r.overlap <= cube)
    }
}

/// One stack in both modes.
#[derive(Debug, Clone)]
pub struct StackDemo {
    /// The layout's name (`column_20`, ...).
    pub name: String,
    /// Its cube count.
    pub cubes: usize,
    /// The run in DISCRETE.
    pub discrete: StackRun,
    /// The run in SPHERE_MESH_CCD.
    pub ccd: StackRun,
}

fn stand(
    layout: &StackLayout,
    mode: CollisionDetection,
    steps: usize,
) -> Result<StackRun, DemoError> {
    let (mut world, ids) = stack_world(layout, mode)?;
    let mut run = StackRun {
        mode,
        steps_taken: 0,
        samples: Vec::new(),
        refusal: None,
    };
    for step in 0..steps {
        let before = world.clone();
        if let Err(error) = world.step(DT) {
            let world_unchanged = before.body_count() == world.body_count()
                && before
                    .bodies()
                    .zip(world.bodies())
                    .all(|((i, a), (j, b))| i == j && a == b);
            run.refusal = Some(StackRefusal {
                step,
                error,
                world_unchanged,
            });
            break;
        }
        run.steps_taken += 1;
        if run.steps_taken.is_multiple_of(JUDGE_EVERY) || run.steps_taken == steps {
            let time = run.steps_taken as f64 * DT as f64;
            run.samples
                .push((time, StackReport::of_world(layout, &world, &ids)));
        }
    }
    Ok(run)
}

/// Stands the stacks in both modes and writes their tables to `out`.
///
/// # Errors
///
/// [`DemoError`] when a stack cannot be built or the table cannot be written.
pub fn run(quick: bool, out: &mut dyn Write) -> Result<Vec<StackDemo>, DemoError> {
    let (layouts, steps) = if quick {
        (
            vec![StackLayout::column(20), StackLayout::pyramid(10)],
            JUDGE_EVERY,
        )
    } else {
        (StackLayout::all(), STACK_STEPS)
    };
    writeln!(
        out,
        "\nstacks: one-metre cubes of 1,000 kg placed 1 cm apart on a flat floor of triangles,\n\
         judged every second independently of parapet's contacts; a stack stands when no two\n\
         cubes overlap by more than {:.0} mm, no cube ends more than {:.0} mm aside of its place\n\
         and none turns by {MAX_TURN_DEG} degree or more",
        MAX_OVERLAP * 1e3,
        MAX_ASIDE * 1e3,
    )?;
    let mut stacks = Vec::new();
    for layout in &layouts {
        let demo = StackDemo {
            name: layout.name.clone(),
            cubes: layout.places.len(),
            discrete: stand(layout, DISCRETE, steps)?,
            ccd: stand(layout, SPHERE_MESH_CCD, steps)?,
        };
        write_table(out, &demo)?;
        stacks.push(demo);
    }
    Ok(stacks)
}

fn write_table(out: &mut dyn Write, demo: &StackDemo) -> std::io::Result<()> {
    writeln!(
        out,
        "\n== {}: {} cubes for {:.0} s",
        demo.name,
        demo.cubes,
        demo.discrete.samples.last().map_or(0.0, |s| s.0)
    )?;
    writeln!(
        out,
        "{:<16} {:>6} {:>12} {:>10} {:>10} {:>9}",
        "mode", "t s", "overlap mm", "aside mm", "turn deg", "sink mm"
    )?;
    for r in [&demo.discrete, &demo.ccd] {
        let mode = if r.mode == SPHERE_MESH_CCD {
            "SPHERE_MESH_CCD"
        } else {
            "DISCRETE"
        };
        for (t, s) in &r.samples {
            writeln!(
                out,
                "{mode:<16} {t:>6.1} {:>12.2} {:>10.2} {:>10.3} {:>9.2}",
                s.overlap * 1e3,
                s.aside * 1e3,
                s.turn_deg,
                s.sink * 1e3
            )?;
        }
        match &r.refusal {
            Some(f) => writeln!(
                out,
                "  {mode} refused step {}: {}\n    world unchanged by the refused step: {}",
                f.step,
                f.error,
                if f.world_unchanged { "yes" } else { "NO" }
            )?,
            None => writeln!(
                out,
                "  {mode}: {} after {} steps{}",
                if r.stood() {
                    "stands"
                } else {
                    "DOES NOT STAND"
                },
                r.steps_taken,
                match (
                    r.mode == parapet::ccd::SPHERE_MESH_CCD,
                    r.stood(),
                    r.kept_the_promise()
                ) {
                    (true, false, true) => " (sways, no two cubes deeper than the promised depth)",
                    (true, false, false) => " (cubes deeper than the promised depth)",
                    _ => "",
                }
            )?,
        }
    }
    Ok(())
}
