//! The event stream of `events.jsonl`: one [`Event`] per line, written by the campaign
//! (and shown on stdout with `--json`), read back by `triage`.
//!
//! Each line is a JSON object whose `event` field names what happened; the other fields
//! are that event's. The names and fields are those the campaign wrote as untyped
//! `json!` objects before the enum (issue 38), and a line is written the same way (keys
//! in sorted order), so scripts (`scripts/chaos.sh`), tests and older readers read the
//! file unchanged. Reading never fails a whole file: an event this build does not know
//! reads as [`Event::Unknown`], and a line that does not read at all is skipped.

use super::Stats;
use crate::mutate::{edit::Edit, Engine};
use crate::oracle::BugKind;
use crate::store::{Meta, Origin};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One line of `events.jsonl`. Seeds, finding directories and quarantined paths are
/// their text as shown (`crate::util::path::shown`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The campaign starts its `run`-th run (a resumed store counts on).
    Start { run: u32, solvers: Vec<String> },
    /// A resumed campaign whose defining settings changed (`--reconfigure`): each
    /// `[key, stored, now]`, values as JSON.
    Reconfigured { changes: Vec<(String, String, String)> },
    /// A solver's tactics and `set-option`s, for the configuration engine.
    Options { solver: String, tactics: usize, set_options: usize, cached: bool },
    /// A solver whose options could not be listed.
    OptionsUnavailable { solver: String, why: String },
    /// Configured variants of a solver whose options are command-line ones (yices);
    /// each variant is its command.
    Variants { solver: String, options: usize, variants: Vec<Vec<String>> },
    /// An engine that runs with less than its whole space (`engine` is `config`).
    EnginePartial { engine: Engine, why: String },
    /// A finding whose `meta.json` did not read, moved aside.
    Quarantined { from: String, to: String, why: String },
    /// This campaign's part of the seeds (`--shard`).
    Shard { shard: String, seeds: usize },
    /// A seed file that does not read.
    SeedRejected { seed: String, error: String },
    /// A seed from which `removed` commands no solver takes were dropped.
    SeedSanitized { seed: String, removed: usize },
    /// A seed without `(check-sat)` that got one.
    SeedCheckSatAdded { seed: String },
    /// A mutant kept as a seed of its own (`OUT/corpus/`, [`super::grow`]): it showed
    /// `new_features` behaviour features never seen in the campaign.
    SeedGrown { seed: String, parent: String, engine: Engine, new_features: usize },
    /// The grown corpus minimised at a run's start: `kept` seeds cover every feature of
    /// the `kept + dropped` stored (and `--grow`'s bound holds).
    CorpusMinimised { kept: usize, dropped: usize },
    /// A seed cut to the `kept` of its `commands` the pre-screen could afford.
    SeedSliced { seed: String, commands: usize, kept: usize },
    /// The quick pre-screen cut the solvers `cut` on a seed and saw no candidate: it is
    /// screened at the full limit after every other seed's quick screen.
    SeedDeferred { seed: String, cut: Vec<String> },
    /// Every solver contradicts the seed's `:status`: a note, no finding.
    StatusMismatch { seed: String, note: String },
    /// An artifact judged once (`triage`).
    Triaged { seed: String },
    /// A seed not fuzzed, and why.
    SeedSkipped { seed: String, why: Vec<String> },
    /// A seed fuzzed from now on: by which solvers, at which time limit, its known
    /// status (`sat`/`unsat`) if Semantic Fusion may use it.
    SeedReady {
        seed: String,
        solvers: Vec<String>,
        limit: f64,
        #[serde(default)]
        not_sent_to: Vec<String>,
        status: Option<String>,
    },
    /// A seed no longer fuzzed, and why.
    SeedDemoted { seed: String, why: String },
    /// A STORM instance the solvers are not sent.
    StormInstanceRefused { seed: String, why: String },
    /// A seed STORM has no model of.
    StormNoModel { seed: String },
    /// A candidate that did not hold in fresh processes (`edits`), or a crash that does
    /// not survive twice the memory (`why`).
    Unconfirmed {
        seed: String,
        engine: Origin,
        kind: BugKind,
        blamed: Option<String>,
        signature: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        edits: Option<Vec<Edit>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// A STORM witness the other solvers refute (or none confirms): the generator's fault.
    WitnessInvalid { seed: String, sat: usize, refuted: bool },
    /// A mutant's bug the seed already shows: the seed's finding, not a new one.
    Inherited { seed: String, kind: BugKind, signature: String },
    /// A new finding stored in `dir`.
    Finding {
        dir: String,
        kind: BugKind,
        blamed: String,
        fixed_in: Option<String>,
        seed: String,
        engine: Origin,
        #[serde(default)]
        seed_finding: bool,
    },
    /// A duplicate of the finding in `dir`.
    Duplicate { dir: String, seed: String },
    /// A confirmed finding that could not be stored, with all it takes to store it by hand.
    StoreFailed { error: String, meta: Box<Meta>, trigger: String },
    /// A finding reduced after the run.
    Reduced { id: String, kind: BugKind, original_bytes: usize, reduced_bytes: usize, seconds: f64, checks: u64 },
    /// A finding whose reduction failed.
    ReduceFailed { id: String, why: String },
    /// Finding `merged` merged into `id`: their reductions are identical.
    Merged { id: String, merged: String },
    /// A worker panicked: the campaign stops.
    WorkerPanicked { worker: usize, message: String },
    /// The run ended: its stats and the store's counts.
    End { stats: Box<Stats>, bugs: usize, seed_findings: usize },
    /// An event this build does not know (a newer build's): read, never written.
    #[serde(other)]
    Unknown,
}

impl Event {
    /// The line `events.jsonl` holds for this event. Through a `serde_json::Value`, whose
    /// keys are sorted, so the line is byte for byte what the untyped `json!` objects
    /// wrote before. `None` only if a field does not serialize (no field can fail today).
    pub fn line(&self) -> Option<String> {
        serde_json::to_value(self).ok().map(|v| v.to_string())
    }

    /// The events of `events.jsonl` text, in order; a line that does not read (torn by a
    /// crash, or a known event with fields this build cannot read) is skipped, never fatal.
    pub fn read_lines(text: &str) -> Vec<Event> {
        text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
    }

    /// The events of the store at `out` (none if it has no `events.jsonl` or it does not read).
    pub fn read(out: &Path) -> Vec<Event> {
        std::fs::read_to_string(crate::store::layout::events(out)).map_or_else(|_| vec![], |t| Event::read_lines(&t))
    }
}

/// Where events go: `OUT/events.jsonl`, and stdout as JSON lines with `--json`.
pub struct Events {
    path: PathBuf,
    stdout: bool,
    lock: Mutex<()>,
}

impl Events {
    /// Events of the store at `out`, also printed to stdout as JSON lines if `stdout`.
    pub fn new(out: &Path, stdout: bool) -> Events {
        Events { path: crate::store::layout::events(out), stdout, lock: Mutex::new(()) }
    }

    pub fn emit(&self, ev: Event) {
        let Some(line) = ev.line() else { return };
        let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let _ = crate::util::fs::append_line(&self.path, &line);
        if self.stdout {
            // A closed stdout must not kill a campaign (the events are in the file too).
            use std::io::Write as _;
            let _ = writeln!(std::io::stdout(), "{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::edit::Edit;

    /// The `event` name each variant must keep (scripts and older readers match on it).
    /// No wildcard arm: a new variant does not compile until it is named here.
    fn name(e: &Event) -> &'static str {
        match e {
            Event::Start { .. } => "start",
            Event::Reconfigured { .. } => "reconfigured",
            Event::Options { .. } => "options",
            Event::OptionsUnavailable { .. } => "options-unavailable",
            Event::Variants { .. } => "variants",
            Event::EnginePartial { .. } => "engine-partial",
            Event::Quarantined { .. } => "quarantined",
            Event::Shard { .. } => "shard",
            Event::SeedRejected { .. } => "seed-rejected",
            Event::SeedSanitized { .. } => "seed-sanitized",
            Event::SeedCheckSatAdded { .. } => "seed-check-sat-added",
            Event::SeedGrown { .. } => "seed-grown",
            Event::CorpusMinimised { .. } => "corpus-minimised",
            Event::SeedSliced { .. } => "seed-sliced",
            Event::SeedDeferred { .. } => "seed-deferred",
            Event::StatusMismatch { .. } => "status-mismatch",
            Event::Triaged { .. } => "triaged",
            Event::SeedSkipped { .. } => "seed-skipped",
            Event::SeedReady { .. } => "seed-ready",
            Event::SeedDemoted { .. } => "seed-demoted",
            Event::StormInstanceRefused { .. } => "storm-instance-refused",
            Event::StormNoModel { .. } => "storm-no-model",
            Event::Unconfirmed { .. } => "unconfirmed",
            Event::WitnessInvalid { .. } => "witness-invalid",
            Event::Inherited { .. } => "inherited",
            Event::Finding { .. } => "finding",
            Event::Duplicate { .. } => "duplicate",
            Event::StoreFailed { .. } => "store-failed",
            Event::Reduced { .. } => "reduced",
            Event::ReduceFailed { .. } => "reduce-failed",
            Event::Merged { .. } => "merged",
            Event::WorkerPanicked { .. } => "worker-panicked",
            Event::End { .. } => "end",
            Event::Unknown => "unknown",
        }
    }

    fn one_of_each() -> Vec<Event> {
        let seed = || "seeds/a.smt2".to_string();
        let meta: Meta = serde_json::from_value(serde_json::json!({
            "id": "83aaec6299b0", "kind": "crash", "blamed": "z3-4.8.12", "blamed_version": "4.8.12",
            "blame_by": "crash", "logic": "ALL", "signature": "SIGSEGV", "fixed_in": null, "bisection": [],
            "answers": [], "seed": "seeds/a.smt2", "seed_hash": "", "engine": "opfuzz", "edits": [], "rng_seed": 0,
            "found_at": 1.0, "found_unix": 0, "run": 1, "trigger_bytes": 110, "duplicates": 0, "seed_finding": false
        }))
        .unwrap();
        let opfuzz = Origin::Engine(Engine::OpFuzz);
        vec![
            Event::Start { run: 2, solvers: vec!["z3-4.8.7".into(), "cvc5".into()] },
            Event::Reconfigured {
                changes: vec![("solvers".into(), r#"["z3-4.8.7"]"#.into(), r#"["z3-5.4.0"]"#.into())],
            },
            Event::Options { solver: "z3-4.8.7".into(), tactics: 111, set_options: 3, cached: true },
            Event::OptionsUnavailable { solver: "cvc5".into(), why: "no help".into() },
            Event::Variants { solver: "yices".into(), options: 4, variants: vec![vec!["yices".into(), "--x".into()]] },
            Event::EnginePartial { engine: Engine::Config, why: "no tables".into() },
            Event::Quarantined { from: "o/bugs/crash/a".into(), to: "o/quarantine/a".into(), why: "meta".into() },
            Event::Shard { shard: "1/3".into(), seeds: 7 },
            Event::SeedRejected { seed: seed(), error: "line 1".into() },
            Event::SeedSanitized { seed: seed(), removed: 2 },
            Event::SeedCheckSatAdded { seed: seed() },
            Event::SeedGrown {
                seed: "o/corpus/ab.smt2".into(),
                parent: seed(),
                engine: Engine::Config,
                new_features: 2,
            },
            Event::CorpusMinimised { kept: 3, dropped: 1 },
            Event::SeedSliced { seed: seed(), commands: 40, kept: 12 },
            Event::SeedDeferred { seed: seed(), cut: vec!["z3-5.4.0".into()] },
            Event::StatusMismatch { seed: seed(), note: "all say sat".into() },
            Event::Triaged { seed: seed() },
            Event::SeedSkipped { seed: seed(), why: vec!["no check-sat".into()] },
            Event::SeedReady {
                seed: seed(),
                solvers: vec!["cvc5".into()],
                limit: 0.5,
                not_sent_to: vec![],
                status: None,
            },
            Event::SeedDemoted { seed: seed(), why: "mutants keep timing out".into() },
            Event::StormInstanceRefused { seed: seed(), why: "too big".into() },
            Event::StormNoModel { seed: seed() },
            Event::Unconfirmed {
                seed: seed(),
                engine: opfuzz.clone(),
                kind: BugKind::Crash,
                blamed: None,
                signature: "SIGSEGV".into(),
                edits: Some(vec![Edit::ReplaceSubterm {
                    at: crate::mutate::edit::Path(vec![4, 0, 1]),
                    with: "0".into(),
                }]),
                why: None,
            },
            Event::WitnessInvalid { seed: seed(), sat: 0, refuted: true },
            Event::Inherited { seed: seed(), kind: BugKind::Soundness, signature: "sat vs unsat".into() },
            Event::Finding {
                dir: "o/bugs/crash/83aaec6299b0".into(),
                kind: BugKind::Crash,
                blamed: "z3-4.8.12".into(),
                fixed_in: Some("4.8.17".into()),
                seed: seed(),
                engine: Origin::Seed,
                seed_finding: true,
            },
            Event::Duplicate { dir: "o/bugs/crash/83aaec6299b0".into(), seed: seed() },
            Event::StoreFailed { error: "disk full".into(), meta: Box::new(meta), trigger: "(check-sat)".into() },
            Event::Reduced {
                id: "83aaec6299b0".into(),
                kind: BugKind::InvalidModel,
                original_bytes: 110,
                reduced_bytes: 96,
                seconds: 1.5,
                checks: 10,
            },
            Event::ReduceFailed { id: "83aaec6299b0".into(), why: "no solver".into() },
            Event::Merged { id: "a".into(), merged: "b".into() },
            Event::WorkerPanicked { worker: 3, message: "index out of bounds".into() },
            Event::End { stats: Box::default(), bugs: 1, seed_findings: 0 },
        ]
    }

    #[test]
    fn each_event_keeps_its_name_and_round_trips() {
        let all = one_of_each();
        let names: std::collections::BTreeSet<&str> = all.iter().map(name).collect();
        assert_eq!(names.len(), all.len(), "one of each, no variant twice");
        // Every variant but the read-only `Unknown`.
        assert_eq!(all.len(), 33);
        for e in &all {
            let line = e.line().unwrap();
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            assert_eq!(v["event"], name(e), "{line}");
            let back = Event::read_lines(&line);
            assert_eq!(back.len(), 1, "{line}");
            assert_eq!(name(&back[0]), name(e));
            assert_eq!(back[0].line().unwrap(), line, "a round trip changes nothing");
        }
        // Field names stay as the scripts read them (snake_case, not renamed with the variant).
        let ready = all.iter().find(|e| name(e) == "seed-ready").unwrap().line().unwrap();
        assert!(ready.contains("\"not_sent_to\":[]") && ready.contains("\"status\":null"), "{ready}");
        let unconfirmed = all.iter().find(|e| name(e) == "unconfirmed").unwrap().line().unwrap();
        assert!(!unconfirmed.contains("\"why\""), "an absent why is not written: {unconfirmed}");
    }

    /// Lines written by the untyped `json!` events before the enum (a 20 s `fuzz corpus`
    /// campaign on z3-5.4.0 with the build of 2e618a9).
    const OLD: [&str; 7] = [
        r#"{"event":"start","run":1,"solvers":["z3-5.4.0"]}"#,
        r#"{"cached":true,"event":"options","set_options":0,"solver":"z3-5.4.0","tactics":111}"#,
        r#"{"event":"seed-ready","limit":0.596485705,"not_sent_to":[],"seed":"corpus/uf_congruence.smt2","solvers":["z3-5.4.0"],"status":"unsat"}"#,
        r#"{"event":"seed-ready","limit":0.5,"not_sent_to":[],"seed":"corpus/dt_list_26.smt2","solvers":["z3-5.4.0"],"status":null}"#,
        r#"{"event":"storm-no-model","seed":"corpus/core_ite_named.smt2"}"#,
        r#"{"event":"seed-demoted","seed":"corpus/core_ite_named.smt2","why":"mutants keep timing out or erroring"}"#,
        r#"{"blamed":"z3-5.4.0","edits":[{"at":[4,0,1],"edit":"replace_subterm","with":"0"}],"engine":"typefuzz","event":"unconfirmed","kind":"crash","seed":"corpus/dt_match.smt2","signature":"SIGSEGV"}"#,
    ];

    #[test]
    fn old_lines_read_and_are_written_the_same() {
        for l in OLD {
            let e = Event::read_lines(l);
            assert_eq!(e.len(), 1, "{l}");
            assert_ne!(name(&e[0]), "unknown", "{l}");
            assert_eq!(e[0].line().unwrap(), l, "the typed event writes the old line byte for byte");
        }
        let end = Event::read_lines(END);
        match &end[..] {
            [Event::End { stats, bugs: 0, seed_findings: 0 }] => {
                assert_eq!((stats.mutants, stats.seeds_demoted, stats.unconfirmed), (1609, 40, 4));
            }
            other => panic!("the old end line reads as {other:?}"),
        }
    }

    #[test]
    fn unknown_and_torn_lines_never_fail_the_file() {
        let text = format!(
            "{}\n{}\n{}\n{}\n",
            OLD[0], r#"{"event":"from-a-newer-build","x":1}"#, r#"{"event":"finding","dir":"#, OLD[1]
        );
        let evs = Event::read_lines(&text);
        let names: Vec<&str> = evs.iter().map(name).collect();
        assert_eq!(names, [name(&Event::read_lines(OLD[0])[0]), "unknown", name(&Event::read_lines(OLD[1])[0])]);
        // A missing file reads as no events.
        assert!(Event::read(Path::new("/nonexistent/smtstorm-store")).is_empty());
    }

    const END: &str = r#"{"bugs":0,"event":"end","seed_findings":0,"stats":{"campaign_elapsed":20.385689722,"candidates":4,"config_effects":39,"config_learned":84,"definite_families":0,"duplicates":0,"elapsed":20.385689722,"engines":{"bec":{"candidates":0,"mutants":175,"valid":175},"config":{"candidates":0,"mutants":235,"valid":227},"fusion":{"candidates":0,"mutants":153,"valid":145},"opfuzz":{"candidates":0,"mutants":190,"valid":179},"storm":{"candidates":0,"mutants":320,"valid":320},"typefuzz":{"candidates":4,"mutants":277,"valid":258},"valfuzz":{"candidates":0,"mutants":259,"valid":246}},"fuzz_seconds":35.957,"inherited":0,"invalid":59,"logics":{"ALIA":{"candidates":0,"mutants":14,"valid":14},"ALL":{"candidates":0,"mutants":13,"valid":4},"LIA":{"candidates":0,"mutants":31,"valid":31},"QF_ABV":{"candidates":0,"mutants":4,"valid":4},"QF_ALIA":{"candidates":0,"mutants":77,"valid":77},"QF_AX":{"candidates":0,"mutants":54,"valid":54},"QF_BV":{"candidates":0,"mutants":193,"valid":189},"QF_BVFP":{"candidates":0,"mutants":7,"valid":7},"QF_DT":{"candidates":0,"mutants":80,"valid":80},"QF_DTLIA":{"candidates":4,"mutants":123,"valid":119},"QF_FP":{"candidates":0,"mutants":51,"valid":51},"QF_FPLRA":{"candidates":0,"mutants":48,"valid":48},"QF_LIA":{"candidates":0,"mutants":257,"valid":227},"QF_LIRA":{"candidates":0,"mutants":139,"valid":139},"QF_LRA":{"candidates":0,"mutants":110,"valid":110},"QF_NIA":{"candidates":0,"mutants":60,"valid":60},"QF_NRA":{"candidates":0,"mutants":63,"valid":63},"QF_S":{"candidates":0,"mutants":53,"valid":53},"QF_SLIA":{"candidates":0,"mutants":103,"valid":94},"QF_UF":{"candidates":0,"mutants":69,"valid":66},"UFLIA":{"candidates":0,"mutants":60,"valid":60}},"mutants":1609,"new_bugs":0,"outcomes":{"z3-5.4.0":{"crash":4,"error":115,"sat":1225,"timeout":8,"unknown":45,"unsat":634}},"own_cpu":0.494007,"prescreen_seconds":3.408,"resources":0,"run":1,"seed_findings":0,"seeds_demoted":40,"seeds_ready":66,"seeds_rejected":0,"seeds_sliced":0,"solver_calls":1907,"status_mismatches":0,"store_errors":0,"timeouts":9,"unconfirmed":4,"undecided":0,"valid":1550}}"#;
}
