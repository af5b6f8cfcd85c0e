//! Plots of a campaign over its time, as inline SVG: the report is one self-contained
//! file that any browser shows without a plotting library or a network.

use crate::util::markup::escape;
use std::fmt::Write;

/// One line of a chart.
pub struct Series {
    pub name: String,
    pub color: &'static str,
    /// (x, y) in data units, x increasing.
    pub points: Vec<(f64, f64)>,
}

/// Colours in the order series get them (readable on white, told apart in grey too).
pub const PALETTE: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

/// A fixed colour per solver outcome, so every solver's chart reads the same way.
pub fn outcome_color(name: &str) -> &'static str {
    match name {
        "sat" => "#2ca02c",
        "unsat" => "#1f77b4",
        "unknown" => "#7f7f7f",
        "timeout" => "#ff7f0e",
        "error" => "#9467bd",
        "crash" => "#d62728",
        "invalid-model" => "#e377c2",
        _ => "#8c564b",
    }
}

/// Rounds `v` up to 1, 2 or 5 times a power of ten: an axis end a person reads at once.
fn nice(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|&m| m >= v * 0.999_999).unwrap_or(10.0 * p)
}

/// A line chart of `series` against campaign seconds: `step` draws each series as a
/// staircase (counts that change at events), otherwise points are joined. Axes start at
/// 0; a chart with no points says so instead of drawing empty axes.
pub fn chart(title: &str, y_label: &str, series: &[Series], step: bool, width: f64) -> String {
    let (h, left, right, top, bottom) = (230.0, 52.0, 130.0, 26.0, 34.0);
    let all = series.iter().flat_map(|s| s.points.iter());
    let (xmax, ymax) = all.fold((0.0f64, 0.0f64), |(x, y), p| (x.max(p.0), y.max(p.1)));
    let (xmax, ymax) = (nice(xmax), nice(ymax));
    let x = |t: f64| left + (width - left - right) * (t / xmax).clamp(0.0, 1.0);
    let y = |v: f64| h - bottom - (h - top - bottom) * (v / ymax).clamp(0.0, 1.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{width}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\"><title>{t}</title>\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
<text x=\"{left}\" y=\"15\" font-weight=\"bold\">{t}</text>",
        t = escape(title)
    );
    // Axes, three ticks each, light grid lines.
    for i in 0..=2 {
        let (fx, fy) = (xmax * i as f64 / 2.0, ymax * i as f64 / 2.0);
        let _ = write!(
            s,
            "<line x1=\"{l}\" y1=\"{yy:.1}\" x2=\"{r}\" y2=\"{yy:.1}\" stroke=\"#e5e5e5\"/>\
<text x=\"{lx}\" y=\"{ty:.1}\" text-anchor=\"end\">{fy}</text>\
<text x=\"{xx:.1}\" y=\"{bx}\" text-anchor=\"middle\">{fx} s</text>",
            l = left,
            r = width - right,
            yy = y(fy),
            lx = left - 4.0,
            ty = y(fy) + 4.0,
            xx = x(fx),
            bx = h - bottom + 14.0,
            fy = short(fy),
            fx = short(fx),
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{left}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"black\"/><line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{b}\" stroke=\"black\"/>\
<text x=\"12\" y=\"{my}\" transform=\"rotate(-90 12 {my})\" text-anchor=\"middle\">{yl}</text>\
<text x=\"{mx}\" y=\"{bt}\" text-anchor=\"middle\">campaign time</text>",
        b = h - bottom,
        r = width - right,
        my = (h - bottom + top) / 2.0,
        yl = escape(y_label),
        mx = (left + width - right) / 2.0,
        bt = h - 4.0,
    );
    let mut drawn = 0;
    for (i, ser) in series.iter().enumerate() {
        if ser.points.is_empty() {
            continue;
        }
        let mut d = String::new();
        let mut prev: Option<(f64, f64)> = None;
        for &(px, py) in &ser.points {
            match prev {
                None => {
                    let _ = write!(d, "M{:.1},{:.1}", x(px), y(py));
                }
                Some((_, qy)) if step => {
                    let _ = write!(d, " L{:.1},{:.1} L{:.1},{:.1}", x(px), y(qy), x(px), y(py));
                }
                Some(_) => {
                    let _ = write!(d, " L{:.1},{:.1}", x(px), y(py));
                }
            }
            prev = Some((px, py));
        }
        let _ = write!(
            s,
            "<path d=\"{d}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"/>\
<rect x=\"{lx}\" y=\"{ly:.1}\" width=\"10\" height=\"10\" fill=\"{c}\"/><text x=\"{tx}\" y=\"{ty:.1}\">{n}</text>",
            c = ser.color,
            lx = width - right + 10.0,
            ly = top + 14.0 * i as f64,
            tx = width - right + 24.0,
            ty = top + 14.0 * i as f64 + 9.0,
            n = escape(&ser.name),
        );
        drawn += 1;
    }
    if drawn == 0 {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#777\">nothing recorded yet</text>",
            width / 2.0,
            h / 2.0
        );
    }
    s.push_str("</svg>");
    s
}

/// An axis number without noise: 1200 → `1200`, 0.25 → `0.25`, 1.5e6 → `1.5M`.
fn short(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{}k", v / 1e3)
    } else {
        format!("{}", (v * 1000.0).round() / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_end_on_round_numbers_and_empty_charts_say_so() {
        assert_eq!([nice(0.0), nice(3.0), nice(7.5), nice(10.0), nice(1234.0)], [1.0, 5.0, 10.0, 10.0, 2000.0]);
        let empty = chart("t", "y", &[], true, 400.0);
        assert!(empty.contains("nothing recorded yet") && !empty.contains("<path"));
        let one = Series { name: "a<b".into(), color: PALETTE[0], points: vec![(0.0, 0.0), (5.0, 2.0), (9.0, 3.0)] };
        let svg = chart("bugs & time", "bugs", &[one], true, 400.0);
        assert!(svg.contains("bugs &amp; time") && svg.contains("a&lt;b") && svg.matches("<path").count() == 1);
        assert!(svg.contains(">10 s<") && svg.contains(">5<"), "x axis to 10 s, y axis to 5: {svg}");
    }
}
