//! `smtstorm parse`: parse (and optionally sort-check) files, report acceptance,
//! round-trip fidelity and throughput. This is the front end's benchmark.

use crate::smtlib::{self, check};
use crate::util::error::Result;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// A file the parser rejected, with where and why.
#[derive(Debug, Clone, Serialize)]
pub struct Rejected {
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub reason: String,
}

/// A file that parsed but did not check clean: its first diagnostics.
#[derive(Debug, Clone, Serialize)]
pub struct Unclean {
    pub path: String,
    pub diagnostics: Vec<String>,
}

/// The report printed by `smtstorm parse --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ParseReport {
    pub files: usize,
    pub accepted: usize,
    pub rejected: Vec<Rejected>,
    pub bytes: u64,
    /// Parse time (and check time, with `--check`) of all files, single thread, files
    /// already in memory. Round-trip verification is timed separately.
    pub seconds: f64,
    pub mb_per_s: f64,
    pub parse_seconds: f64,
    pub parse_mb_per_s: f64,
    pub files_per_s: f64,
    pub roundtrip_mismatches: Vec<String>,
    pub roundtrip_seconds: f64,
    /// Accepted files with commands outside the standard's grammar, kept verbatim
    /// ([`crate::smtlib::Script::verbatim`]): `path:line:column: message` of the first.
    pub verbatim: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_clean: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_symbols: Option<BTreeMap<String, usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unclean: Option<Vec<Unclean>>,
}

/// Options of `smtstorm parse`.
#[derive(Debug, Clone, Default)]
pub struct ParseOptions {
    pub check: bool,
    /// Repeat the timed parse this many times and keep the median (≥ 1).
    pub repeat: usize,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Parses every `.smt2` file under `paths` and reports.
pub fn run(paths: &[PathBuf], opts: &ParseOptions) -> Result<ParseReport> {
    let files = crate::util::files::collect_smt2(paths)?;
    let mut texts = Vec::with_capacity(files.len());
    for f in &files {
        let bytes = crate::util::files::read_input(f)?;
        texts.push(bytes);
    }
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    let mb = bytes as f64 / 1e6;

    // Timed parse, repeated for a stable median.
    let mut parse_times = vec![];
    let mut results = vec![];
    for _ in 0..opts.repeat.max(1) {
        drop(std::mem::take(&mut results)); // freeing the last round is not parsing
        let t0 = Instant::now();
        results = texts.iter().map(|t| smtlib::parse_bytes(t)).collect::<Vec<_>>();
        parse_times.push(t0.elapsed().as_secs_f64());
    }
    let parse_seconds = median(parse_times);

    let mut rejected = vec![];
    let mut accepted = 0;
    for (f, r) in files.iter().zip(&results) {
        match r {
            Ok(_) => accepted += 1,
            Err(e) => rejected.push(Rejected {
                path: f.display().to_string(),
                line: e.line,
                column: e.column,
                reason: e.message.clone(),
            }),
        }
    }

    let t0 = Instant::now();
    let mut roundtrip_mismatches = vec![];
    for (f, r) in files.iter().zip(&results) {
        if let Ok(s) = r {
            let printed = smtlib::print(s);
            match smtlib::parse(&printed) {
                Ok(again) if again == *s => {}
                _ => roundtrip_mismatches.push(f.display().to_string()),
            }
        }
    }
    let roundtrip_seconds = t0.elapsed().as_secs_f64();
    let verbatim = files
        .iter()
        .zip(&results)
        .filter_map(|(f, r)| Some(format!("{}:{}", f.display(), r.as_ref().ok()?.verbatim.first()?.1)))
        .collect();

    let mut report = ParseReport {
        files: files.len(),
        accepted,
        rejected,
        bytes,
        seconds: parse_seconds,
        mb_per_s: mb / parse_seconds,
        parse_seconds,
        parse_mb_per_s: mb / parse_seconds,
        files_per_s: files.len() as f64 / parse_seconds,
        roundtrip_mismatches,
        roundtrip_seconds,
        verbatim,
        checked_clean: None,
        check_seconds: None,
        unknown_symbols: None,
        unclean: None,
    };

    if opts.check {
        let scripts: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        let names: Vec<_> = files.iter().zip(&results).filter(|(_, r)| r.is_ok()).map(|(f, _)| f).collect();
        let mut check_times = vec![];
        let mut checked = vec![];
        for _ in 0..opts.repeat.max(1) {
            drop(std::mem::take(&mut checked));
            let t0 = Instant::now();
            checked = scripts.iter().map(|s| check::check(s)).collect::<Vec<_>>();
            check_times.push(t0.elapsed().as_secs_f64());
        }
        let check_seconds = median(check_times);
        let mut unknown: BTreeMap<String, usize> = BTreeMap::new();
        let mut clean = 0;
        let mut unclean = vec![];
        for (f, c) in names.iter().zip(&checked) {
            for u in &c.unknown_symbols {
                *unknown.entry(u.clone()).or_default() += 1;
            }
            if c.is_clean() {
                clean += 1;
            } else {
                unclean.push(Unclean {
                    path: f.display().to_string(),
                    diagnostics: c.diagnostics.iter().take(3).map(|d| d.to_string()).collect(),
                });
            }
        }
        let total = parse_seconds + check_seconds;
        report.seconds = total;
        report.mb_per_s = mb / total;
        report.checked_clean = Some(clean);
        report.check_seconds = Some(check_seconds);
        report.unknown_symbols = Some(unknown);
        report.unclean = Some(unclean);
    }
    Ok(report)
}

impl ParseReport {
    /// Human-readable summary.
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} files, {} accepted, {} rejected, {:.2} MB",
            self.files,
            self.accepted,
            self.rejected.len(),
            self.bytes as f64 / 1e6
        );
        for r in &self.rejected {
            let _ = writeln!(s, "  rejected {}:{}:{}: {}", r.path, r.line, r.column, r.reason);
        }
        let _ = writeln!(
            s,
            "parse: {:.1} MB/s, {:.0} files/s (single thread, median)",
            self.parse_mb_per_s, self.files_per_s
        );
        if !self.verbatim.is_empty() {
            let _ = writeln!(
                s,
                "{} accepted with commands outside the standard's grammar, kept verbatim (a solver's own forms):",
                self.verbatim.len()
            );
            for v in &self.verbatim {
                let _ = writeln!(s, "  verbatim {v}");
            }
        }
        let _ = writeln!(s, "round trip: {} mismatches", self.roundtrip_mismatches.len());
        for m in &self.roundtrip_mismatches {
            let _ = writeln!(s, "  mismatch {m}");
        }
        if let (Some(c), Some(u)) = (self.checked_clean, &self.unknown_symbols) {
            let _ = writeln!(
                s,
                "check: {} of {} accepted files clean; parse+check {:.1} MB/s",
                c, self.accepted, self.mb_per_s
            );
            let mut top: Vec<_> = u.iter().collect();
            top.sort_by(|a, b| b.1.cmp(a.1));
            for (sym, n) in top.iter().take(25) {
                let _ = writeln!(s, "  unknown symbol {sym}: {n} files");
            }
        }
        s
    }
}
