//! The run plot: the position of every moving body over time, one panel per
//! coordinate (x, y, z), one line per body, as SVG (plotters' SVG backend).
//! Static bodies never move and are left out.

use std::path::Path;

use plotters::prelude::*;

use crate::run::BodyState;

/// Bodies beyond this many are drawn without a legend entry (the legend
/// would cover the panel).
pub const LEGEND_LIMIT: usize = 12;

/// The recorded positions of a run: per frame, the time and the positions
/// of the plotted bodies.
#[derive(Debug, Clone, Default)]
pub struct PositionSeries {
    /// Names of the plotted bodies.
    pub names: Vec<String>,
    /// Indices (into a frame's states) of the plotted bodies.
    pub bodies: Vec<usize>,
    /// Per frame: time (s) and `[x, y, z]` of each plotted body.
    pub frames: Vec<(f32, Vec<[f32; 3]>)>,
}

impl PositionSeries {
    /// A series of the bodies whose `moving[i]` is true.
    pub fn new(names: &[String], moving: &[bool]) -> Self {
        let bodies: Vec<usize> = (0..names.len())
            .filter(|&i| moving.get(i).copied().unwrap_or(true))
            .collect();
        PositionSeries {
            names: bodies.iter().map(|&i| names[i].clone()).collect(),
            bodies,
            frames: Vec::new(),
        }
    }

    /// Records one frame.
    pub fn push(&mut self, time: f32, states: &[BodyState]) {
        let positions = self
            .bodies
            .iter()
            .filter_map(|&i| states.get(i))
            .map(|s| [s.position.x, s.position.y, s.position.z])
            .collect();
        self.frames.push((time, positions));
    }
}

/// Writes the plot of `series` to `path`, titled `title`.
///
/// # Errors
/// plotters' drawing or file error, as a message.
pub fn plot_positions(path: &Path, title: &str, series: &PositionSeries) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 900)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(
            &format!("{title}: body positions over time"),
            ("sans-serif", 20),
        )
        .map_err(|e| err(&e))?;
    let panels = root.split_evenly((3, 1));
    let t_end = series
        .frames
        .last()
        .map_or(1.0, |f| f64::from(f.0))
        .max(f64::MIN_POSITIVE);
    for (axis, panel) in panels.iter().enumerate() {
        let values = series
            .frames
            .iter()
            .flat_map(|(_, p)| p.iter().map(move |v| f64::from(v[axis])))
            .filter(|v| v.is_finite());
        let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
        let (low, high) = if low <= high { (low, high) } else { (0.0, 1.0) };
        // A constant coordinate still gets a readable axis: 1 cm either side.
        let pad = (0.05 * (high - low)).max(1e-2);
        let mut chart = ChartBuilder::on(panel)
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..t_end, (low - pad)..(high + pad))
            .map_err(|e| err(&e))?;
        let name = ["x", "y", "z"][axis];
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc(format!("{name} (m)"))
            .draw()
            .map_err(|e| err(&e))?;
        for (k, body) in series.names.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let points = series
                .frames
                .iter()
                .filter_map(|(t, p)| p.get(k).map(|v| (f64::from(*t), f64::from(v[axis]))))
                .filter(|(_, v)| v.is_finite());
            let drawn = chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(|e| err(&e))?;
            if series.names.len() <= LEGEND_LIMIT {
                drawn.label(body.as_str()).legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
            }
        }
        if !series.names.is_empty() && series.names.len() <= LEGEND_LIMIT {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}
