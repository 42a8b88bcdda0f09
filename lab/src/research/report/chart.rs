//! The `compare --svg` chart, drawn with plotters' SVG backend: total nodes
//! against depth per back end on a log axis, and beside it the same figures
//! divided by the baseline's (small differences vanish on a log axis).

use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// One back end's line: (depth, total nodes) points in depth order.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(u32, u64)>,
}

const SIZE: (u32, u32) = (1100, 500);

/// Distinct, print-safe line colours (the "tab10" set), cycled.
const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// The chart as SVG text. `baseline` indexes the series the right panel
/// divides by.
pub fn nodes_chart(title: &str, series: &[Series], baseline: usize) -> Result<String, String> {
    let axes = Axes {
        x: "depth",
        nodes: "total nodes",
    };
    nodes_chart_over(title, axes, series, baseline)
}

/// What the axes of a chart show.
#[derive(Copy, Clone, Debug)]
pub struct Axes<'a> {
    /// The x axis, such as depth or interval width.
    pub x: &'a str,
    /// What the node counts are, such as total nodes.
    pub nodes: &'a str,
}

/// The same chart over another x axis and another kind of node count.
pub fn nodes_chart_over(
    title: &str,
    axes: Axes,
    series: &[Series],
    baseline: usize,
) -> Result<String, String> {
    if series.is_empty() || series.iter().all(|s| s.points.is_empty()) {
        return Err("nothing to plot".into());
    }
    let mut svg = String::new();
    draw(&mut svg, title, axes, series, baseline)
        .map_err(|e| format!("cannot draw the chart: {e}"))?;
    Ok(svg)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;
type Panel<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// The x axis both panels share: the range of x values and how many labels.
struct XAxis {
    range: Range<u32>,
    labels: usize,
}

impl XAxis {
    fn of(series: &[Series]) -> XAxis {
        let xs = || series.iter().flat_map(|s| &s.points).map(|p| p.0);
        let (lo, hi) = (xs().min().unwrap_or(1), xs().max().unwrap_or(1));
        let mut distinct: Vec<u32> = xs().collect();
        distinct.sort_unstable();
        distinct.dedup();
        XAxis {
            range: lo..hi.max(lo + 1),
            labels: distinct.len().clamp(2, 20),
        }
    }
}

fn draw(
    svg: &mut String,
    title: &str,
    axes: Axes,
    series: &[Series],
    baseline: usize,
) -> DrawResult {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 20))?;
    let (left, right) = root.split_horizontally(SIZE.0 / 2);
    let x = XAxis::of(series);
    draw_nodes(&left, axes, series, &x)?;
    draw_relative(&right, axes, series, baseline, &x)?;
    root.present()?;
    Ok(())
}

/// The left panel: each series' nodes on a log axis, with a legend.
fn draw_nodes(area: &Panel, axes: Axes, series: &[Series], x: &XAxis) -> DrawResult {
    let nodes = series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| p.1.max(1) as f64);
    let (lo, hi) = nodes.fold((f64::MAX, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{} (log scale)", axes.nodes), ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(70)
        .build_cartesian_2d(x.range.clone(), (lo / 1.5..hi * 1.5).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(axes.x)
        .y_desc("nodes")
        .x_labels(x.labels)
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let color = color(i);
        let points = s.points.iter().map(|&(d, n)| (d, n.max(1) as f64));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)).point_size(3))?
            .label(&s.name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// The right panel: each series' nodes divided by the baseline's, on a
/// linear axis.
fn draw_relative(
    area: &Panel,
    axes: Axes,
    series: &[Series],
    baseline: usize,
    x: &XAxis,
) -> DrawResult {
    let base = &series[baseline.min(series.len() - 1)];
    let relative: Vec<Vec<(u32, f64)>> = series.iter().map(|s| relative_points(s, base)).collect();
    let (rlo, rhi) = relative
        .iter()
        .flatten()
        .fold((1.0f64, 1.0f64), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
    let pad = ((rhi - rlo) * 0.1).max(0.05);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("nodes relative to {}", base.name),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(x.range.clone(), (rlo - pad).max(0.0)..rhi + pad)?;
    chart
        .configure_mesh()
        .x_desc(axes.x)
        .y_desc("nodes / baseline")
        .x_labels(x.labels)
        .y_label_formatter(&|v| format!("{v:.2}"))
        .draw()?;
    for (i, points) in relative.into_iter().enumerate() {
        let color = color(i);
        chart.draw_series(LineSeries::new(points, color.stroke_width(2)).point_size(3))?;
    }
    Ok(())
}

/// `s`'s nodes divided by `base`'s at the depths both have (base > 0).
fn relative_points(s: &Series, base: &Series) -> Vec<(u32, f64)> {
    s.points
        .iter()
        .filter_map(|&(d, n)| {
            let b = base.points.iter().find(|p| p.0 == d)?.1;
            (b > 0).then(|| (d, n as f64 / b as f64))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(name: &str, nodes: &[u64]) -> Series {
        Series {
            name: name.into(),
            points: nodes
                .iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1, n))
                .collect(),
        }
    }

    #[test]
    fn the_chart_is_svg_with_a_legend() {
        let s = [
            series("AlphaBeta", &[20, 400, 9000]),
            series("MTDf", &[20, 350, 7000]),
        ];
        let svg = nodes_chart("test chart", &s, 0).unwrap();
        assert!(
            svg.trim_start().starts_with("<svg") || svg.starts_with("<?xml"),
            "{}",
            &svg[..80]
        );
        assert!(svg.contains("AlphaBeta") && svg.contains("MTDf") && svg.contains("test chart"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn one_depth_zero_nodes_and_no_data_do_not_panic() {
        assert!(nodes_chart("d1", &[series("A", &[0])], 0).is_ok());
        assert!(nodes_chart("d1", &[series("A", &[5]), series("B", &[0])], 1).is_ok());
        assert!(nodes_chart("none", &[], 0).is_err());
        assert!(nodes_chart("none", &[series("A", &[])], 0).is_err());
    }

    #[test]
    fn relative_points_skip_missing_and_zero_baselines() {
        let a = series("A", &[10, 30]);
        let b = series("B", &[0]);
        assert_eq!(relative_points(&a, &a), vec![(1, 1.0), (2, 1.0)]);
        assert!(relative_points(&a, &b).is_empty());
    }
}
