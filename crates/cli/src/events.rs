//! Events CSV (`parapet run --events`): every step's contact and sensor
//! events, in the order the world hands them over
//! ([`PhysicsWorld::drain_events`]: by time within the step, then kind,
//! then bodies), one row each under exactly the header [`EVENTS_HEADER`];
//! and its reader, for the replay page's marks ([`read_events`]).
//!
//! A row names its step (the trajectory's step whose state follows the
//! event), the instant, the kind, the two bodies by their scene names
//! (the lower body first for a contact; the sensor, then the body, for a
//! sensor event) and, for a contact, its point, normal and the normal
//! impulse applied to the second body. Every `f32` is printed with the
//! shortest digits that read back to it, as in the trajectory.

use std::io::Write;
use std::path::Path;

use parapet::prelude::*;

use crate::trajectory::number;

/// The header row.
pub const EVENTS_HEADER: [&str; 15] = [
    "step", "time", "fraction", "event", "a", "b", "x", "y", "z", "nx", "ny", "nz", "jx", "jy",
    "jz",
];

/// What a row reports (the `event` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// `contact`: a contact point of the discrete contact stage.
    Contact,
    /// `impact`: an impact found by the continuous sweep.
    Impact,
    /// `entered`: the body entered the sensor within the step.
    Entered,
    /// `crossed`: the body entered and left the sensor within the step.
    Crossed,
    /// `left`: the body left the sensor within the step.
    Left,
}

impl EventKind {
    /// Every kind, in the order of [`EventKind::name`]'s table.
    pub const ALL: [EventKind; 5] = [
        EventKind::Contact,
        EventKind::Impact,
        EventKind::Entered,
        EventKind::Crossed,
        EventKind::Left,
    ];

    /// The `event` column's word.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Contact => "contact",
            EventKind::Impact => "impact",
            EventKind::Entered => "entered",
            EventKind::Crossed => "crossed",
            EventKind::Left => "left",
        }
    }

    /// Whether it is a sensor event.
    pub fn is_sensor(self) -> bool {
        matches!(
            self,
            EventKind::Entered | EventKind::Crossed | EventKind::Left
        )
    }

    /// The row kind of a world event (`None` for a kind this file has no
    /// word for yet).
    pub fn of(event: &WorldEvent) -> Option<EventKind> {
        match event {
            WorldEvent::Contact(c) => match c.kind {
                ContactKind::Initial => Some(EventKind::Contact),
                ContactKind::Swept => Some(EventKind::Impact),
                _ => None,
            },
            WorldEvent::Sensor(s) => match s.kind {
                SensorEventKind::Entered => Some(EventKind::Entered),
                SensorEventKind::Crossed => Some(EventKind::Crossed),
                SensorEventKind::Left => Some(EventKind::Left),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Writes event rows.
#[derive(Debug)]
pub struct EventWriter<W: Write> {
    csv: csv::Writer<W>,
    dt: f32,
}

impl<W: Write> EventWriter<W> {
    /// A writer of a run stepped by `dt`; writes the header.
    ///
    /// # Errors
    /// Writing the header failed.
    pub fn new(out: W, dt: f32) -> csv::Result<Self> {
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(EVENTS_HEADER)?;
        Ok(EventWriter { csv, dt })
    }

    /// The rows of the events of step `step` (1-based: the step after which
    /// the trajectory's row `step` was observed), with `name(id)` each
    /// body's name.
    ///
    /// # Errors
    /// Writing failed.
    pub fn step(
        &mut self,
        step: u64,
        events: &[WorldEvent],
        name: &dyn Fn(BodyId) -> String,
    ) -> csv::Result<()> {
        for event in events {
            let Some(kind) = EventKind::of(event) else {
                continue;
            };
            let (a, b, fraction, contact) = match event {
                WorldEvent::Contact(c) => (c.body_a, c.body_b, c.time, Some(c)),
                WorldEvent::Sensor(s) => (s.sensor, s.body, s.time, None),
                _ => continue,
            };
            // The instant: (step - 1 + fraction) dt, in f64, rounded once.
            let time =
                ((step.saturating_sub(1) as f64 + f64::from(fraction)) * f64::from(self.dt)) as f32;
            let mut row = vec![
                step.to_string(),
                number(time),
                number(fraction),
                kind.name().to_owned(),
                name(a),
                name(b),
            ];
            match contact {
                Some(c) => row.extend(
                    [c.point, c.normal, c.normal_impulse]
                        .iter()
                        .flat_map(|v| v.iter().map(|&x| number(x))),
                ),
                None => row.extend(std::iter::repeat_n(String::new(), 9)),
            }
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

/// One row read back (what the replay page marks).
#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    /// The step it happened in (1-based).
    pub step: u64,
    /// The fraction of that step.
    pub fraction: f32,
    /// What happened.
    pub kind: EventKind,
    /// The first body's name (the sensor, for a sensor event).
    pub a: String,
    /// The second body's name.
    pub b: String,
}

/// Reads the events file at `path`.
///
/// # Errors
/// An unreadable file, a header other than [`EVENTS_HEADER`], or a field
/// that does not parse, as one line naming the file, line, column and field.
pub fn read_events(path: &Path) -> Result<Vec<EventRow>, String> {
    let file = path.display();
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| format!("{file}:0:0: (file): cannot read the events: {e}"))?;
    let header = reader
        .headers()
        .map_err(|e| format!("{file}:1:1: (header): {e}"))?
        .clone();
    if header.iter().ne(EVENTS_HEADER) {
        return Err(format!(
            "{file}:1:1: (header): expected the header `{}`",
            EVENTS_HEADER.join(",")
        ));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            format!("{file}:{line}:1: (row): {e}")
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let field = |k: usize| record.get(k).unwrap_or_default();
        let column = |k: usize| 1 + (0..k).map(|i| field(i).len() + 1).sum::<usize>();
        let bad = |k: usize, e: &dyn std::fmt::Display| {
            format!(
                "{file}:{line}:{}: {}: `{}`: {e}",
                column(k),
                EVENTS_HEADER[k],
                field(k)
            )
        };
        let step: u64 = field(0).parse().map_err(|e| bad(0, &e))?;
        let fraction: f32 = field(2).parse().map_err(|e| bad(2, &e))?;
        let kind = EventKind::ALL
            .into_iter()
            .find(|k| k.name() == field(3))
            .ok_or_else(|| bad(3, &"not an event kind"))?;
        rows.push(EventRow {
            step,
            fraction,
            kind,
            a: field(4).to_owned(),
            b: field(5).to_owned(),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A written file reads back: steps, kinds, names and fractions bit for
    /// bit; contacts carry their point, normal and impulse, sensor events
    /// empty cells.
    #[test]
    fn written_events_read_back() {
        let mut world = PhysicsWorld::new();
        let a = world
            .add_body(RigidBody::new_static(Shape::sphere(1.0).unwrap()))
            .unwrap();
        let b = world
            .add_body(RigidBody::new_static(Shape::sphere(1.0).unwrap()))
            .unwrap();
        let events = [
            WorldEvent::Contact(ContactEvent {
                body_a: a,
                body_b: b,
                point: Vec3::new(1.0 / 3.0, 0.0, -2.5),
                normal: Vec3::z(),
                normal_impulse: Vec3::new(0.0, 0.0, 0.125),
                time: 0.0,
                kind: ContactKind::Initial,
            }),
            WorldEvent::Sensor(SensorEvent {
                sensor: b,
                body: a,
                kind: SensorEventKind::Crossed,
                time: 0.47137678,
            }),
        ];
        let name = |id: BodyId| if id == a { "a, \"q\"" } else { "b" }.to_owned();
        let mut writer = EventWriter::new(Vec::new(), 0.01).unwrap();
        writer.step(3, &events, &name).unwrap();
        let bytes = writer.finish().unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], EVENTS_HEADER.join(","));
        assert_eq!(
            lines[1],
            "3,0.02,0,contact,\"a, \"\"q\"\"\",b,0.33333334,0,-2.5,0,0,1,0,0,0.125"
        );
        // (2 + 0.47137678) * 0.01 s, rounded to f32 once.
        assert_eq!(
            lines[2],
            "3,0.024713768,0.47137678,crossed,b,\"a, \"\"q\"\"\",,,,,,,,,"
        );
        let dir = std::env::temp_dir().join(format!("parapet-events-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("e.csv");
        std::fs::write(&path, &text).unwrap();
        let rows = read_events(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[1].kind, rows[1].step), (EventKind::Crossed, 3));
        assert_eq!(rows[1].fraction.to_bits(), 0.47137678f32.to_bits());
        assert_eq!((rows[0].a.as_str(), rows[0].b.as_str()), ("a, \"q\"", "b"));
    }
}
