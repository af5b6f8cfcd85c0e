//! What the generator may produce: theories (`--theories`), sizes, widths and formats.

use crate::util::flags::Named;
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Why a configuration cannot be generated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenError {
    #[error("bit-vector width {0} is not between 1 and 64")]
    Width(u64),
    #[error("floating-point format ({0}, {1}) needs exponent >= 2 and significand >= 2 bits")]
    Format(u64, u64),
    #[error("--{0} must be at least 1")]
    Zero(&'static str),
    #[error("{}", unknown_theory(.0))]
    UnknownTheory(String),
    #[error("no theories given")]
    NoTheory,
}

/// What a generated script may contain (`--theories`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Feature {
    Core,
    Ints,
    Reals,
    /// Ints and reals together, with `to_real`, `to_int`, `is_int` (Reals_Ints).
    Mixed,
    Bv,
    Fp,
    Strings,
    Arrays,
    Uf,
    Datatypes,
    Quantifiers,
}

impl Feature {
    pub const ALL: [Feature; 11] = [
        Feature::Core,
        Feature::Ints,
        Feature::Reals,
        Feature::Mixed,
        Feature::Bv,
        Feature::Fp,
        Feature::Strings,
        Feature::Arrays,
        Feature::Uf,
        Feature::Datatypes,
        Feature::Quantifiers,
    ];
    /// The feature's name (as serde writes it) and then the other names `--theories`
    /// takes for it: SMT-LIB logic fragments and singulars.
    fn names(self) -> &'static [&'static str] {
        match self {
            Feature::Core => &["core"],
            Feature::Ints => &["ints", "int", "lia", "nia"],
            Feature::Reals => &["reals", "real", "lra", "nra"],
            Feature::Mixed => &["mixed", "realsints", "lira", "nira"],
            Feature::Bv => &["bv", "bitvectors"],
            Feature::Fp => &["fp", "floatingpoint"],
            Feature::Strings => &["strings", "string", "str"],
            Feature::Arrays => &["arrays", "array"],
            Feature::Uf => &["uf"],
            Feature::Datatypes => &["datatypes", "dt"],
            Feature::Quantifiers => &["quantifiers", "quant", "q"],
        }
    }
    pub fn name(self) -> &'static str {
        self.names()[0]
    }
    pub fn from_name(s: &str) -> Option<Feature> {
        Named::new("theory").find(s).ok()
    }
}

impl clap::ValueEnum for Feature {
    fn value_variants<'a>() -> &'a [Self] {
        &Feature::ALL
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        let names = self.names();
        Some(PossibleValue::new(names[0]).aliases(names[1..].iter().copied()))
    }
}

/// `all` in `--theories`: every feature.
const ALL: &str = "all";

/// Parses `ints,bv,arrays` (also `all`; `+` and spaces separate too, case does not
/// matter) into a feature set.
pub fn parse_features(s: &str) -> Result<BTreeSet<Feature>, GenError> {
    let mut out = BTreeSet::new();
    for part in s.split([',', '+', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
        let p = part.to_ascii_lowercase();
        if p == ALL {
            out.extend(Feature::ALL);
            continue;
        }
        let f = Feature::from_name(&p).ok_or_else(|| GenError::UnknownTheory(part.to_string()))?;
        out.insert(f);
    }
    if out.is_empty() {
        return Err(GenError::NoTheory);
    }
    Ok(out)
}

/// What an unknown name in `--theories` is told: the names a feature list takes.
pub fn unknown_theory(name: &str) -> String {
    crate::util::flags::unknown("theory", name, Feature::ALL.iter().map(|f| f.name()).chain([ALL]))
}

/// `--theories` as clap parses it: [`parse_features`], with the names listed in `--help`.
#[derive(Clone, Copy)]
struct FeatureList;

impl TypedValueParser for FeatureList {
    type Value = BTreeSet<Feature>;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        StringValueParser::new().try_map(|s| parse_features(&s)).parse_ref(cmd, arg, value)
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let each = Feature::ALL.iter().filter_map(clap::ValueEnum::to_possible_value);
        Some(Box::new(each.chain([PossibleValue::new(ALL)])))
    }
}

/// A floating-point format `EXP:SIG` (exponent bits, significand bits).
fn fp_format(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("expected EXP:SIG, e.g. 8:24, not {s:?}");
    let (e, g) = s.split_once(':').ok_or_else(bad)?;
    Ok((e.trim().parse().map_err(|_| bad())?, g.trim().parse().map_err(|_| bad())?))
}

/// The generator's knobs: the flags of `smtstorm generate` and `bandit` (clap) and the
/// `grammar` of `bandit.json` (serde), each declared once here with its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
// Named: clap names a struct's argument group after it, and two `Config`s meet in
// `smtstorm bandit`.
#[group(id = "grammar")]
pub struct Config {
    /// Theories a script may use, comma-separated.
    #[arg(long = "theories", value_name = "THEORIES", default_value = "core", value_parser = FeatureList)]
    pub features: BTreeSet<Feature>,
    /// Linear arithmetic only: the arguments of a non-linear operator after the first
    /// (factors, divisors) are literals.
    #[arg(long)]
    pub linear: bool,
    /// Assertions per script.
    #[arg(long, default_value_t = 2)]
    pub asserts: usize,
    /// Depth of every assertion's term tree.
    #[arg(long, default_value_t = 3)]
    pub depth: usize,
    /// Variables declared per sort.
    #[arg(long, default_value_t = 2)]
    pub vars: usize,
    /// Bit-vector widths (comma-separated).
    #[arg(long = "width", value_name = "BITS", value_delimiter = ',', default_value = "8")]
    pub widths: Vec<u64>,
    /// Floating-point formats as EXP:SIG, exponent and significand bits with the hidden
    /// bit (comma-separated), e.g. 8:24,11:53. cvc5 1.4 reads only these two without
    /// --fp-exp.
    #[arg(long = "fp", value_name = "EXP:SIG", value_delimiter = ',', default_value = "8:24", value_parser = fp_format)]
    pub formats: Vec<(u64, u64)>,
}

/// The declared defaults above (`smtstorm generate` with no flag).
impl Default for Config {
    fn default() -> Self {
        static DEFAULT: std::sync::OnceLock<Config> = std::sync::OnceLock::new();
        DEFAULT.get_or_init(crate::util::flags::defaults).clone()
    }
}

impl Config {
    /// The configuration as the grammar uses it: checked, widths sorted and deduplicated,
    /// an empty width or format list given its default.
    pub fn validated(mut self) -> Result<Config, GenError> {
        for &w in &self.widths {
            if !(1..=64).contains(&w) {
                return Err(GenError::Width(w));
            }
        }
        for &(e, s) in &self.formats {
            if e < 2 || s < 2 || e > 15 || s > 113 {
                return Err(GenError::Format(e, s));
            }
        }
        for (n, v) in [("asserts", self.asserts), ("vars", self.vars)] {
            if v == 0 {
                return Err(GenError::Zero(n));
            }
        }
        self.widths.sort_unstable();
        self.widths.dedup();
        if self.widths.is_empty() {
            self.widths = Config::default().widths;
        }
        if self.formats.is_empty() {
            self.formats = Config::default().formats;
        }
        Ok(self)
    }
}

/// Operators no tested solver shares although SMT-LIB 2.6/2.7 defines them. Found by
/// the acceptance run (`smtstorm generate --accept`): generating them would make every
/// script that uses them an error in one of z3 5.4 and cvc5, not a test.
pub const NOT_PORTABLE: &[&str] = &[
    // SMT-LIB 2.7 overflow predicates and conversions: z3 5.4 lacks some of them.
    "bvnego",
    "bvuaddo",
    "bvsaddo",
    "bvumulo",
    "bvsmulo",
    "bvusubo",
    "bvssubo",
    "bvsdivo",
    "ubv_to_int",
    "sbv_to_int",
    "int_to_bv", // z3 only
    "nat2bv",    // cvc5's ArraysEx extension, not z3's
    "eqrange",   // z3 5.4: "unknown constant divisible"
    "divisible",
];
