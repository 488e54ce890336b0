//! Trajectory CSV: one row per body per observed step, step 0 the initial
//! state, under exactly the header [`HEADER`]. Every `f32` is printed with
//! the shortest digits that read back to it ([`number`]), so a
//! trajectory is an exact record and two runs that agree bit for bit write
//! identical files.

use std::io::Write;
use std::path::Path;

use parapet::math::nalgebra::{Quaternion, Unit};
use parapet::prelude::*;

use crate::run::{step_time, BodyState};

/// The header row (`sleeping`: 1 for a sleeping body, else 0).
pub const HEADER: [&str; 18] = [
    "step", "time", "body", "name", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx",
    "wy", "wz", "sleeping",
];

/// The shortest digits that read back to `value` (Rust's shortest
/// round-trip printing), positional between 1e-4 and 1e9 and in exponent
/// form outside (`9.0277966e-36`, not 36 zeros).
pub fn number(value: f32) -> String {
    if value == 0.0 || (1e-4..1e9).contains(&value.abs()) || !value.is_finite() {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

/// Writes trajectory rows.
#[derive(Debug)]
pub struct TrajectoryWriter<W: Write> {
    csv: csv::Writer<W>,
    dt: f32,
}

impl<W: Write> TrajectoryWriter<W> {
    /// A writer of a run stepped by `dt`; writes the header.
    ///
    /// # Errors
    /// Writing the header failed.
    pub fn new(out: W, dt: f32) -> csv::Result<Self> {
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(HEADER)?;
        Ok(TrajectoryWriter { csv, dt })
    }

    /// The rows of step `step`: one per body, `names[i]` for `states[i]`.
    ///
    /// # Errors
    /// Writing failed.
    pub fn frame(&mut self, step: u64, names: &[String], states: &[BodyState]) -> csv::Result<()> {
        let time = number(step_time(step, self.dt));
        let step = step.to_string();
        for (i, (name, s)) in names.iter().zip(states).enumerate() {
            let q = s.rotation.quaternion();
            let mut row = vec![step.clone(), time.clone(), i.to_string(), name.clone()];
            let values = [
                s.position.x,
                s.position.y,
                s.position.z,
                q.w,
                q.i,
                q.j,
                q.k,
                s.linear_velocity.x,
                s.linear_velocity.y,
                s.linear_velocity.z,
                s.angular_velocity.x,
                s.angular_velocity.y,
                s.angular_velocity.z,
            ];
            row.extend(values.iter().map(|&v| number(v)));
            row.push(u8::from(s.sleeping).to_string());
            self.csv.write_record(&row)?;
        }
        Ok(())
    }

    /// Flushes and returns the output.
    ///
    /// # Errors
    /// Flushing failed.
    pub fn finish(self) -> Result<W, String> {
        self.csv.into_inner().map_err(|e| e.to_string())
    }
}

/// A trajectory read back: the frames in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trajectory {
    /// Body names, by body index.
    pub names: Vec<String>,
    /// Step numbers, one per frame.
    pub steps: Vec<u64>,
    /// Times (s), one per frame.
    pub times: Vec<f32>,
    /// Per frame, the state of every body, by body index.
    pub states: Vec<Vec<BodyState>>,
}

/// Why a trajectory file was refused: one line naming the file, the line,
/// the column (bytes, 1-based) and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {field}: {message}")]
pub struct TrajectoryError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when the file could not be read).
    pub line: u64,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// The column's header name, or `(file)`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// Reads the trajectory at `path`.
///
/// # Errors
/// An unreadable file, a header other than [`HEADER`], a field that does not
/// parse, frames whose body lists differ.
pub fn read_trajectory(path: &Path) -> Result<Trajectory, TrajectoryError> {
    let file = path.display().to_string();
    let refuse = |line: u64, column: usize, field: &str, message: String| TrajectoryError {
        file: file.clone(),
        line,
        column,
        field: field.to_owned(),
        message: crate::scene::one_line(&message),
    };
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| refuse(0, 0, "(file)", format!("cannot read the trajectory: {e}")))?;
    let header = reader
        .headers()
        .map_err(|e| refuse(1, 1, "(header)", e.to_string()))?
        .clone();
    // A trajectory written before sleeping existed lacks the last column:
    // read as awake throughout.
    let with_sleep = header.iter().eq(HEADER);
    if !with_sleep && header.iter().ne(HEADER[..17].iter().copied()) {
        return Err(refuse(
            1,
            1,
            "(header)",
            format!("expected the header `{}`", HEADER.join(",")),
        ));
    }
    let mut trajectory = Trajectory::default();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            refuse(line, 1, "(row)", e.to_string())
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let mut numbers = [0f32; 13];
        for (k, value) in numbers.iter_mut().enumerate() {
            *value = parse_field(&record, 4 + k, line, &refuse)?;
        }
        let step: u64 = parse_field(&record, 0, line, &refuse)?;
        let time: f32 = parse_field(&record, 1, line, &refuse)?;
        let body: usize = parse_field(&record, 2, line, &refuse)?;
        let name = record.get(3).unwrap_or_default();
        let sleeping = with_sleep && parse_field::<u8>(&record, 17, line, &refuse)? != 0;
        add_row(
            &mut trajectory,
            step,
            time,
            body,
            name,
            (&numbers, sleeping),
        )
        .map_err(|message| refuse(line, column_of(&record, 2), "body", message))?;
    }
    complete(&trajectory).map_err(|message| refuse(0, 0, "body", message))?;
    Ok(trajectory)
}

/// The 1-based byte column of field `index` of an unquoted row.
fn column_of(record: &csv::StringRecord, index: usize) -> usize {
    1 + record
        .iter()
        .take(index)
        .map(|f| f.len() + 1)
        .sum::<usize>()
}

fn parse_field<T: std::str::FromStr>(
    record: &csv::StringRecord,
    index: usize,
    line: u64,
    refuse: &dyn Fn(u64, usize, &str, String) -> TrajectoryError,
) -> Result<T, TrajectoryError>
where
    T::Err: std::fmt::Display,
{
    let text = record.get(index).unwrap_or_default();
    text.parse().map_err(|e| {
        refuse(
            line,
            column_of(record, index),
            HEADER[index],
            format!("`{text}`: {e}"),
        )
    })
}

fn add_row(
    trajectory: &mut Trajectory,
    step: u64,
    time: f32,
    body: usize,
    name: &str,
    (v, sleeping): (&[f32; 13], bool),
) -> Result<(), String> {
    if body == 0 {
        complete(trajectory)?;
        trajectory.steps.push(step);
        trajectory.times.push(time);
        trajectory.states.push(Vec::new());
    }
    let first_frame = trajectory.states.len() == 1;
    let Some(frame) = trajectory.states.last_mut() else {
        return Err("the first row of a frame must be body 0".to_owned());
    };
    if body != frame.len() || trajectory.steps.last() != Some(&step) {
        return Err(format!(
            "body {body} of step {step} out of order (rows go body 0, 1, ... within a step)"
        ));
    }
    if first_frame {
        trajectory.names.push(name.to_owned());
    } else if trajectory.names.get(body).map(String::as_str) != Some(name) {
        return Err(format!(
            "body {body} is `{name}` here but was `{}` at step 0",
            trajectory.names.get(body).map_or("(none)", String::as_str)
        ));
    }
    frame.push(BodyState {
        position: Vec3::new(v[0], v[1], v[2]),
        rotation: Unit::new_unchecked(Quaternion::new(v[3], v[4], v[5], v[6])),
        linear_velocity: Vec3::new(v[7], v[8], v[9]),
        angular_velocity: Vec3::new(v[10], v[11], v[12]),
        sleeping,
    });
    Ok(())
}

/// Checks that the last frame has every body of the first.
fn complete(trajectory: &Trajectory) -> Result<(), String> {
    match trajectory.states.last() {
        Some(frame) if frame.len() != trajectory.names.len() => Err(format!(
            "step {} has {} bodies, step 0 has {}",
            trajectory.steps.last().copied().unwrap_or_default(),
            frame.len(),
            trajectory.names.len()
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_trajectory_reads_back_bit_for_bit() {
        let state = |k: f32| BodyState {
            position: Vec3::new(1.0 / 3.0 + k, -0.0, 1e-30),
            rotation: Unit::new_normalize(Quaternion::new(0.9, 0.1 * k, 0.2, 0.3)),
            linear_velocity: Vec3::new(f32::MAX, f32::MIN_POSITIVE, k),
            angular_velocity: Vec3::new(f32::from_bits(1), 2.5, -7.0),
            sleeping: k > 5.0,
        };
        let names = vec!["a".to_owned(), "b, \"quoted\"".to_owned()];
        let frames: Vec<Vec<BodyState>> = (0..3)
            .map(|s| vec![state(s as f32), state(10.0 + s as f32)])
            .collect();
        let dir = std::env::temp_dir().join(format!("parapet-trajectory-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join("t.csv");
        let mut writer = TrajectoryWriter::new(std::fs::File::create(&path).expect("create"), 0.01)
            .expect("header");
        for (step, states) in frames.iter().enumerate() {
            writer.frame(step as u64, &names, states).expect("rows");
        }
        writer.finish().expect("flush");
        let read = read_trajectory(&path).expect("reads back");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read.names, names);
        assert_eq!(read.steps, [0, 1, 2]);
        let bits = |s: &BodyState| {
            let q = s.rotation.quaternion();
            [s.position, s.linear_velocity, s.angular_velocity]
                .iter()
                .flat_map(|v| v.iter().copied())
                .chain([q.w, q.i, q.j, q.k])
                .map(f32::to_bits)
                .collect::<Vec<u32>>()
        };
        for (a, b) in read.states.iter().flatten().zip(frames.iter().flatten()) {
            assert_eq!(bits(a), bits(b));
            assert_eq!(a.sleeping, b.sleeping);
        }
    }
}
