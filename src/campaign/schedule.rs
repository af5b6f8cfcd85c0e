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
    /// What keys its mutants' draws: its index for a seed of the suite (as before seeds
    /// grew), its content hash for a grown one ([`super::grow`]).
    pub(super) draw: u64,
    /// For a seed the campaign grew from a mutant: where it came from.
    pub(super) grown: Option<super::grow::Grown>,
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

impl SeedState {
    /// When its next turn would end in the seed's own time: what it has cost so far plus
    /// a turn's cost (its own average once it has had turns, else the estimate).
    fn finish(&self) -> Duration {
        let next = if self.turns > 0 { self.spent / self.turns.min(u32::MAX as u64) as u32 } else { self.turn_cost };
        self.spent + next
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
    /// Fuzzing turns handed out.
    pub(super) turns: u64,
    /// Turns per engine (index in [`Scheduler::engines`]): each turn of an engine on a
    /// seed draws from its own stream.
    pub(super) engine_turns: Vec<u64>,
    /// Whether the seed is satisfiable, when it can be fused ([`crate::mutate::fusion`])
    /// and the pre-screen established its answer ([`super::worker::known_status`]).
    pub(super) fusion: Option<bool>,
    /// What a turn of this seed is expected to cost before it has had one: the
    /// pre-screen's slowest answer times the batch size.
    pub(super) turn_cost: Duration,
    /// Per solver, what the pre-screen saw on the unmutated seed: each check-sat's
    /// outcome name and the query's wall time (the configuration engine learns from
    /// mutants that change them, [`crate::mutate::config::Learning`]).
    pub(super) baseline: Vec<Option<(Vec<&'static str>, Duration)>>,
    /// A seed grown from a mutant ([`super::grow`]), and the seed it is a mutant of.
    pub(super) grown: bool,
    pub(super) parent: Option<usize>,
    /// The quick pre-screen cut a solver on it and saw nothing to look at closer: its
    /// next pre-screen is at the campaign's full limit ([`Scheduler::defer`]).
    pub(super) deferred: bool,
}

pub(super) enum Job {
    Prescreen(usize),
    Fuzz { seed: usize, engine: Engine, turn: u64 },
}

/// What an engine has yielded over the campaign: its turns, the seconds they took
/// (solver time, and confirmation of what they found) and the distinct bugs they stored
/// (a duplicate of a stored bug is not credited: an engine that keeps finding the same
/// bug again, as STORM did with one yices bug, would otherwise take most of the turns).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct EngineYield {
    pub(super) turns: u64,
    pub(super) seconds: f64,
    pub(super) new_bugs: u64,
}

impl EngineYield {
    /// Distinct bugs per second, smoothed by one bug in a minute: before anything is
    /// found, the engine that has had the least time scores best (time is shared evenly,
    /// whatever a turn costs); an engine that finds gets more of it.
    fn score(&self) -> f64 {
        (self.new_bugs as f64 + 1.0) / (self.seconds + 60.0)
    }
}

/// Engine turns chosen in rotation before the yields decide: every engine gets this
/// many, and then one turn in [`EXPLORE`] still rotates.
const WARMUP: u64 = 8;
/// One turn in this many rotates over the engines; the others go to the engine with the
/// best [`EngineYield::score`] (a deterministic ε-greedy bandit over engines, as AFL++'s
/// MOpt schedules mutation operators by their yield): on a large suite most seeds get
/// one or two turns, so a fixed rotation gives an engine that finds nothing as many turns
/// as one that keeps finding, and a slow engine's turns more time.
const EXPLORE: u64 = 3;

/// One fuzzing turn in this many goes to a grown seed when one is idle ([`super::grow`]);
/// the others go to the suite's seeds, time-fair among them as before, and to grown
/// seeds only when no seed of the suite is idle. A fixed share, not a share of the time:
/// grown seeds are cycled in order of fewest turns, as AFL cycles its queue, and the
/// turns they get do not depend on how long a solver took (a run with one worker and a
/// fixed `--seed` gives them the same turns each time). A quarter keeps the suite, where
/// the known bugs were found, fuzzed at three quarters of its pace.
pub(super) const GROWN_EVERY: u64 = 4;

/// Pre-screening never takes more than this share of the workers' time once a pool of
/// [`POOL`] seeds is ready: a pre-screen makes no mutant, and on the 4,070 cvc5-regress
/// seeds alternating turns left the screening unfinished after 30 minutes with half the
/// time spent on it (BENCHMARKS.md, session 19).
const SCREEN_SHARE: f64 = 0.25;
/// Below this many ready seeds, pre-screens and fuzzing turns alternate.
const POOL: usize = 16;

/// The order seeds are pre-screened in: a shuffle drawn from the campaign's seed and
/// each file's content hash, not the listing order. A suite's files are ordered by its
/// authors' directories (cvc5's regress0 before regress1..4): on a suite a campaign cannot
/// screen in full, listing order would fuzz only its first directories, where a shuffle
/// samples every part of it from the start. Content, not position, decides, so adding
/// files does not reorder the others.
pub(super) fn screening_order(hashes: &[&str], campaign_seed: u64) -> VecDeque<usize> {
    let key = |h: &str| {
        crate::util::hash::mix(&[campaign_seed, u64::from_str_radix(h.get(..16).unwrap_or(h), 16).unwrap_or(0)])
    };
    let mut order: Vec<usize> = (0..hashes.len()).collect();
    order.sort_by_key(|&i| (key(hashes[i]), i));
    order.into()
}

pub(super) struct Scheduler {
    pub(super) prescreen: VecDeque<usize>,
    /// Seeds the quick pre-screen found slow, screened at the full limit once
    /// `prescreen` is empty ([`Scheduler::defer`]).
    pub(super) deferred: VecDeque<usize>,
    /// Workers' seconds spent pre-screening so far (fuzzing turns' are in `yields`).
    pub(super) screened: f64,
    /// Pre-screens handed out and not finished.
    pub(super) screening: usize,
    pub(super) ready: Vec<usize>,
    pub(super) state: Vec<SeedState>,
    pub(super) toggle: bool,
    pub(super) engines: Vec<Engine>,
    pub(super) budget: Option<Duration>,
    /// Per engine (index in `engines`), what it has yielded.
    pub(super) yields: Vec<EngineYield>,
    /// Fuzzing turns handed out over all seeds.
    pub(super) handed: u64,
    /// Where the rotation over engines stands.
    pub(super) rotated: u64,
}

/// What one fuzzing turn came to: mutants tested, how many of them timed out or erred,
/// and the distinct bugs it stored.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Found {
    pub(super) tested: u64,
    pub(super) bad: u64,
    pub(super) new_bugs: u64,
}

impl Found {
    /// A turn that could not run (no partner, no model): it counts as `n` failed
    /// mutants, so a seed where it keeps happening is demoted.
    pub(super) fn failed(n: u64) -> Found {
        Found { tested: n, bad: n, new_bugs: 0 }
    }
}

impl Scheduler {
    /// Whether seeds are left to pre-screen, quickly or at the full limit.
    pub(super) fn unscreened(&self) -> bool {
        !self.prescreen.is_empty() || !self.deferred.is_empty()
    }

    /// The next seed to pre-screen, counted as being screened: every seed's quick screen
    /// before any deferred seed's full one.
    fn next_unscreened(&mut self) -> Option<usize> {
        let s = self.prescreen.pop_front().or_else(|| self.deferred.pop_front())?;
        self.screening += 1;
        Some(s)
    }

    /// Seed `i`'s quick pre-screen ended with a solver cut at the quick limit and nothing
    /// to look at closer: it is screened again at the campaign's limit, after every other
    /// seed's quick screen. As AFL favours fast queue entries, a seed that costs a solver
    /// the whole limit waits until the cheap seeds have been looked at: on the 4,070
    /// cvc5-regress seeds, a few percent of seeds took most of the pre-screen's time, and
    /// a 30-minute campaign screened a seventh of the suite (BENCHMARKS.md, session 29).
    pub(super) fn defer(&mut self, i: usize) {
        self.screening -= 1;
        self.state[i].deferred = true;
        self.deferred.push_back(i);
    }

    pub(super) fn next(&mut self) -> Option<Job> {
        // Pre-screening and fuzzing alternate while few seeds are ready, so a large seed
        // set starts finding bugs at once instead of after every seed has been screened;
        // then pre-screening gets its share of the time ([`SCREEN_SHARE`]).
        let fuzzed: f64 = self.yields.iter().map(|y| y.seconds).sum();
        // Grown seeds do not count: they would end the alternation before the suite has
        // a pool of its own (on 100 cvc5-regress seeds, 10 were screened in 90 s instead
        // of 24 when they did).
        let suite_ready = self.ready.iter().filter(|&&s| !self.state[s].grown).count();
        let screen = if suite_ready < POOL {
            suite_ready == 0 || self.flip()
        } else {
            self.screened < SCREEN_SHARE * (self.screened + fuzzed)
        };
        if screen {
            if let Some(s) = self.next_unscreened() {
                return Some(Job::Prescreen(s));
            }
        }
        // Time-fair, as fair queueing is: the idle ready seed whose next turn would end
        // first in its own time (what it has cost so far plus what a turn of it costs)
        // gets it. A slow seed gets as much time as a fast one, not as many turns, so it
        // can never eat the campaign, and cheap seeds are not starved by it. A fresh seed
        // does not jump ahead of every seed already fuzzed: on a suite larger than a
        // campaign can fuzz twice, that made every turn a first turn at the suite's mean
        // cost (with the pre-screen's old order, a fifth of the mutants this order makes:
        // BENCHMARKS.md, session 19).
        let idle = |s: &usize| !self.state[*s].busy;
        let suite = self
            .ready
            .iter()
            .copied()
            .filter(|s| idle(s) && !self.state[*s].grown)
            .min_by_key(|&s| (self.state[s].finish(), self.state[s].turns));
        let grown = self
            .ready
            .iter()
            .copied()
            .filter(|s| idle(s) && self.state[*s].grown)
            .min_by_key(|&s| (self.state[s].turns, s));
        // Outside their share, grown seeds get a turn only when neither a seed of the
        // suite nor one left to screen could have it.
        let picked = if self.handed % GROWN_EVERY == GROWN_EVERY - 1 {
            grown.or(suite)
        } else {
            suite.or(grown.filter(|_| !self.unscreened()))
        };
        let Some(seed) = picked else {
            // Every ready seed is busy: screen another one meanwhile, if any is left.
            return self.next_unscreened().map(Job::Prescreen);
        };
        let n = self.engines.len();
        let st = &mut self.state[seed];
        st.busy = true;
        st.engine_turns.resize(n, 0);
        // A seed fusion cannot use never gets a fusion turn (when fusion is the only
        // engine, the turn is taken and finds no partner).
        let usable = |k: usize| self.engines[k] != Engine::Fusion || st.fusion.is_some() || n == 1;
        // Rotation is over all turns, not per seed: on a large suite most seeds get only a
        // turn or two in a campaign, and if every seed started with the first engine,
        // that engine would get almost every turn (it got 97 % of 11,042 mutants in 20
        // minutes on the 4,070 cvc5-regress seeds).
        let rotated = self.rotated;
        let rotation = (0..n as u64).map(|j| ((rotated + j) % n as u64) as usize).find(|&k| usable(k)).unwrap_or(0);
        let warm = (0..n).all(|k| !usable(k) || self.yields[k].turns >= WARMUP);
        let k = if !warm || self.handed.is_multiple_of(EXPLORE) {
            self.rotated = rotation as u64 + 1;
            rotation
        } else {
            (0..n)
                .filter(|&k| usable(k))
                .max_by(|&a, &b| self.yields[a].score().total_cmp(&self.yields[b].score()).then(b.cmp(&a)))
                .unwrap_or(rotation)
        };
        self.handed += 1;
        self.yields[k].turns += 1;
        let engine = self.engines[k];
        let turn = st.engine_turns[k];
        st.engine_turns[k] += 1;
        st.turns += 1;
        Some(Job::Fuzz { seed, engine, turn })
    }

    /// The blames of seed `i`'s own findings and of every seed it was grown from: its
    /// mutants repeating one of them inherit it ([`SeedState::seed_blames`]).
    pub(super) fn blames(&self, i: usize) -> Vec<(BugKind, Option<usize>, String)> {
        let mut out = vec![];
        let mut at = Some(i);
        // A line of parents is at most as long as the seeds are many.
        for _ in 0..self.state.len() {
            let Some(st) = at.and_then(|k| self.state.get(k)) else { break };
            out.extend(st.seed_blames.iter().cloned());
            at = st.parent;
        }
        out
    }

    /// Takes seed `i` out of the ready seeds for good (a grown seed a smaller one
    /// covers); whether it was ready.
    pub(super) fn retire(&mut self, i: usize) -> bool {
        let Some(st) = self.state.get_mut(i) else { return false };
        let was = st.active;
        st.active = false;
        self.ready.retain(|&s| s != i);
        was
    }

    /// Alternates between pre-screen and fuzz turns.
    pub(super) fn flip(&mut self) -> bool {
        self.toggle = !self.toggle;
        self.toggle
    }

    /// Records a batch's outcome (its engine's yield too); demotes the seed when its
    /// mutants keep failing or its time budget is spent. Returns the demotion reason.
    pub(super) fn account(
        &mut self,
        seed: usize,
        engine: Engine,
        found: Found,
        spent: Duration,
    ) -> Option<&'static str> {
        let Found { tested, bad, new_bugs } = found;
        if let Some(y) = self.engines.iter().position(|&e| e == engine).map(|k| &mut self.yields[k]) {
            y.seconds += spent.as_secs_f64();
            y.new_bugs += new_bugs;
        }
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

    fn scheduler(engines: &[Engine], seeds: usize) -> Scheduler {
        Scheduler {
            prescreen: VecDeque::new(),
            deferred: VecDeque::new(),
            screened: 0.0,
            screening: 0,
            ready: (0..seeds).collect(),
            state: vec![SeedState::default(); seeds],
            toggle: false,
            engines: engines.to_vec(),
            budget: None,
            yields: vec![EngineYield::default(); engines.len()],
            handed: 0,
            rotated: 0,
        }
    }

    /// Takes one turn of a second and accounts it with a new bug if its engine is
    /// `finder`.
    fn turn(sched: &mut Scheduler, finder: Option<Engine>) -> (Engine, u64) {
        let Some(Job::Fuzz { seed, engine, turn }) = sched.next() else { panic!("a fuzz turn") };
        let new_bugs = (Some(engine) == finder) as u64;
        sched.account(seed, engine, Found { tested: 1, bad: 0, new_bugs }, Duration::from_secs(1));
        (engine, turn)
    }

    /// Before the yields say anything, the engines share the turns of a large suite
    /// evenly, and one seed goes through every engine in order, each engine's turns
    /// counted apart.
    #[test]
    fn engines_share_the_turns_of_a_large_suite() {
        let engines = [Engine::OpFuzz, Engine::TypeFuzz, Engine::Config];
        let mut sched = scheduler(&engines, 30);
        let mut count = std::collections::HashMap::new();
        for _ in 0..24 {
            let (engine, turn) = turn(&mut sched, None);
            assert_eq!(turn, 0);
            *count.entry(engine).or_insert(0) += 1;
        }
        for e in &engines {
            assert_eq!(count.get(e), Some(&8), "{count:?}");
        }
        let mut one = scheduler(&engines, 1);
        let got: Vec<(Engine, u64)> = (0..4).map(|_| turn(&mut one, None)).collect();
        assert_eq!(got, [(Engine::OpFuzz, 0), (Engine::TypeFuzz, 0), (Engine::Config, 0), (Engine::OpFuzz, 1)]);
    }

    /// Once every engine has had its warm-up turns, the one that keeps finding gets
    /// two turns in three and its share of the rotation, and the others still their
    /// share of the rotation.
    #[test]
    fn the_engine_that_finds_gets_most_turns() {
        let engines = [Engine::OpFuzz, Engine::TypeFuzz, Engine::Config];
        let mut sched = scheduler(&engines, 500);
        let mut count = std::collections::HashMap::new();
        for _ in 0..300 {
            *count.entry(turn(&mut sched, Some(Engine::Config)).0).or_insert(0) += 1;
        }
        let config = count[&Engine::Config];
        assert!((200..=240).contains(&config), "{count:?}");
        assert!(count[&Engine::OpFuzz] >= 30 && count[&Engine::TypeFuzz] >= 30, "{count:?}");
    }

    /// Grown seeds get one turn in [`GROWN_EVERY`] whatever their turns cost, cycled by
    /// fewest turns; a retired one gets none; and a grown seed's mutants inherit the
    /// blames of every seed above it.
    #[test]
    fn grown_seeds_get_their_share_and_inherit_their_parents_blames() {
        let mut sched = scheduler(&[Engine::OpFuzz], 5);
        sched.state.iter_mut().for_each(|st| st.active = true);
        for (g, parent) in [(3, 0), (4, 3)] {
            sched.state[g].grown = true;
            sched.state[g].parent = Some(parent);
        }
        // Grown turns cost a hundred times the suite's: the share does not move.
        sched.state[3].turn_cost = Duration::from_secs(100);
        let mut turns = [0u64; 5];
        for _ in 0..400 {
            let Some(Job::Fuzz { seed, engine, .. }) = sched.next() else { panic!("a fuzz turn") };
            turns[seed] += 1;
            let cost = if sched.state[seed].grown { 100 } else { 1 };
            sched.account(seed, engine, Found { tested: 8, bad: 0, new_bugs: 0 }, Duration::from_secs(cost));
        }
        assert_eq!((turns[3], turns[4]), (50, 50), "{turns:?}");
        assert_eq!(turns[..3].iter().sum::<u64>(), 300, "{turns:?}");
        assert!(sched.retire(3) && !sched.retire(3));
        for _ in 0..40 {
            let Some(Job::Fuzz { seed, engine, .. }) = sched.next() else { panic!("a fuzz turn") };
            assert_ne!(seed, 3, "a retired seed gets no turn");
            sched.account(seed, engine, Found { tested: 8, bad: 0, new_bugs: 0 }, Duration::from_secs(1));
        }
        sched.state[0].seed_blames.push((BugKind::Crash, Some(1), "SIGSEGV".into()));
        sched.state[4].seed_blames.push((BugKind::Soundness, None, String::new()));
        assert_eq!(sched.blames(4).len(), 2, "its own and its grandparent's");
        assert_eq!(sched.blames(3), vec![(BugKind::Crash, Some(1), "SIGSEGV".to_string())]);
        assert!(sched.blames(1).is_empty());
    }

    /// A cheap seed already fuzzed gets its next turn before a fresh seed whose turns
    /// cost twenty times as much, and the slow seed still gets its time share: over the
    /// run both have cost about the same.
    #[test]
    fn cheap_seeds_go_first_and_slow_ones_get_their_time() {
        let mut sched = scheduler(&[Engine::OpFuzz], 2);
        sched.state[0].turn_cost = Duration::from_millis(100);
        sched.state[1].turn_cost = Duration::from_secs(2);
        let mut turns = [0u32; 2];
        for _ in 0..200 {
            let Some(Job::Fuzz { seed, engine, .. }) = sched.next() else { panic!("a fuzz turn") };
            turns[seed] += 1;
            if turns == [2, 0] {
                assert_eq!(seed, 0, "the cheap seed's second turn came before the slow seed's first");
            }
            let cost = sched.state[seed].turn_cost;
            sched.account(seed, engine, Found { tested: 8, bad: 0, new_bugs: 0 }, cost);
        }
        assert!(turns[0] > 15 * turns[1] && turns[1] >= 5, "{turns:?}");
        let (a, b) = (sched.state[0].spent.as_secs_f64(), sched.state[1].spent.as_secs_f64());
        assert!((a - b).abs() <= 2.0, "{a} s against {b} s");
    }

    /// Seeds are screened in an order drawn from the campaign's seed and their contents:
    /// a permutation, the same for the same campaign, another for another, with each
    /// part of a sorted suite reached early, and unchanged for the old files when files
    /// are added.
    #[test]
    fn seeds_are_screened_in_a_shuffled_order() {
        let hashes: Vec<String> = (0..400).map(|i| crate::util::hash::short_hash(&format!("seed {i}"))).collect();
        let refs: Vec<&str> = hashes.iter().map(String::as_str).collect();
        let a = screening_order(&refs, 1);
        let mut sorted: Vec<usize> = a.iter().copied().collect();
        sorted.sort();
        assert_eq!(sorted, (0..400).collect::<Vec<_>>());
        assert_eq!(a, screening_order(&refs, 1));
        assert_ne!(a, screening_order(&refs, 2));
        // The first 40 screened come from all four quarters of the listing.
        let quarters: std::collections::BTreeSet<usize> = a.iter().take(40).map(|&i| i / 100).collect();
        assert_eq!(quarters.len(), 4, "{a:?}");
        let more: Vec<&str> = refs.iter().copied().chain(["00000000000000ff", "ffffffffffffff00"]).collect();
        let b: Vec<usize> = screening_order(&more, 1).into_iter().filter(|&i| i < 400).collect();
        assert_eq!(b, a.into_iter().collect::<Vec<_>>());
    }

    /// Once a pool of seeds is ready, pre-screening gets a quarter of the workers' time
    /// (by time, not turns), and fuzzing the rest; before that, the two alternate.
    #[test]
    fn screening_takes_a_bounded_share_of_the_time() {
        let engines = [Engine::OpFuzz, Engine::Config];
        let mut sched = scheduler(&engines, 0);
        sched.prescreen = (0..1000).collect();
        sched.state = vec![SeedState::default(); 1000];
        let (mut screens, mut turns) = (0, 0);
        for _ in 0..2000 {
            match sched.next() {
                Some(Job::Prescreen(s)) => {
                    // A pre-screen costs a second, and its seed becomes ready.
                    screens += 1;
                    sched.screening -= 1;
                    sched.screened += 1.0;
                    sched.ready.push(s);
                }
                Some(Job::Fuzz { seed, engine, .. }) => {
                    turns += 1;
                    sched.account(seed, engine, Found { tested: 8, bad: 0, new_bugs: 0 }, Duration::from_secs(2));
                }
                None => panic!("seeds are left"),
            }
        }
        let fuzzed: f64 = sched.yields.iter().map(|y| y.seconds).sum();
        let share = sched.screened / (sched.screened + fuzzed);
        assert!((0.22..0.28).contains(&share), "{screens} screens, {turns} turns: {share}");
        assert!(screens >= POOL && turns > 0);
    }

    /// A seed its quick screen deferred is screened again only after every other seed's
    /// quick screen, at the full limit (its state says so), and the worker's loop does not
    /// end while deferred seeds are left.
    #[test]
    fn deferred_seeds_are_screened_after_every_quick_screen() {
        let mut sched = scheduler(&[Engine::OpFuzz], 0);
        sched.prescreen = (0..6).collect();
        sched.state = vec![SeedState::default(); 6];
        let mut order = vec![];
        while let Some(job) = sched.next() {
            match job {
                Job::Prescreen(s) => {
                    order.push((s, sched.state[s].deferred));
                    // Seeds 1 and 4 are slow at the quick limit; the rest become ready.
                    if matches!(s, 1 | 4) && !sched.state[s].deferred {
                        sched.defer(s);
                    } else {
                        sched.screening -= 1;
                        sched.ready.push(s);
                    }
                    assert_eq!(sched.screening, 0);
                }
                Job::Fuzz { seed, engine, .. } => {
                    sched.account(seed, engine, Found { tested: 8, bad: 0, new_bugs: 0 }, Duration::from_secs(1));
                }
            }
            if order.len() == 8 {
                break;
            }
            assert!(sched.unscreened() || order.len() == 8);
        }
        let screened = |deferred: bool| order.iter().filter(|x| x.1 == deferred).map(|x| x.0).collect::<Vec<_>>();
        assert_eq!(screened(false), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(screened(true), vec![1, 4]);
        assert_eq!(order[6..], [(1, true), (4, true)]);
        assert!(!sched.unscreened());
    }

    /// Before anything is found, an engine whose turns cost three times as long gets
    /// fewer turns, so that time, not turns, is shared about evenly.
    #[test]
    fn time_is_shared_before_anything_is_found() {
        let engines = [Engine::OpFuzz, Engine::Config];
        let mut sched = scheduler(&engines, 1000);
        for _ in 0..600 {
            let Some(Job::Fuzz { seed, engine, .. }) = sched.next() else { panic!("a fuzz turn") };
            let secs = if engine == Engine::Config { 3 } else { 1 };
            sched.account(seed, engine, Found { tested: 1, bad: 0, new_bugs: 0 }, Duration::from_secs(secs));
        }
        let (op, config) = (sched.yields[0], sched.yields[1]);
        assert!(config.turns < op.turns, "{op:?} {config:?}");
        let ratio = config.seconds / op.seconds;
        assert!((0.7..1.6).contains(&ratio), "{op:?} {config:?}");
    }
}
