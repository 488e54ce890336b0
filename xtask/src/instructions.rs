//! `cargo xtask instructions [--quick]`: instruction counts under
//! valgrind's callgrind (one thread, `RAYON_NUM_THREADS=1`), which do not
//! move with the machine's load, for the comparison with rapier3d and
//! parry3d:
//!
//! - instructions per box-triangle contact test: parapet's
//!   `PlacedShape::triangle` beside parry3d's `query::contact`, on the
//!   tests of crates lying on an 8,192-triangle terrain (the
//!   `contact_cost` example);
//! - instructions per step of every scene of `parapet_scenes::bench_versus`
//!   in parapet (DISCRETE, SPHERE_MESH_CCD) and rapier3d (its defaults,
//!   sleeping on; CCD off and on), the `versus_profile` example's timed
//!   steps, with what the scene's independent check found in each engine
//!   over those steps (bodies sunk into the ground, pairs passed into each
//!   other, cubes displaced from their stack).
//!
//! - instructions per step of the continuous step beside the discrete one
//!   in the worlds the continuous step is held to (the town crossroads at
//!   1/60 and 1/20 s, 64 tumbling boxes on 8,192 triangles, crowds of 64
//!   and 256 walkers 1 and 1.8 m apart), the `town_profile` example's
//!   timed steps, with the ratio and the aim.
//!
//! Writes `docs/reports/instructions.md` and `instructions.csv`; `--quick`
//! (a smoke run: a few steps) writes to `target/parapet/instructions/`.
//! Refuses at once, naming the command, when valgrind is missing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use parapet_scenes::bench_versus::VersusCheck;
use parapet_scenes::versus_scenes::versus_scenes;

/// Rounds of the contact-cost example (each tests every pair once).
const CONTACT_ROUNDS: usize = 20;

/// One measured run: the engine, the instructions per unit and the check.
struct Measured {
    scene: String,
    engine: &'static str,
    per_step: f64,
    summary: String,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// Instructions collected by callgrind for `exe args` (toggled on
/// `toggle`), and the program's standard output.
fn callgrind(exe: &Path, args: &[String], toggle: &str) -> Result<(u64, String), String> {
    let out_file = target_dir().join("parapet/instructions/callgrind.out");
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(format!("--toggle-collect={toggle}"))
        .arg(exe)
        .args(args)
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let collected = stderr
        .lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse::<u64>().ok())
        .ok_or_else(|| {
            format!(
                "no instruction count from {} {args:?}: {stderr}",
                exe.display()
            )
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_string();
    // A scene the program could not build or step prints why on stderr, between valgrind's `==pid==` lines.
    let said = if stdout.is_empty() {
        stderr
            .lines()
            .filter(|l| !l.starts_with("==") && !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        stdout
    };
    Ok((collected, said))
}

/// The steps measured for a scene: its run (at most `cap`), at least 1.
fn steps_for(run: usize, cap: usize) -> usize {
    run.clamp(1, cap)
}

/// Runs the task.
pub fn run(args: &[String]) -> ExitCode {
    let quick = args.iter().any(|a| a == "--quick");
    if let Some(bad) = args.iter().find(|a| *a != "--quick") {
        eprintln!("xtask instructions: unknown argument `{bad}` (only --quick)");
        return ExitCode::from(2);
    }
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("xtask instructions: valgrind is missing; install it first (`sudo apt-get install valgrind`)");
        return ExitCode::FAILURE;
    }
    let build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--release",
            "-p",
            "parapet-benches",
            "--example",
            "versus_profile",
            "--example",
            "contact_cost",
            "--example",
            "town_profile",
        ])
        .status();
    if !build.is_ok_and(|s| s.success()) {
        eprintln!("xtask instructions: the examples did not build");
        return ExitCode::FAILURE;
    }
    match measure(quick) {
        Ok((md, csv)) => {
            let dir = if quick {
                target_dir().join("parapet/instructions")
            } else {
                workspace_root().join("docs/reports")
            };
            let written = std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::write(dir.join("instructions.md"), md))
                .and_then(|()| std::fs::write(dir.join("instructions.csv"), csv));
            match written {
                Ok(()) => {
                    println!("wrote {}", dir.join("instructions.md").display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("xtask instructions: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            eprintln!("xtask instructions: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The measurements, as the report's Markdown and CSV.
fn measure(quick: bool) -> Result<(String, String), String> {
    let examples = target_dir().join("release/examples");
    let _ = std::fs::create_dir_all(target_dir().join("parapet/instructions"));
    let mut md = String::new();
    let mut csv = String::from("scene,engine,instructions_per_unit,check\n");
    let _ = writeln!(md, "# Instruction counts\n");
    let _ = writeln!(
        md,
        "`cargo xtask instructions`: valgrind callgrind, one thread (`RAYON_NUM_THREADS=1`), release build; \
         instructions do not move with the machine's load. Commit `{}`.\n",
        git_commit()
    );
    let rounds = if quick { 2 } else { CONTACT_ROUNDS };
    let _ = writeln!(md, "## One box-triangle contact test\n");
    let _ = writeln!(
        md,
        "The tests of 64 crates lying on the 8,192-triangle terrain against every triangle their bounds \
         (grown by the 2 cm margin) overlap (`benches/examples/contact_cost.rs`): parapet places each box \
         once and calls `PlacedShape::triangle`; parry3d calls `query::contact` on the same pairs.\n"
    );
    let _ = writeln!(
        md,
        "| engine | instructions per test | tests with a contact |"
    );
    let _ = writeln!(md, "|---|---:|---|");
    for engine in ["parapet", "parry"] {
        let exe = examples.join("contact_cost");
        let (ir, out) = callgrind(
            &exe,
            &[engine.to_string(), rounds.to_string()],
            "contact_cost::run_*",
        )?;
        let tests: f64 = out
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(f64::NAN);
        let per_test = ir as f64 / (tests * rounds as f64);
        let _ = writeln!(md, "| {engine} | {per_test:.0} | {out} |");
        let _ = writeln!(csv, "box_triangle_test,{engine},{per_test:.0},\"{out}\"");
    }
    let _ = writeln!(md, "\n## Instructions per step\n");
    let _ = writeln!(
        md,
        "The scenes of `parapet_scenes::bench_versus`, each engine's timed steps of \
         `benches/examples/versus_profile.rs` (the prepared first step excluded; crowds step on, impact \
         scenes time their second step). rapier3d 0.36 with its defaults (sleeping on), CCD off \
         (`rapier_discrete`) or on every dynamic body (`rapier_ccd`); both engines combine friction by the \
         geometric mean and restitution by the maximum. The check counts, over the measured steps, bodies \
         sunk into the ground, pairs passed into each other and stack cubes displaced.\n"
    );
    let _ = writeln!(
        md,
        "| scene | steps | parapet DISCRETE | rapier discrete | DISCRETE ratio | parapet CCD | rapier CCD | CCD ratio |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut checks = String::new();
    for s in versus_scenes() {
        let cap = if quick {
            3
        } else if matches!(s.check, VersusCheck::Stack(_)) {
            // Five seconds: rapier's stacks fall asleep after about two.
            300
        } else {
            60
        };
        let steps = steps_for(s.run, cap);
        let mut row: Vec<Measured> = Vec::new();
        for engine in [
            "parapet_discrete",
            "rapier_discrete",
            "parapet_ccd",
            "rapier_ccd",
        ] {
            let exe = examples.join("versus_profile");
            let args = [s.name.clone(), engine.to_string(), steps.to_string()];
            let (ir, out) = callgrind(&exe, &args, "versus_profile::timed_*")?;
            row.push(Measured {
                scene: s.name.clone(),
                engine,
                per_step: ir as f64 / steps as f64,
                summary: check_of(&out),
            });
        }
        // A run that was refused measured only part of its steps: no figure, no ratio.
        let stepped = |m: &Measured| m.summary.ends_with("stepped");
        let fmt = |m: &Measured| {
            if stepped(m) {
                format!("{:.0}", m.per_step)
            } else {
                "refused".to_string()
            }
        };
        let ratio = |a: &Measured, b: &Measured| {
            if stepped(a) && stepped(b) {
                format!("{:.2}", a.per_step / b.per_step)
            } else {
                "-".to_string()
            }
        };
        let _ = writeln!(
            md,
            "| {} | {steps} | {} | {} | {} | {} | {} | {} |",
            s.name,
            fmt(&row[0]),
            fmt(&row[1]),
            ratio(&row[0], &row[1]),
            fmt(&row[2]),
            fmt(&row[3]),
            ratio(&row[2], &row[3])
        );
        for m in &row {
            let _ = writeln!(
                csv,
                "{},{},{:.0},\"{}\"",
                m.scene, m.engine, m.per_step, m.summary
            );
            let _ = writeln!(checks, "| {} | {} | {} |", m.scene, m.engine, m.summary);
        }
        eprintln!("measured {}", s.name);
    }
    ccd_beside_discrete(quick, &examples, &mut md, &mut csv)?;
    let _ = writeln!(md, "\n## What each engine let through\n");
    let _ = writeln!(md, "| scene | engine | over the measured steps |");
    let _ = writeln!(md, "|---|---|---|");
    md.push_str(&checks);
    Ok((md, csv))
}

/// The worlds of the continuous step's speed aims: name (as
/// `town_profile` takes it), warm-up steps, measured steps, and the aim
/// (largest CCD / DISCRETE instruction ratio).
const CCD_AIMS: [(&str, usize, usize, f64); 7] = [
    ("crossroads", 60, 30, 1.5),
    ("crossroads_coarse", 5, 10, 1.5),
    ("boxes_64", 0, 30, 2.0),
    ("crowd_64_1", 0, 30, 1.3),
    ("crowd_64_1.8", 0, 30, 1.3),
    ("crowd_256_1", 0, 30, 1.3),
    ("crowd_256_1.8", 0, 30, 1.3),
];

/// The section of SPHERE_MESH_CCD beside DISCRETE in the same worlds.
fn ccd_beside_discrete(
    quick: bool,
    examples: &Path,
    md: &mut String,
    csv: &mut String,
) -> Result<(), String> {
    let _ = writeln!(md, "\n## SPHERE_MESH_CCD beside DISCRETE\n");
    let _ = writeln!(
        md,
        "Each world's timed steps of `benches/examples/town_profile.rs` after its warm-up steps: the town \
         crossroads of `parapet_scenes::crossroads` at 1/60 s (after 1 s) and at 1/20 s (after 0.25 s), driven \
         by its controllers; 64 tumbling boxes on 8,192 triangles (`parapet_scenes::bench_vehicles`, after its \
         1 s warm-up); crowds of 64 and 256 walkers 1 and 1.8 m apart on 8,192 triangles \
         (`parapet_scenes::bench_crowds`, steered). The aim is the largest ratio the continuous step should \
         cost.\n"
    );
    let _ = writeln!(
        md,
        "| world | steps | DISCRETE per step | SPHERE_MESH_CCD per step | ratio | aim |"
    );
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|");
    for (name, warm, steps, aim) in CCD_AIMS {
        let steps = if quick { 2 } else { steps };
        let mut per_step = Vec::new();
        for mode in ["discrete", "ccd"] {
            let exe = examples.join("town_profile");
            let args = [
                name.to_string(),
                mode.to_string(),
                warm.to_string(),
                steps.to_string(),
            ];
            let (ir, out) = callgrind(&exe, &args, "town_profile::timed_step")?;
            let stepped = out.contains(&format!("{steps} of {steps} stepped"));
            per_step.push(stepped.then_some(ir as f64 / steps as f64));
            let _ = writeln!(
                csv,
                "{name},parapet_{mode},{:.0},\"{out}\"",
                ir as f64 / steps as f64
            );
        }
        let fmt = |x: Option<f64>| x.map_or("refused".to_string(), |v| format!("{v:.0}"));
        let ratio = match (per_step[0], per_step[1]) {
            (Some(d), Some(c)) => format!("{:.2}", c / d),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            md,
            "| {name} | {steps} | {} | {} | {ratio} | {aim} |",
            fmt(per_step[0]),
            fmt(per_step[1])
        );
        eprintln!("measured {name}");
    }
    Ok(())
}

/// What `versus_profile` said about the run, without its wall-clock time (meaningless under valgrind):
/// `name engine xN: T ms per step, sunk .., crossed .., displaced .., N swept events (parapet), stepped`.
fn check_of(out: &str) -> String {
    match out.split_once(" ms per step, ") {
        Some((_, rest)) => rest.to_string(),
        None => out.to_string(),
    }
}

/// The short hash of the checked-out commit, `unknown` outside git.
fn git_commit() -> String {
    Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(workspace_root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}
