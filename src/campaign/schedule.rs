//! Which (seed, engine) turn comes next: seeds that keep giving new behaviour are
//! revisited, seeds that never reach a solver are retired.

use super::*;

/// A loaded seed.
pub(super) struct Seed {
    pub(super) path: PathBuf,
    /// The seed as loaded (sanitized, a check-sat added where it had none).
    pub(super) loaded: Script,
    pub(super) hash: String,
    /// A STORM witness line in the file (fuzzer artifacts of `storm_target`).
    pub(super) witness: Option<Vec<(String, String)>>,
    /// A slice of its assertions that some solver answers, set once by the pre-screen
    /// when every solver timed out on the whole seed (with the kept command indices).
    pub(super) slice: std::sync::OnceLock<(Script, Vec<usize>)>,
}

impl Seed {
    /// What is fuzzed: the slice if the seed was sliced, else the seed as loaded.
    pub(super) fn script(&self) -> &Script {
        self.slice.get().map(|(s, _)| s).unwrap_or(&self.loaded)
    }

    /// The kept command indices of a sliced seed (recorded with its findings, so that
    /// their edits replay on the same slice).
    pub(super) fn kept(&self) -> Option<&[usize]> {
        self.slice.get().map(|(_, k)| k.as_slice())
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct SeedState {
    /// Solvers (indices) that read the seed.
    pub(super) solvers: Vec<usize>,
    /// Time limit for its mutants.
    pub(super) limit: Duration,
    pub(super) tested: u64,
    pub(super) bad: u64,
    pub(super) spent: Duration,
    pub(super) active: bool,
    /// What the seed's own findings were: (kind, blamed solver or `None` for an undecided
    /// tie, crash message). Mutants of the seed that repeat one inherit the seed's bug:
    /// they are counted, not reported as new.
    pub(super) seed_blames: Vec<(BugKind, Option<usize>, String)>,
    /// A worker is running a batch of this seed.
    pub(super) busy: bool,
    /// Fuzzing turns handed out (engines take turns in order, from the seed's own start).
    pub(super) turns: u64,
    /// Whether the seed is satisfiable, when it can be fused ([`crate::mutate::fusion`])
    /// and the pre-screen established its answer ([`super::worker::known_status`]).
    pub(super) fusion: Option<bool>,
    /// Per solver, what the pre-screen saw on the unmutated seed: each check-sat's
    /// outcome name and the query's wall time (the configuration engine learns from
    /// mutants that change them, [`crate::mutate::config::Learning`]).
    pub(super) baseline: Vec<Option<(Vec<&'static str>, Duration)>>,
}

pub(super) enum Job {
    Prescreen(usize),
    Fuzz { seed: usize, engine: Engine, turn: u64 },
}

pub(super) struct Scheduler {
    pub(super) prescreen: VecDeque<usize>,
    /// Pre-screens handed out and not finished.
    pub(super) screening: usize,
    pub(super) ready: Vec<usize>,
    pub(super) state: Vec<SeedState>,
    pub(super) toggle: bool,
    pub(super) engines: Vec<Engine>,
    pub(super) budget: Option<Duration>,
}

impl Scheduler {
    pub(super) fn next(&mut self) -> Option<Job> {
        // Pre-screening and fuzzing alternate, so a large seed set starts finding bugs
        // at once instead of after every seed has been screened.
        if !self.prescreen.is_empty() && (self.ready.is_empty() || self.flip()) {
            if let Some(s) = self.prescreen.pop_front() {
                self.screening += 1;
                return Some(Job::Prescreen(s));
            }
        }
        // Time-fair: the idle ready seed that has cost the least solver time so far gets
        // the next turn. A slow seed gets as much time as a fast one, not as many turns,
        // so it can never eat the campaign, and cheap seeds are not starved by it.
        let Some(seed) = self
            .ready
            .iter()
            .copied()
            .filter(|&s| !self.state[s].busy)
            .min_by_key(|&s| (self.state[s].spent, self.state[s].turns))
        else {
            // Every ready seed is busy: screen another one meanwhile, if any is left.
            let s = self.prescreen.pop_front()?;
            self.screening += 1;
            return Some(Job::Prescreen(s));
        };
        let st = &mut self.state[seed];
        st.busy = true;
        let n = self.engines.len() as u64;
        // Each seed starts its round of engines at its own place (its index): on a large
        // suite most seeds get only a turn or two in a campaign, and if every seed
        // started with the first engine, that engine would get almost every turn (it got
        // 97 % of 11,042 mutants in 20 minutes on the 4,070 cvc5-regress seeds).
        let at = |turns: u64| self.engines[((turns + seed as u64) % n) as usize];
        // A seed fusion cannot use gives its fusion turn to the next engine (when fusion
        // is the only engine, the turn is taken and finds no partner).
        for _ in 0..n {
            if at(st.turns) != Engine::Fusion || st.fusion.is_some() || n == 1 {
                break;
            }
            st.turns += 1;
        }
        let engine = at(st.turns);
        let turn = st.turns / n;
        st.turns += 1;
        Some(Job::Fuzz { seed, engine, turn })
    }

    /// Alternates between pre-screen and fuzz turns.
    pub(super) fn flip(&mut self) -> bool {
        self.toggle = !self.toggle;
        self.toggle
    }

    /// Records a batch's outcome; demotes the seed when its mutants keep failing or its
    /// time budget is spent. Returns the demotion reason.
    pub(super) fn account(&mut self, seed: usize, tested: u64, bad: u64, spent: Duration) -> Option<&'static str> {
        let st = &mut self.state[seed];
        st.busy = false;
        st.tested += tested;
        st.bad += bad;
        st.spent += spent;
        if !st.active {
            return None;
        }
        let reason = if st.tested >= 16 && st.bad * 2 > st.tested {
            Some("mutants keep timing out or erroring")
        } else if self.budget.is_some_and(|b| st.spent > b) {
            Some("time budget spent")
        } else {
            None
        };
        if reason.is_some() {
            st.active = false;
            self.ready.retain(|&s| s != seed);
        }
        reason
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a suite where every seed gets one turn, the engines share the turns evenly
    /// (each seed starts its round at its own place), and one seed still goes through
    /// every engine in order.
    #[test]
    fn engines_share_the_turns_of_a_large_suite() {
        let engines = vec![Engine::OpFuzz, Engine::TypeFuzz, Engine::Config];
        let n = 30;
        let mut sched = Scheduler {
            prescreen: VecDeque::new(),
            screening: 0,
            ready: (0..n).collect(),
            state: vec![SeedState::default(); n],
            toggle: false,
            engines: engines.clone(),
            budget: None,
        };
        let mut count = std::collections::HashMap::new();
        for _ in 0..n {
            let Some(Job::Fuzz { seed, engine, turn }) = sched.next() else { panic!("a fuzz turn") };
            assert_eq!(turn, 0);
            *count.entry(engine).or_insert(0) += 1;
            sched.account(seed, 1, 0, Duration::from_millis(10));
        }
        for e in &engines {
            assert_eq!(count.get(e), Some(&10), "{count:?}");
        }
        // Seed 0 alone: each engine once per round, in order, then the next round.
        sched.ready = vec![0];
        let got: Vec<(Engine, u64)> = (0..4)
            .map(|_| {
                let Some(Job::Fuzz { seed, engine, turn }) = sched.next() else { panic!("a fuzz turn") };
                sched.account(seed, 1, 0, Duration::from_millis(10));
                (engine, turn)
            })
            .collect();
        assert_eq!(got, [(Engine::TypeFuzz, 0), (Engine::Config, 0), (Engine::OpFuzz, 1), (Engine::TypeFuzz, 1)]);
    }
}
