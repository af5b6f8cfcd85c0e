//! The one interface of the mutation engines, after wasm-mutate's `Mutator` and LibAFL's
//! `Mutator`/`post_exec`: an engine is readied for a seed and a turn ([`Mutator::prepare`],
//! with what it may need besides the seed in [`Ctx`]), makes mutants one at a time
//! ([`Mutator::mutate`]) and hears how the solvers answered them ([`Mutator::post_exec`]).
//! Campaigns and the fuzz harness drive every engine through it; an engine that needs a
//! solver asks it through [`Reference`], which each of them implements with its own
//! sessions (this floor sits below the oracle and the campaign).

use super::bec::BecAnswer;
use super::edit::{self, Edit};
use super::storm::{Bounds, Pools};
use crate::smtlib::{framing::Framing, Script};
use crate::solver::{session_text, QueryResult, SolverSpec};
use std::borrow::Cow;
use std::sync::Arc;

/// The reference solver, as an engine may ask it.
pub trait Reference {
    /// Boolean Expression Coercion's question ([`super::bec`]): values for the holes
    /// under which the monitored sub-terms come out as asked.
    fn bec_answer(&mut self, query: &str) -> BecAnswer;
    /// STORM's pools of `seed` ([`super::storm`]): the reference's model of its
    /// assertions and every fragment's value; `None` when it has none. `rng_seed` draws
    /// the fragments.
    fn pools(&mut self, seed: &Script, bounds: &Bounds, rng_seed: u64) -> Option<Arc<Pools>>;
}

/// The seed a fusion is made with ([`super::fusion`]): another seed of the same known
/// status.
pub struct Partner<'s> {
    pub script: &'s Script,
    /// Its path, stored with the edit (the draw of the partner does not replay).
    pub path: String,
    pub sat: bool,
}

/// What an engine may need besides its seed, for one turn.
pub struct Ctx<'s, 'c> {
    /// The solvers the mutants are for: each gets its own text ([`solver_texts`]).
    /// Empty: no texts, every script kept (the fuzz harness prints the script).
    pub solvers: &'s [SolverSpec],
    /// The configuration engine's tactics and options ([`super::config`]).
    pub options: &'s crate::solver::options::Options,
    pub storm: &'s Bounds,
    /// Mutants a turn makes at most (BEC asks the reference for that many at once).
    pub batch: usize,
    /// A draw fixed by the seed, by tag: what does not change from turn to turn (BEC's
    /// plan, STORM's fragments).
    pub seed_draw: &'c dyn Fn(u64) -> u64,
    /// A draw fixed by the turn (BEC's rounds).
    pub turn_draw: u64,
    /// The reference solver, and whether it reads the seed (STORM asks it anyway: its
    /// query is the seed's assertions alone).
    pub reference: Option<&'c mut dyn Reference>,
    pub reference_reads: bool,
    pub partner: Option<Partner<'s>>,
    /// What the campaign learned of which configurations matter, and the seed's logic
    /// (`None`: uniform choice).
    pub learning: Option<(&'s std::sync::Mutex<super::config::Learning>, &'s str)>,
    /// The seed's own answers per solver (outcome names and time), from its pre-screen:
    /// what the configuration engine's feedback compares with.
    pub baseline: Vec<Option<(Vec<&'static str>, std::time::Duration)>>,
}

/// Why a turn makes no mutants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Not yet (fusion without a partner): the turn costs the seed nothing.
    Wait,
    /// The engine has nothing to make of this seed (STORM without a model).
    Nothing,
}

/// What the mutants' answers are judged against, besides the solvers' votes.
pub enum Construction<'a> {
    /// Nothing: votes and the seed's status.
    None,
    /// Every check-sat is satisfied by this witness (STORM).
    Witness(&'a [(String, String)]),
    /// Every check-sat has this answer by construction (fusion: `true` is sat).
    Answer(bool),
    /// Every check-sat has the seed's answer, whatever it is: each solver is judged
    /// against its own answer to the seed ([`super::equisat`]).
    OwnAnswers,
}

impl Construction<'_> {
    /// The answer every check-sat has by construction: `sat` for a STORM instance, the
    /// fused seeds' status for a fusion; `None` where nothing is known.
    pub fn answer(&self) -> Option<crate::solver::Outcome> {
        use crate::solver::Outcome;
        match self {
            Construction::Witness(_) => Some(Outcome::Sat),
            Construction::Answer(sat) => Some(if *sat { Outcome::Sat } else { Outcome::Unsat }),
            Construction::None | Construction::OwnAnswers => None,
        }
    }
}

/// What an engine learned from one mutant's answers ([`Mutator::post_exec`]): the keys
/// it used and whether they had an effect ([`super::config::Learning::record`]).
pub struct Learned {
    pub keys: Vec<String>,
    pub effect: bool,
}

/// One mutant.
pub struct Mutant {
    pub rng_seed: u64,
    pub edits: Vec<Edit>,
    /// The mutant's script, when it is kept: STORM's instances, OpFuzz's swaps sent as
    /// text and mutants of over [`KEEP_SCRIPT_BYTES`] are rebuilt from the seed and
    /// their edits for a candidate only ([`Mutator::rebuild`]).
    pub script: Option<Script>,
    /// Its session text per solver of [`Ctx::solvers`].
    pub texts: Vec<String>,
    pub checks: usize,
    /// Its framing, when it differs from the seed's (a kept or dropped script's).
    pub framing: Option<Framing>,
}

/// A mutant script larger than this (in printed bytes) is not held beside its texts while
/// the batch is asked: a parsed script takes about eight times its text, and on a seed of
/// megabytes the batch's scripts were most of a turn's memory (issue 37). Its edits rebuild
/// it for a candidate, which is rare.
pub const KEEP_SCRIPT_BYTES: usize = 64 << 10;

impl Mutant {
    /// A mutant made as a script: its texts per solver; the script is dropped when large
    /// and `replays` (its edits rebuild it from the seed alone).
    pub fn of_script(solvers: &[SolverSpec], rng_seed: u64, edits: Vec<Edit>, mut m: Script, replays: bool) -> Mutant {
        edit::strip_status(&mut m);
        let texts = solver_texts(solvers, &m);
        let checks = crate::smtlib::checks(&m);
        let framing = Some(crate::smtlib::framing::framing(&m));
        let big = texts.iter().map(String::len).max().unwrap_or(0) > KEEP_SCRIPT_BYTES;
        let script = (!(big && replays)).then_some(m);
        Mutant { rng_seed, edits, script, texts, checks, framing }
    }
}

/// The session text each solver gets: without the `set-option`s its family would reject
/// ([`crate::solver::Family::without_foreign_options`]), printing the script once when no
/// solver needs its own copy (the common case: this runs for every mutant).
pub fn solver_texts(solvers: &[SolverSpec], s: &Script) -> Vec<String> {
    let mut plain: Option<String> = None;
    solvers
        .iter()
        .map(|spec| match spec.without_foreign_options(s) {
            Some(own) => session_text(&own).0,
            None => plain.get_or_insert_with(|| session_text(s).0).clone(),
        })
        .collect()
}

/// A mutation engine ([`super::Engine`]), readied for one seed at a time.
pub trait Mutator<'s> {
    /// Readies a turn on `seed`. What depends on the seed alone (sort check, sites) is
    /// built on the first call and kept: the caller keeps one mutator per seed.
    fn prepare(&mut self, seed: &'s Script, ctx: &mut Ctx<'s, '_>) -> Result<(), Skip>;
    /// The next mutant of the turn from `rng_seed`; `None` if the engine made none.
    fn mutate(&mut self, rng_seed: u64) -> Option<Mutant>;
    /// Feedback: the answers of the solvers of [`Ctx::solvers`] to `m` (`None` for a
    /// solver not asked).
    fn post_exec(&mut self, _m: &Mutant, _answers: &[Option<&QueryResult>]) -> Option<Learned> {
        None
    }
    /// Whether a turn needs a [`Partner`] in its [`Ctx`].
    fn wants_partner(&self) -> bool {
        false
    }
    /// What this turn's mutants are judged against besides the votes.
    fn construction(&self) -> Construction<'_> {
        Construction::None
    }
    /// `m`'s script, rebuilt from `seed` and its edits when it was not kept. `Err(Some)`
    /// says why a mutant sent as text is no script after all (an instance the sort check
    /// refuses); `Err(None)` is an edit that does not replay.
    fn rebuild<'m>(&self, seed: &Script, m: &'m Mutant) -> Result<Cow<'m, Script>, Option<String>> {
        match &m.script {
            Some(s) => Ok(Cow::Borrowed(s)),
            None => {
                let mut s = edit::apply_unchecked(seed, &m.edits).map_err(|_| None)?;
                edit::strip_status(&mut s);
                Ok(Cow::Owned(s))
            }
        }
    }
}

/// One mutant drawn from a prepared seed: its edits and script.
pub type Draw<P> = fn(&P, &mut super::choice::Rng) -> Option<(Vec<Edit>, Script)>;

/// An engine that works on its preparation of the seed alone (TypeFuzz, ValFuzz): `new`
/// prepares the seed once, `make` draws one mutant from it.
pub struct Plain<'s, P> {
    seed: Option<P>,
    solvers: &'s [SolverSpec],
    new: fn(&'s Script) -> P,
    make: Draw<P>,
}

impl<'s, P> Plain<'s, P> {
    pub fn new(new: fn(&'s Script) -> P, make: Draw<P>) -> Self {
        Plain { seed: None, solvers: &[], new, make }
    }
}

impl<'s, P> Mutator<'s> for Plain<'s, P> {
    fn prepare(&mut self, seed: &'s Script, ctx: &mut Ctx<'s, '_>) -> Result<(), Skip> {
        self.solvers = ctx.solvers;
        if self.seed.is_none() {
            self.seed = Some((self.new)(seed));
        }
        Ok(())
    }
    fn mutate(&mut self, rng_seed: u64) -> Option<Mutant> {
        let (edits, m) = (self.make)(self.seed.as_ref()?, &mut super::choice::Rng::new(rng_seed))?;
        Some(Mutant::of_script(self.solvers, rng_seed, edits, m, true))
    }
}
