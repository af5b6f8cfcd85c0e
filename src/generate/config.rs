//! What the generator may produce: theories (`--theories`), sizes, widths and formats.

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
    #[error("unknown theory `{0}` (expected one of {names}, or all)", names = Feature::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "))]
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
    pub fn name(self) -> &'static str {
        match self {
            Feature::Core => "core",
            Feature::Ints => "ints",
            Feature::Reals => "reals",
            Feature::Mixed => "mixed",
            Feature::Bv => "bv",
            Feature::Fp => "fp",
            Feature::Strings => "strings",
            Feature::Arrays => "arrays",
            Feature::Uf => "uf",
            Feature::Datatypes => "datatypes",
            Feature::Quantifiers => "quantifiers",
        }
    }
    pub fn from_name(s: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == s).or(match s {
            "int" | "lia" | "nia" => Some(Feature::Ints),
            "real" | "lra" | "nra" => Some(Feature::Reals),
            "realsints" | "lira" | "nira" => Some(Feature::Mixed),
            "bitvectors" => Some(Feature::Bv),
            "floatingpoint" => Some(Feature::Fp),
            "string" | "str" => Some(Feature::Strings),
            "array" => Some(Feature::Arrays),
            "dt" => Some(Feature::Datatypes),
            "quant" | "q" => Some(Feature::Quantifiers),
            _ => None,
        })
    }
}

/// Parses `ints,bv,arrays` (also `all`) into a feature set.
pub fn parse_features(s: &str) -> Result<BTreeSet<Feature>, GenError> {
    let mut out = BTreeSet::new();
    for part in s.split([',', '+', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
        let p = part.to_ascii_lowercase();
        if p == "all" {
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

/// The generator's knobs (`smtstorm generate --help`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub features: BTreeSet<Feature>,
    /// Non-linear arithmetic operators only with literal arguments after the first.
    pub linear: bool,
    pub asserts: usize,
    pub depth: usize,
    /// Variables declared per sort.
    pub vars: usize,
    pub widths: Vec<u64>,
    /// Floating-point formats (exponent bits, significand bits including the hidden bit).
    pub formats: Vec<(u64, u64)>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            features: [Feature::Core].into(),
            linear: false,
            asserts: 2,
            depth: 3,
            vars: 2,
            widths: vec![8],
            // cvc5 1.4 reads only Float32 and Float64 without --fp-exp.
            formats: vec![(8, 24)],
        }
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
            self.widths.push(8);
        }
        if self.formats.is_empty() {
            self.formats.push((8, 24));
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
