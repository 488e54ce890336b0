//! The report's SVG plots (plotters, SVG backend): the CCD/discrete ratio
//! per scene (median with the min-max of the per-pair ratios as a bar) and
//! step time against size on log-log axes, one curve per mode.

use std::path::Path;

use plotters::prelude::*;

/// The ratio per scene as points with min-max bars and the aim as a line.
pub fn ratios(path: &Path, points: &[(String, (f64, f64, f64))], aim: f64) -> Result<(), String> {
    let root = SVGBackend::new(path, (1150, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let hi = points.iter().map(|p| p.1 .2).fold(aim, f64::max) * 1.4;
    let lo = points.iter().map(|p| p.1 .1).fold(aim, f64::min) * 0.7;
    let n = points.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "CCD step / discrete step per scene (median, min-max; log scale)",
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, (lo..hi).log_scale())
        .map_err(|e| e.to_string())?;
    let names: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc("CCD / discrete")
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new(
            vec![(-0.5, aim), (n as f64 - 0.5, aim)],
            RED.stroke_width(1),
        ))
        .map_err(|e| e.to_string())?
        .label(format!("aim {aim}"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    for (i, (_, (m, lo, hi))) in points.iter().enumerate() {
        let x = i as f64;
        chart
            .draw_series(LineSeries::new(
                vec![(x, *lo), (x, *hi)],
                BLUE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(Circle::new((x, *m), 5, BLUE.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// Median step time (ns) against `unit` on log-log axes, one curve per mode.
pub fn log_log(
    path: &Path,
    unit: &str,
    curves: &[(String, Vec<(f64, f64)>)],
) -> Result<(), String> {
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let all: Vec<(f64, f64)> = curves.iter().flat_map(|c| c.1.iter().copied()).collect();
    if all.is_empty() {
        return root.present().map_err(|e| e.to_string());
    }
    let (x0, x1) = all
        .iter()
        .fold((f64::INFINITY, 0.0f64), |a, p| (a.0.min(p.0), a.1.max(p.0)));
    let (y0, y1) = all
        .iter()
        .fold((f64::INFINITY, 0.0f64), |a, p| (a.0.min(p.1), a.1.max(p.1)));
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("step time against {unit} (log-log)"),
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (x0 * 0.7..x1 * 1.4).log_scale(),
            (y0 / 1e3 * 0.7..y1 / 1e3 * 1.4).log_scale(),
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(unit)
        .y_desc("step (µs)")
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, (mode, pts)) in curves.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let us: Vec<(f64, f64)> = pts.iter().map(|(x, y)| (*x, y / 1e3)).collect();
        chart
            .draw_series(LineSeries::new(us.clone(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(mode.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        chart
            .draw_series(us.iter().map(|p| Circle::new(*p, 4, color.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
