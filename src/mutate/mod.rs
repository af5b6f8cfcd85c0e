//! Mutation engines on one edit model. Engines choose [`edit::Edit`]s from a
//! [`choice::Choices`] source; [`edit::apply`] is the one place that changes a script.

pub mod choice;
pub mod edit;
pub mod opfuzz;
pub mod scope;
pub mod typefuzz;
pub mod valfuzz;

use crate::smtlib::Script;
use choice::Choices;
use edit::Edit;

/// The mutation engines that work on a seed alone (STORM and BanditFuzz have their own
/// drivers: they need a model or a generator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    OpFuzz,
    TypeFuzz,
    ValFuzz,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::OpFuzz, Engine::TypeFuzz, Engine::ValFuzz];
    pub fn name(self) -> &'static str {
        match self {
            Engine::OpFuzz => "opfuzz",
            Engine::TypeFuzz => "typefuzz",
            Engine::ValFuzz => "valfuzz",
        }
    }
    pub fn from_name(s: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.name() == s)
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
}

impl<'a> Prepared<'a> {
    pub fn new(engine: Engine, s: &'a Script) -> Prepared<'a> {
        match engine {
            Engine::OpFuzz => Prepared::OpFuzz(opfuzz::Prepared::new(s)),
            Engine::TypeFuzz => Prepared::TypeFuzz(typefuzz::Prepared::new(s)),
            Engine::ValFuzz => Prepared::ValFuzz(valfuzz::Prepared::new(s)),
        }
    }
    /// Number of places the engine can change.
    pub fn sites(&self) -> usize {
        match self {
            Prepared::OpFuzz(p) => p.sites.len(),
            Prepared::TypeFuzz(p) => p.sites(),
            Prepared::ValFuzz(p) => p.sites.len(),
        }
    }
    /// One mutant with its edits; `None` if the engine found nothing to do.
    pub fn mutate(&self, c: &mut impl Choices) -> Option<(Vec<Edit>, Script)> {
        match self {
            Prepared::OpFuzz(p) => opfuzz::mutate_prepared(p, c),
            Prepared::TypeFuzz(p) => typefuzz::mutate_prepared(p, c),
            Prepared::ValFuzz(p) => valfuzz::mutate_prepared(p, c),
        }
    }
}
