//! Line charts of experiment results, written as SVG and PNG (plotters).
//!
//! plotters lays text out with a TrueType font for both formats (the PNG also rasterizes it):
//! `RADIOFLOW_FONT`, else the first of [`FONT_PATHS`] that exists (Debian: `apt-get install
//! fonts-dejavu-core`). Without one, [`line_chart`] draws nothing and says why.

use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where a TrueType font for PNG text is looked for.
pub const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
];

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Chart<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// X axis label.
    pub x_label: &'a str,
    /// Y axis label.
    pub y_label: &'a str,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// The lines.
    pub series: &'a [Series],
}

/// The files [`line_chart`] wrote.
#[derive(Clone, Debug)]
pub struct Written {
    /// The SVG file.
    pub svg: PathBuf,
    /// The PNG file.
    pub png: PathBuf,
}

/// Registers a font for plotters once; `false` if none was found.
fn png_font() -> bool {
    static FONT: OnceLock<bool> = OnceLock::new();
    *FONT.get_or_init(|| {
        let env = std::env::var("RADIOFLOW_FONT").ok();
        let candidates = env
            .iter()
            .map(String::as_str)
            .chain(FONT_PATHS.iter().copied());
        for path in candidates {
            if let Ok(bytes) = std::fs::read(path) {
                // plotters keeps the font for the life of the process.
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

/// Writes `stem.svg` and `stem.png` with the chart.
///
/// # Errors
/// No font (see the module docs), a file cannot be written, or nothing to draw.
pub fn line_chart(stem: &Path, chart: &Chart<'_>) -> Result<Written, String> {
    if !png_font() {
        return Err(
            "no TrueType font for the plots (apt-get install fonts-dejavu-core, or set \
             RADIOFLOW_FONT)"
                .into(),
        );
    }
    let (svg, png) = (stem.with_extension("svg"), stem.with_extension("png"));
    draw(SVGBackend::new(&svg, (900, 560)).into_drawing_area(), chart)?;
    draw(
        BitMapBackend::new(&png, (900, 560)).into_drawing_area(),
        chart,
    )?;
    Ok(Written { svg, png })
}

fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    c: &Chart<'_>,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let points = || {
        c.series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| p.0.is_finite() && p.1.is_finite() && (!c.log_x || p.0 > 0.0))
    };
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points() {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if x0 > x1 {
        return Err("nothing to plot".into());
    }
    if x0 == x1 {
        (x0, x1) = (x0 * 0.5, x1 * 1.5 + 1.0);
    }
    let pad = ((y1 - y0) * 0.08).max(1e-9);
    let (y0, y1) = ((y0 - pad).min(0.0), y1 + pad);
    area.fill(&WHITE).map_err(|e| err(&e))?;
    let mut builder = ChartBuilder::on(&area);
    builder
        .caption(c.title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64);
    let colors = [
        &BLUE,
        &RED,
        &GREEN,
        &MAGENTA,
        &CYAN,
        &BLACK,
        &RGBColor(230, 140, 0),
    ];
    macro_rules! body {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(c.x_label)
                .y_desc(c.y_label)
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(|e| err(&e))?;
            for (i, s) in c.series.iter().enumerate() {
                let color = colors[i % colors.len()];
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .copied()
                    .filter(|p| p.0.is_finite() && p.1.is_finite() && (!c.log_x || p.0 > 0.0))
                    .collect();
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .map_err(|e| err(&e))?
                    .label(s.label.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(|e| err(&e))?;
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()
                .map_err(|e| err(&e))?;
        }};
    }
    if c.log_x {
        body!(builder
            .build_cartesian_2d((x0..x1).log_scale(), y0..y1)
            .map_err(|e| err(&e))?);
    } else {
        body!(builder
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| err(&e))?);
    }
    area.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_an_svg_with_the_labels_and_a_png() {
        if !png_font() {
            eprintln!("no font here: plots cannot be drawn; skipping");
            return;
        }
        let dir = std::env::temp_dir().join(format!("rf-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let series = [
            Series {
                label: "one".into(),
                points: vec![(1.0, 1.0), (10.0, 0.5), (100.0, 0.2)],
            },
            Series {
                label: "two".into(),
                points: vec![(1.0, 1.0), (10.0, 0.9), (100.0, f64::NAN)],
            },
        ];
        let w = line_chart(
            &dir.join("chart"),
            &Chart {
                title: "quality",
                x_label: "work",
                y_label: "delivered / required",
                log_x: true,
                series: &series,
            },
        )
        .unwrap();
        let svg = std::fs::read_to_string(w.svg).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("quality") && svg.contains("two"));
        let bytes = std::fs::read(w.png).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        assert!(line_chart(
            &dir.join("empty"),
            &Chart {
                title: "",
                x_label: "",
                y_label: "",
                log_x: false,
                series: &[],
            }
        )
        .is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
