//! Cactus plots (SVG, self-contained): for each solver, its runtimes on the produced
//! benchmarks sorted ascending against the number of benchmarks solved — the usual way
//! to compare solvers over a benchmark set (SAT/SMT competitions). A curve further right
//! and lower is the faster solver; BanditFuzz's targets should lie above the references.

use super::{perf_in, PerfMeta};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// Per solver, its CPU seconds on each benchmark it solved within the timeout, using the
/// final (median) scores where the benchmark was re-scored. A reference run under a
/// dynamic limit below the timeout counts when it answered (it would have answered under
/// the full timeout too); one the dynamic limit cut off is left out, its time unknown.
pub fn series(perf: &[PerfMeta]) -> BTreeMap<String, Vec<f64>> {
    let mut s: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for m in perf {
        if !m.final_par2.is_empty() {
            for (solver, p) in &m.final_par2 {
                let e = s.entry(solver.clone()).or_default();
                if *p < 2.0 * m.timeout {
                    e.push(*p);
                }
            }
        } else {
            for t in &m.timings {
                let e = s.entry(t.solver.clone()).or_default();
                if t.par2(m.timeout) < 2.0 * m.timeout {
                    e.push(t.cpu);
                }
            }
        }
    }
    for v in s.values_mut() {
        v.sort_by(f64::total_cmp);
    }
    s
}

pub fn series_from_perf(out: &Path) -> BTreeMap<String, Vec<f64>> {
    series(&perf_in(out))
}

const COLORS: [&str; 6] = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

/// The plot; `timeout` bounds the y axis.
pub fn cactus(series: &BTreeMap<String, Vec<f64>>, timeout: f64) -> String {
    let (w, h, l, b) = (640.0, 400.0, 60.0, 40.0);
    let n = series.values().map(Vec::len).max().unwrap_or(0).max(1) as f64;
    let ymax = series.values().flatten().copied().fold(0.0f64, f64::max).max(1e-3).min(timeout.max(1e-3));
    let x = |i: f64| l + (w - l - 20.0) * i / n;
    let y = |t: f64| h - b - (h - b - 20.0) * (t / ymax).min(1.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <line x1=\"{l}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<line x1=\"{l}\" y1=\"20\" x2=\"{l}\" y2=\"{}\" stroke=\"black\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">benchmarks solved</text>\n\
         <text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">CPU seconds</text>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"24\" text-anchor=\"end\">{ymax:.3}</text>\n",
        h - b,
        w - 20.0,
        h - b,
        h - b,
        (w + l) / 2.0,
        h - 8.0,
        h / 2.0,
        h / 2.0,
        w - 20.0,
        h - b + 16.0,
        n as usize,
        l - 4.0,
    );
    for (k, (name, v)) in series.iter().enumerate() {
        let c = COLORS[k % COLORS.len()];
        let pts: Vec<String> =
            v.iter().enumerate().map(|(i, &t)| format!("{:.1},{:.1}", x(i as f64 + 1.0), y(t))).collect();
        if !pts.is_empty() {
            let _ =
                writeln!(s, "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\"/>", pts.join(" "));
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" fill=\"{c}\">{} ({} solved)</text>",
            l + 10.0,
            36.0 + 16.0 * k as f64,
            crate::util::markup::escape(name),
            v.len()
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    /// A solver's name in the legend shows as itself: `<` and `&` escaped once each (the
    /// plot once wrote `a<b` as `a&amp;lt;b`).
    #[test]
    fn legend_names_are_escaped_once() {
        let series = std::collections::BTreeMap::from([("a<b&c".to_string(), vec![0.5, 1.0])]);
        let svg = super::cactus(&series, 2.0);
        assert!(svg.contains(">a&lt;b&amp;c (2 solved)</text>"), "{svg}");
        assert!(!svg.contains("&amp;lt;"), "{svg}");
    }
}
