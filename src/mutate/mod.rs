//! Mutation engines on one edit model. Engines choose [`edit::Edit`]s from a
//! [`choice::Choices`] source; [`edit::apply`] is the one place that changes a script.

pub mod bec;
pub mod choice;
pub mod config;
pub mod edit;
pub mod equisat;
pub mod file;
pub mod fusion;
pub mod mutator;
pub mod opfuzz;
pub mod scope;
pub mod storm;
pub mod typefuzz;
pub mod valfuzz;

use crate::smtlib::Script;
use choice::Choices;
use edit::Edit;
pub use mutator::{
    solver_texts, Construction, Ctx, Learned, Mutant, Mutator, Partner, Reference, Skip, KEEP_SCRIPT_BYTES,
};

/// The list of engines (one list, as wasm-mutate keeps one; each engine in its own file
/// knows only the [`Mutator`] trait): a fresh mutator for `engine`.
pub fn mutator<'s>(engine: Engine) -> Box<dyn Mutator<'s> + 's> {
    match engine {
        Engine::OpFuzz => Box::<opfuzz::OpFuzz>::default(),
        Engine::TypeFuzz => Box::new(typefuzz::mutator()),
        Engine::ValFuzz => Box::new(valfuzz::mutator()),
        Engine::Storm => Box::<storm::Storm>::default(),
        Engine::Bec => Box::<bec::Bec>::default(),
        Engine::Config => Box::<config::ConfigEngine>::default(),
        Engine::Fusion => Box::<fusion::Fusion>::default(),
        Engine::Equisat => Box::<equisat::Equisat>::default(),
    }
}

/// The mutation engines. OpFuzz, TypeFuzz and ValFuzz work on a seed alone; STORM needs
/// a reference solver's model first ([`storm`]) and fusion a second seed whose status is
/// known: each gets what it needs through [`Ctx`] ([`Mutator`], [`mutator`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    OpFuzz,
    TypeFuzz,
    ValFuzz,
    Storm,
    /// ValFuzz's Boolean Expression Coercion ([`bec`]): constants chosen by a reference
    /// solver so that chosen Boolean sub-terms come out true or false.
    Bec,
    /// The configuration engine ([`config`]): a check-sat asked again through a z3 tactic
    /// pipeline from the solver's own table.
    Config,
    /// Semantic Fusion ([`fusion`]): the seed fused with another seed of the same
    /// satisfiability, which campaigns know from their pre-screen.
    Fusion,
    /// Metamorphic relations with known satisfiability ([`equisat`]): renamed,
    /// reordered, split or merged, padded and re-seeded variants of the seed, each
    /// solver judged against its own answer to the seed.
    Equisat,
}

impl Engine {
    pub const ALL: [Engine; 8] = [
        Engine::OpFuzz,
        Engine::TypeFuzz,
        Engine::ValFuzz,
        Engine::Storm,
        Engine::Bec,
        Engine::Config,
        Engine::Fusion,
        Engine::Equisat,
    ];
    /// The engines a campaign runs without `--engine`: all but [`Engine::Equisat`],
    /// whose yield on today's releases was 0 in 2,636 mutants (2 minutes on the shared
    /// cvc5 seeds, issue 40; its instability measure is had with `--engine equisat`).
    pub const DEFAULT: [Engine; 7] =
        [Engine::OpFuzz, Engine::TypeFuzz, Engine::ValFuzz, Engine::Storm, Engine::Bec, Engine::Config, Engine::Fusion];
    /// The engines [`Prepared`] runs on a seed alone.
    pub const SEED_ONLY: [Engine; 3] = [Engine::OpFuzz, Engine::TypeFuzz, Engine::ValFuzz];
    pub fn name(self) -> &'static str {
        match self {
            Engine::OpFuzz => "opfuzz",
            Engine::TypeFuzz => "typefuzz",
            Engine::ValFuzz => "valfuzz",
            Engine::Storm => "storm",
            Engine::Bec => "bec",
            Engine::Config => "config",
            Engine::Fusion => "fusion",
            Engine::Equisat => "equisat",
        }
    }
    pub fn from_name(s: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.name() == s)
    }
}

/// Flags take engines by [`Engine::name`], the same names as the campaign file (serde).
impl clap::ValueEnum for Engine {
    fn value_variants<'a>() -> &'a [Self] {
        &Engine::ALL
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A seed prepared for one engine.
pub enum Prepared<'a> {
    OpFuzz(opfuzz::Prepared<'a>),
    TypeFuzz(typefuzz::Prepared<'a>),
    ValFuzz(valfuzz::Prepared<'a>),
    Config(config::Prepared<'a>),
    /// An engine that needs more than the seed (STORM): no mutants from here.
    NeedsSolver,
}

impl<'a> Prepared<'a> {
    pub fn new(engine: Engine, s: &'a Script) -> Prepared<'a> {
        match engine {
            Engine::OpFuzz => Prepared::OpFuzz(opfuzz::Prepared::new(s)),
            Engine::TypeFuzz => Prepared::TypeFuzz(typefuzz::Prepared::new(s)),
            Engine::ValFuzz => Prepared::ValFuzz(valfuzz::Prepared::new(s)),
            Engine::Storm | Engine::Bec | Engine::Config | Engine::Fusion | Engine::Equisat => Prepared::NeedsSolver,
        }
    }
    /// [`Prepared::new`], with the solvers' configuration space for [`Engine::Config`].
    pub fn with_options(engine: Engine, s: &'a Script, options: &'a crate::solver::options::Options) -> Prepared<'a> {
        match engine {
            Engine::Config => Prepared::Config(config::Prepared::new(s, options)),
            _ => Prepared::new(engine, s),
        }
    }
    /// Number of places the engine can change.
    pub fn sites(&self) -> usize {
        match self {
            Prepared::OpFuzz(p) => p.sites.len(),
            Prepared::TypeFuzz(p) => p.sites(),
            Prepared::ValFuzz(p) => p.sites.len(),
            Prepared::Config(p) => p.sites(),
            Prepared::NeedsSolver => 0,
        }
    }
    /// One mutant with its edits; `None` if the engine found nothing to do.
    pub fn mutate(&self, c: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
        match self {
            Prepared::OpFuzz(p) => opfuzz::mutate_prepared(p, c),
            Prepared::TypeFuzz(p) => typefuzz::mutate_prepared(p, c),
            Prepared::ValFuzz(p) => valfuzz::mutate_prepared(p, c),
            Prepared::Config(p) => config::mutate_prepared(p, c),
            Prepared::NeedsSolver => None,
        }
    }
}
