//! Front-end throughput, side by side with the smt2parser crate on the same files.
//!
//! `cargo bench --bench frontend -- [DIR] [ROUNDS]` (default: ../shared/seeds/cvc5-regress,
//! 15 rounds; `SMTSTORM_BENCH_ONLY=parse` stops after the parser, for profiling it). Files
//! are read into memory first; each round parses all of them on one
//! thread; the median round is reported, and anchors are measured in the same run.

use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn rounds<T>(n: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut times = vec![];
    for _ in 0..n {
        let t0 = Instant::now();
        let out = f();
        times.push(t0.elapsed().as_secs_f64());
        drop(out);
    }
    median(times)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let dir = args.first().cloned().unwrap_or_else(|| "../shared/seeds/cvc5-regress".into());
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let files = smtstorm::util::files::collect_smt2(&[dir.clone().into()]).expect("seed directory");
    let texts: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let mb = texts.iter().map(|t| t.len()).sum::<usize>() as f64 / 1e6;
    println!("{} files, {:.2} MB from {dir}, median of {n} rounds", texts.len(), mb);
    // Absolute MB/s depend on the machine (the same code measured 90-100 MB/s on one and
    // 215-227 on another): every record says which CPU and how loaded it was.
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("cpu: {cpu}; load average before: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));

    let parse = rounds(n, || texts.iter().map(|t| smtstorm::smtlib::parse_bytes(t)).collect::<Vec<_>>());
    if std::env::var("SMTSTORM_BENCH_ONLY").is_ok_and(|v| v == "parse") {
        // For profiling the parser alone (`perf record`).
        println!("smtstorm parse          {:8.1} MB/s", mb / parse);
        return;
    }
    let scripts: Vec<_> = texts.iter().filter_map(|t| smtstorm::smtlib::parse_bytes(t).ok()).collect();
    let check = rounds(n, || scripts.iter().map(smtstorm::smtlib::check::check).collect::<Vec<_>>());
    let anchor = rounds(n.min(5), || {
        let mut ok = 0usize;
        for t in &texts {
            let stream = smt2parser::CommandStream::new(&t[..], smt2parser::concrete::SyntaxBuilder, None);
            if stream.into_iter().all(|c| c.is_ok()) {
                ok += 1;
            }
        }
        ok
    });
    let anchor_ok = {
        let mut ok = 0usize;
        for t in &texts {
            let stream = smt2parser::CommandStream::new(&t[..], smt2parser::concrete::SyntaxBuilder, None);
            if stream.into_iter().all(|c| c.is_ok()) {
                ok += 1;
            }
        }
        ok
    };
    println!("smtstorm parse          {:8.1} MB/s", mb / parse);
    println!("smtstorm parse + check  {:8.1} MB/s  (check alone {:.1} MB/s)", mb / (parse + check), mb / check);
    println!(
        "smt2parser 0.6 parse    {:8.1} MB/s  accepts {}/{} files; smtstorm parse is {:.1}x faster",
        mb / anchor,
        anchor_ok,
        texts.len(),
        anchor / parse
    );
    println!("smtstorm accepts {}/{} files", scripts.len(), texts.len());
}
