//! Grammar-based generation of well-sorted scripts (BanditFuzz: Scott, Sudula, Rehman,
//! Mora, Ganesh, "BanditFuzz: Fuzzing SMT Solvers with Multi-agent Reinforcement
//! Learning", FM 2021, §3: "a generator samples well-sorted formulas from the grammar").
//!
//! The grammar is not written here: every operator comes from the signature table
//! ([`crate::smtlib::theory::SIGNATURES`]), instantiated over the sorts a [`Config`]
//! enables (bit-vector widths, floating-point formats, arrays over those sorts), so a line
//! added to the table is generated the day it is added. On top of the table the generator
//! adds what a script declares itself: an uninterpreted sort with functions (`uf`),
//! a list and an enumeration datatype (`datatypes`), and quantifiers.
//!
//! Generation is deterministic from its [`Choices`]: the CLI passes a seeded [`Rng`],
//! BanditFuzz passes its own seeded generator, a fuzzing harness could pass bytes.
//! Trees are full (every branch reaches the requested depth wherever some construct
//! produces the sort needed); leaves are variables or literals.

pub mod acceptance;

use crate::mutate::choice::{Choices, Rng};
use crate::smtlib::logic;
use crate::smtlib::sort::{SortKind, SortRef, Sorts};
use crate::smtlib::theory::{self, OpSig, Shape, SortPat, Theory};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write as _;

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
pub fn parse_features(s: &str) -> Result<BTreeSet<Feature>, String> {
    let mut out = BTreeSet::new();
    for part in s.split([',', '+', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
        let p = part.to_ascii_lowercase();
        if p == "all" {
            out.extend(Feature::ALL);
            continue;
        }
        let f = Feature::from_name(&p).ok_or_else(|| {
            let names: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
            format!("unknown theory `{part}` (expected one of {}, or all)", names.join(", "))
        })?;
        out.insert(f);
    }
    if out.is_empty() {
        return Err("no theories given".into());
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

/// One instantiated operator: `(head args...)` of sort `result`.
#[derive(Clone, Debug)]
pub struct Construct {
    /// The operator's name: what BanditFuzz's construct agent chooses among.
    pub op: String,
    /// The text of the head: `bvadd`, `(_ extract 7 0)`, `(_ is cons)`.
    pub head: String,
    pub args: Vec<SortRef>,
    pub result: SortRef,
    /// May take one or two further arguments of the last argument's sort.
    pub variadic: bool,
    /// Arguments from this position on are literals: 1 for factors and divisors in
    /// linear arithmetic, 0 for `re.range` (cvc5 reads only constant bounds).
    pub literals_from: usize,
}

/// A grammar instantiated for one [`Config`]: sorts, constructs, leaves, declarations.
pub struct Grammar {
    pub config: Config,
    pub sorts: Sorts,
    /// Sorts a term may have.
    pub universe: Vec<SortRef>,
    pub constructs: Vec<Construct>,
    /// Construct names, sorted: the arms of BanditFuzz's construct agent.
    pub ops: Vec<String>,
    by_op: Vec<Vec<usize>>,
    /// result sort → op index → constructs.
    by_result: FxHashMap<SortRef, Vec<Vec<usize>>>,
    /// Nullary constants of a sort (`true`, `RNE`, `re.allchar`, `(_ +zero 5 11)`, `nil`).
    nullary: FxHashMap<SortRef, Vec<String>>,
    vars: FxHashMap<SortRef, Vec<String>>,
    /// Sorts a quantifier may bind.
    binders: Vec<SortRef>,
    /// The declarations after `set-logic`.
    pub declarations: String,
    pub logic: String,
    /// name → sort text, for sorts the script declares (`U`, `Lst`, `Color`).
    printed: FxHashMap<SortRef, String>,
}

/// Why a configuration cannot be generated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenError {
    #[error("bit-vector width {0} is not between 1 and 64")]
    Width(u64),
    #[error("floating-point format ({0}, {1}) needs exponent >= 2 and significand >= 2 bits")]
    Format(u64, u64),
    #[error("--{0} must be at least 1")]
    Zero(&'static str),
}

impl Grammar {
    pub fn new(config: Config) -> Result<Grammar, GenError> {
        for &w in &config.widths {
            if !(1..=64).contains(&w) {
                return Err(GenError::Width(w));
            }
        }
        for &(e, s) in &config.formats {
            if e < 2 || s < 2 || e > 15 || s > 113 {
                return Err(GenError::Format(e, s));
            }
        }
        for (n, v) in [("asserts", config.asserts), ("vars", config.vars)] {
            if v == 0 {
                return Err(GenError::Zero(n));
            }
        }
        let mut config = config;
        config.widths.sort_unstable();
        config.widths.dedup();
        if config.widths.is_empty() {
            config.widths.push(8);
        }
        if config.formats.is_empty() {
            config.formats.push((8, 24));
        }
        let on = |f: Feature| config.features.contains(&f);
        let mut sorts = Sorts::default();
        let mut universe = vec![SortRef::BOOL];
        let ints = on(Feature::Ints) || on(Feature::Mixed) || on(Feature::Strings);
        let reals = on(Feature::Reals) || on(Feature::Mixed);
        if ints {
            universe.push(SortRef::INT);
        }
        if reals {
            universe.push(SortRef::REAL);
        }
        let bvs: Vec<SortRef> =
            if on(Feature::Bv) { config.widths.iter().map(|&w| sorts.bv(w)).collect() } else { vec![] };
        universe.extend(&bvs);
        if on(Feature::Fp) {
            universe.push(SortRef::RM);
            for &(e, s) in &config.formats {
                universe.push(sorts.intern(SortKind::Float(e, s)));
            }
        }
        if on(Feature::Strings) {
            universe.extend([SortRef::STRING, SortRef::REGLAN]);
        }
        let mut printed = FxHashMap::default();
        let mut decls = String::new();
        let mut extra: Vec<Construct> = vec![];
        let mut nullary: FxHashMap<SortRef, Vec<String>> = FxHashMap::default();
        let mut binders: Vec<SortRef> =
            universe.iter().copied().filter(|&s| s != SortRef::REGLAN && s != SortRef::RM).collect();
        // Uninterpreted: a sort `U`, and per sort S of {U, Int, Real, first BV}: f: S S -> S,
        // p: S -> Bool (UF combined with the arithmetic or bit-vectors enabled).
        if on(Feature::Uf) {
            let u = sorts.intern(SortKind::Con("U".into(), vec![]));
            printed.insert(u, "U".to_string());
            decls.push_str("(declare-sort U 0)\n");
            universe.push(u);
            binders.push(u);
            let mut over = vec![u];
            over.extend(universe.iter().copied().filter(|&s| s == SortRef::INT || s == SortRef::REAL));
            over.extend(bvs.first());
            for (i, &s) in over.iter().enumerate() {
                let st = sort_text(&sorts, &printed, s);
                let _ = writeln!(decls, "(declare-fun f{i} ({st} {st}) {st})\n(declare-fun p{i} ({st}) Bool)");
                extra.push(plain(&format!("f{i}"), vec![s, s], s));
                extra.push(plain(&format!("p{i}"), vec![s], SortRef::BOOL));
            }
        }
        if on(Feature::Datatypes) {
            // A recursive list over the first element sort, and an enumeration.
            let elem = [SortRef::INT, SortRef::REAL]
                .into_iter()
                .find(|s| universe.contains(s))
                .or(bvs.first().copied())
                .unwrap_or(SortRef::BOOL);
            let lst = sorts.intern(SortKind::Con("Lst".into(), vec![]));
            let color = sorts.intern(SortKind::Con("Color".into(), vec![]));
            printed.insert(lst, "Lst".into());
            printed.insert(color, "Color".into());
            let et = sort_text(&sorts, &printed, elem);
            let _ = writeln!(
                decls,
                "(declare-datatypes ((Lst 0) (Color 0)) (((nil) (cons (hd {et}) (tl Lst))) ((red) (green) (blue))))"
            );
            universe.extend([lst, color]);
            binders.push(lst);
            extra.push(plain("cons", vec![elem, lst], lst));
            extra.push(plain("hd", vec![lst], elem));
            extra.push(plain("tl", vec![lst], lst));
            for (c, s) in [("nil", lst), ("cons", lst), ("red", color), ("green", color)] {
                let mut k = plain("is", vec![s], SortRef::BOOL);
                k.head = format!("(_ is {c})");
                extra.push(k);
            }
            nullary.entry(lst).or_default().push("nil".into());
            nullary.entry(color).or_default().extend(["red".into(), "green".into(), "blue".into()]);
        }
        if on(Feature::Arrays) {
            // Arrays over the enabled index/element sorts (Int if nothing else is).
            if !universe.contains(&SortRef::INT) && !reals && bvs.is_empty() {
                universe.push(SortRef::INT);
            }
            let mut arrays = vec![];
            if universe.contains(&SortRef::INT) {
                arrays.push((SortRef::INT, SortRef::INT));
                if reals {
                    arrays.push((SortRef::INT, SortRef::REAL));
                }
            } else if reals {
                arrays.push((SortRef::REAL, SortRef::REAL));
            }
            if let Some(&b) = bvs.first() {
                arrays.push((b, b));
            }
            for (i, e) in arrays {
                let a = sorts.intern(SortKind::Con("Array".into(), vec![i, e]));
                universe.push(a);
            }
        }
        // Instantiate the table.
        let index_max = config.widths.iter().chain(config.formats.iter().flat_map(|(e, s)| [e, s])).copied().max();
        let index_max = index_max.unwrap_or(8).clamp(4, 64);
        let enabled = |t: Theory| match t {
            Theory::Core => true,
            Theory::Ints => universe.contains(&SortRef::INT),
            Theory::Reals => reals,
            Theory::RealsInts => on(Feature::Mixed),
            Theory::BitVectors => on(Feature::Bv),
            Theory::FloatingPoint => on(Feature::Fp),
            Theory::Strings => on(Feature::Strings),
            Theory::ArraysEx => on(Feature::Arrays),
            _ => false,
        };
        let in_universe: BTreeSet<SortRef> = universe.iter().copied().collect();
        let mut constructs = vec![];
        for sig in &theory::table().sigs {
            if sig.dialect.is_some() || !enabled(sig.theory) || NOT_PORTABLE.contains(&sig.name) {
                continue;
            }
            for (head, args, result) in instantiate(sig, &mut sorts, &universe, &in_universe, index_max) {
                if args.is_empty() {
                    nullary.entry(result).or_default().push(head);
                    continue;
                }
                let nonlinear = crate::mutate::opfuzz::NONLINEAR.contains(&sig.name) && args.len() >= 2;
                // `(op a b c)` abbreviates `(op (op a b) c)` (left-assoc), `(op a (op b
                // c))` (right-assoc) or a conjunction of pairs (chainable, pairwise): a
                // third argument is well-sorted only when those nestings are (not for
                // `concat`, whose result is wider than its arguments).
                let variadic = match sig.shape {
                    Shape::Fixed => false,
                    Shape::LeftAssoc => args[0] == result,
                    Shape::RightAssoc => args[args.len() - 1] == result,
                    Shape::Chainable | Shape::Pairwise => args.windows(2).all(|w| w[0] == w[1]),
                };
                constructs.push(Construct {
                    op: sig.name.to_string(),
                    head,
                    variadic,
                    literals_from: if sig.name == "re.range" {
                        0
                    } else if config.linear && nonlinear {
                        1
                    } else {
                        usize::MAX
                    },
                    args,
                    result,
                });
            }
        }
        constructs.extend(extra);
        let mut ops: Vec<String> = constructs.iter().map(|c| c.op.clone()).collect();
        if on(Feature::Quantifiers) {
            ops.extend(["exists".to_string(), "forall".to_string()]);
        }
        ops.sort();
        ops.dedup();
        let mut by_op = vec![vec![]; ops.len()];
        let mut by_result: FxHashMap<SortRef, Vec<Vec<usize>>> = FxHashMap::default();
        for (i, c) in constructs.iter().enumerate() {
            let o = ops.binary_search(&c.op).expect("listed");
            by_op[o].push(i);
            let groups = by_result.entry(c.result).or_default();
            match groups.iter_mut().find(|g| constructs[g[0]].op == c.op) {
                Some(g) => g.push(i),
                None => groups.push(vec![i]),
            }
        }
        // Variables: `vars` per sort, named by sort.
        let mut vars: FxHashMap<SortRef, Vec<String>> = FxHashMap::default();
        for (k, &s) in universe.iter().enumerate() {
            if s == SortRef::REGLAN || s == SortRef::RM {
                continue; // no variables of these: literals suffice, and cvc5 rejects RegLan constants
            }
            let st = sort_text(&sorts, &printed, s);
            for i in 0..config.vars {
                let name = format!("{}{i}", var_prefix(k, sorts.kind(s)));
                let _ = writeln!(decls, "(declare-const {name} {st})");
                vars.entry(s).or_default().push(name);
            }
        }
        let has = |f: &dyn Fn(&SortKind) -> bool| universe.iter().any(|&s| f(sorts.kind(s)));
        let logic = logic::name(&logic::Features {
            quantifiers: on(Feature::Quantifiers),
            arrays: on(Feature::Arrays),
            uf: on(Feature::Uf),
            datatypes: on(Feature::Datatypes),
            bv: has(&|k| matches!(k, SortKind::BitVec(_))),
            fp: on(Feature::Fp),
            strings: on(Feature::Strings),
            ints: universe.contains(&SortRef::INT),
            reals,
            nonlinear: !config.linear,
        });
        Ok(Grammar {
            config,
            sorts,
            universe,
            constructs,
            ops,
            by_op,
            by_result,
            nullary,
            vars,
            binders,
            declarations: decls,
            logic,
            printed,
        })
    }

    /// The SMT-LIB text of a sort of this grammar.
    pub fn sort_text(&self, s: SortRef) -> String {
        sort_text(&self.sorts, &self.printed, s)
    }

    /// The grammar sort written `text` (as the checker prints it), if any.
    pub fn sort_named(&self, text: &str) -> Option<SortRef> {
        self.universe.iter().copied().find(|&s| self.sort_text(s) == text)
    }

    /// A whole script: logic, declarations, `asserts` assertions, `(check-sat)`.
    pub fn script(&self, c: &mut impl Choices) -> Option<String> {
        let mut asserts = vec![];
        for _ in 0..self.config.asserts {
            asserts.push(self.term(SortRef::BOOL, self.config.depth, c)?);
        }
        Some(self.assemble(&asserts))
    }

    /// A script from assertion texts.
    pub fn assemble(&self, asserts: &[String]) -> String {
        let mut out = format!("(set-logic {})\n{}", self.logic, self.declarations);
        for a in asserts {
            let _ = writeln!(out, "(assert {a})");
        }
        out.push_str("(check-sat)\n");
        out
    }

    /// A full term of sort `s` and depth `depth` (0: a leaf).
    pub fn term(&self, s: SortRef, depth: usize, c: &mut impl Choices) -> Option<String> {
        let mut g = Gen { g: self, bound: vec![], next_bound: 0 };
        let mut out = String::new();
        g.term(s, depth, c, &mut out)?;
        Some(out)
    }

    /// A full term of depth `depth` rooted at operator `op` (the BanditFuzz construct),
    /// of sort `want` when given. `None` when no instantiation of `op` has that sort (or
    /// the source ran out). Quantifiers bind fresh variables named `q<first_bound>...`.
    pub fn rooted(
        &self,
        op: &str,
        want: Option<SortRef>,
        depth: usize,
        first_bound: usize,
        c: &mut impl Choices,
    ) -> Option<String> {
        let depth = depth.max(1);
        let mut g = Gen { g: self, bound: vec![], next_bound: first_bound };
        let mut out = String::new();
        if op == "forall" || op == "exists" {
            if want.is_some_and(|w| w != SortRef::BOOL) || !self.config.features.contains(&Feature::Quantifiers) {
                return None;
            }
            g.quantifier(op, depth, c, &mut out)?;
            return Some(out);
        }
        let o = self.ops.binary_search_by(|x| x.as_str().cmp(op)).ok()?;
        let fits: Vec<usize> =
            self.by_op[o].iter().copied().filter(|&k| want.is_none_or(|w| self.constructs[k].result == w)).collect();
        if fits.is_empty() {
            return None;
        }
        let k = fits[c.below(fits.len())?];
        g.apply(k, depth, c, &mut out)?;
        Some(out)
    }

    /// Result sorts `op` can produce.
    pub fn results_of(&self, op: &str) -> Vec<SortRef> {
        if op == "forall" || op == "exists" {
            return vec![SortRef::BOOL];
        }
        let Ok(o) = self.ops.binary_search_by(|x| x.as_str().cmp(op)) else { return vec![] };
        let mut v: Vec<SortRef> = self.by_op[o].iter().map(|&k| self.constructs[k].result).collect();
        v.sort();
        v.dedup();
        v
    }
}

fn plain(name: &str, args: Vec<SortRef>, result: SortRef) -> Construct {
    Construct { op: name.into(), head: name.into(), args, result, variadic: false, literals_from: usize::MAX }
}

fn var_prefix(k: usize, kind: &SortKind) -> String {
    match kind {
        SortKind::Bool => "b".into(),
        SortKind::Int => "i".into(),
        SortKind::Real => "r".into(),
        SortKind::String => "s".into(),
        SortKind::BitVec(w) => format!("v{w}_"),
        SortKind::Float(e, s) => format!("f{e}_{s}_"),
        SortKind::Con(n, a) if a.is_empty() => n.to_lowercase(),
        _ => format!("x{k}_"),
    }
}

fn sort_text(sorts: &Sorts, printed: &FxHashMap<SortRef, String>, s: SortRef) -> String {
    printed.get(&s).cloned().unwrap_or_else(|| sorts.display(s))
}

/// Every instantiation of `sig` whose argument and result sorts are in the universe:
/// sort parameters range over the universe (not RegLan), width variables over the
/// enabled widths and format sizes, indices over `0..=index_max`.
fn instantiate(
    sig: &OpSig,
    sorts: &mut Sorts,
    universe: &[SortRef],
    in_universe: &BTreeSet<SortRef>,
    index_max: u64,
) -> Vec<(String, Vec<SortRef>, SortRef)> {
    let mut sizes: BTreeSet<u64> = BTreeSet::new();
    for &s in universe {
        match *sorts.kind(s) {
            SortKind::BitVec(w) => {
                sizes.insert(w);
            }
            SortKind::Float(e, sg) => {
                sizes.insert(e);
                sizes.insert(sg);
            }
            _ => {}
        }
    }
    let params: Vec<SortRef> = universe.iter().copied().filter(|&s| s != SortRef::REGLAN).collect();
    let nw = sig.width_vars as usize;
    let ns = sig.sort_vars as usize;
    let domains: Vec<Vec<u64>> = (0..nw)
        .map(|v| if v < sig.indices as usize { (0..=index_max).collect() } else { sizes.iter().copied().collect() })
        .collect();
    if domains.iter().any(|d| d.is_empty()) && nw > 0 {
        return vec![];
    }
    let mut out = vec![];
    let mut wi = vec![0usize; nw];
    'widths: loop {
        let env: Vec<Option<u64>> = (0..8).map(|v| (v < nw).then(|| domains[v][wi[v]])).collect();
        if sig.constraints_hold(&env) {
            let mut si = vec![0usize; ns];
            'sorts: loop {
                let se: Vec<Option<SortRef>> = si.iter().map(|&i| Some(params[i])).collect();
                // Function sorts (`->`) are never in the universe: higher-order
                // parameters are not generated.
                let inst = |p: &SortPat, sorts: &mut Sorts| sorts.instantiate(p, &env, &se);
                let args: Option<Vec<SortRef>> = sig.params.iter().map(|p| inst(p, sorts)).collect();
                let result = inst(&sig.result, sorts);
                if let (Some(args), Some(result)) = (args, result) {
                    if args.iter().chain([&result]).all(|s| in_universe.contains(s)) {
                        let head = if sig.indices == 0 {
                            sig.name.to_string()
                        } else {
                            let idx: Vec<String> =
                                (0..sig.indices as usize).map(|v| env[v].unwrap().to_string()).collect();
                            format!("(_ {} {})", sig.name, idx.join(" "))
                        };
                        out.push((head, args, result));
                    }
                }
                // next sort assignment
                let mut k = 0;
                loop {
                    if k == ns {
                        break 'sorts;
                    }
                    si[k] += 1;
                    if si[k] < params.len() {
                        break;
                    }
                    si[k] = 0;
                    k += 1;
                }
            }
        }
        let mut k = 0;
        loop {
            if k == nw {
                break 'widths;
            }
            wi[k] += 1;
            if wi[k] < domains[k].len() {
                break;
            }
            wi[k] = 0;
            k += 1;
        }
    }
    out
}

/// One generation: the grammar plus the quantifier-bound variables in scope.
struct Gen<'a> {
    g: &'a Grammar,
    bound: Vec<(String, SortRef)>,
    next_bound: usize,
}

impl Gen<'_> {
    fn term(&mut self, s: SortRef, depth: usize, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let groups = self.g.by_result.get(&s);
        let quant = s == SortRef::BOOL && depth >= 2 && self.g.config.features.contains(&Feature::Quantifiers);
        let n = groups.map_or(0, |g| g.len()) + if quant { 1 } else { 0 };
        if depth == 0 || n == 0 {
            return self.leaf(s, c, out);
        }
        // Uniform over operator names first, so that `extract`'s many instantiations
        // do not crowd out `bvadd`.
        let pick = c.below(n)?;
        match groups.and_then(|g| g.get(pick)) {
            Some(group) => {
                let k = group[c.below(group.len())?];
                self.apply(k, depth, c, out)
            }
            None => {
                let q = if c.below(2)? == 0 { "forall" } else { "exists" };
                self.quantifier(q, depth, c, out)
            }
        }
    }

    fn apply(&mut self, k: usize, depth: usize, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let k = &self.g.constructs[k];
        let extra = if k.variadic && c.below(4)? == 0 { 1 } else { 0 };
        out.push('(');
        out.push_str(&k.head);
        let last = *k.args.last().expect("non-nullary");
        for (i, &a) in k.args.iter().chain(std::iter::repeat_n(&last, extra)).enumerate() {
            out.push(' ');
            if i >= k.literals_from {
                self.literal(a, i > 0, c, out)?;
            } else {
                self.term(a, depth - 1, c, out)?;
            }
        }
        out.push(')');
        Some(())
    }

    fn quantifier(&mut self, q: &str, depth: usize, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let nvars = 1 + c.below(2)?;
        let _ = write!(out, "({q} (");
        let before = self.bound.len();
        for i in 0..nvars {
            let s = self.g.binders[c.below(self.g.binders.len())?];
            let name = format!("q{}", self.next_bound);
            self.next_bound += 1;
            let _ = write!(out, "{}({name} {})", if i > 0 { " " } else { "" }, self.g.sort_text(s));
            self.bound.push((name, s));
        }
        out.push_str(") ");
        self.term(SortRef::BOOL, depth - 1, c, out)?;
        out.push(')');
        self.bound.truncate(before);
        Some(())
    }

    fn leaf(&mut self, s: SortRef, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let globals = self.g.vars.get(&s).map_or(&[][..], |v| &v[..]);
        let locals: Vec<&str> = self.bound.iter().filter(|(_, b)| *b == s).map(|(n, _)| n.as_str()).collect();
        let nvars = globals.len() + locals.len();
        // Variables two times in three, where there are any.
        if nvars > 0 && c.below(3)? != 0 {
            let i = c.below(nvars)?;
            out.push_str(if i < globals.len() { &globals[i] } else { locals[i - globals.len()] });
            return Some(());
        }
        self.literal(s, false, c, out)
    }

    /// A literal (or nullary constant) of sort `s`; `nonzero` for divisors.
    fn literal(&mut self, s: SortRef, nonzero: bool, c: &mut impl Choices, out: &mut String) -> Option<()> {
        let g = self.g;
        let nullary = g.nullary.get(&s).map_or(&[][..], |v| &v[..]);
        let small = |c: &mut dyn FnMut(usize) -> Option<usize>| -> Option<u64> {
            Some(match c(8)? {
                0..=5 => c(10)? as u64,
                6 => 10 + c(90)? as u64,
                _ => 100 + c(100_000)? as u64,
            })
        };
        match g.sorts.kind(s).clone() {
            SortKind::Bool => out.push_str(["true", "false"][c.below(2)?]),
            SortKind::Int => {
                let mut n = small(&mut |k| c.below(k))?;
                if nonzero && n == 0 {
                    n = 1 + c.below(9)? as u64;
                }
                // Negative values come from the unary `-` construct: a leaf stays a leaf.
                let _ = write!(out, "{n}");
            }
            SortKind::Real => {
                let mut n = small(&mut |k| c.below(k))?;
                let frac = [0, 5, 25, 1][c.below(4)?];
                if nonzero && n == 0 && frac == 0 {
                    n = 1;
                }
                let _ = write!(out, "{n}.{frac}");
            }
            SortKind::BitVec(w) => {
                let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                let v = match c.below(4)? {
                    0 => 0,
                    1 => 1,
                    2 => mask,
                    _ => ((c.below(1 << 16)? as u64) << 16 | c.below(1 << 16)? as u64) & mask,
                };
                let v = if nonzero && v == 0 { 1 } else { v };
                if w % 4 == 0 && c.below(2)? == 0 {
                    let _ = write!(out, "#x{:0width$x}", v, width = (w / 4) as usize);
                } else if c.below(2)? == 0 {
                    let _ = write!(out, "#b{:0width$b}", v, width = w as usize);
                } else {
                    let _ = write!(out, "(_ bv{v} {w})");
                }
            }
            SortKind::Float(e, sg) => {
                if !nullary.is_empty() && c.below(3)? == 0 {
                    out.push_str(&nullary[c.below(nullary.len())?]);
                } else {
                    let bits = |n: u64, c: &mut dyn FnMut(usize) -> Option<usize>| -> Option<String> {
                        (0..n).map(|_| c(2).map(|b| if b == 1 { '1' } else { '0' })).collect()
                    };
                    let sign = bits(1, &mut |k| c.below(k))?;
                    let exp = bits(e, &mut |k| c.below(k))?;
                    let sig = bits(sg - 1, &mut |k| c.below(k))?;
                    let _ = write!(out, "(fp #b{sign} #b{exp} #b{sig})");
                }
            }
            SortKind::String => {
                const STRS: [&str; 8] = ["", "a", "b", "ab", "0", "10", "aba", "\\u{48}"];
                let _ = write!(out, "\"{}\"", STRS[c.below(STRS.len())?]);
            }
            SortKind::RegLan => {
                if c.below(2)? == 0 && !nullary.is_empty() {
                    out.push_str(&nullary[c.below(nullary.len())?]);
                } else {
                    const STRS: [&str; 4] = ["a", "b", "ab", "0"];
                    let _ = write!(out, "(str.to_re \"{}\")", STRS[c.below(STRS.len())?]);
                }
            }
            _ => {
                if !nullary.is_empty() {
                    out.push_str(&nullary[c.below(nullary.len())?]);
                } else {
                    // Uninterpreted sorts have no literals, and constant arrays are not
                    // read by cvc5's default array solver: a variable (always declared).
                    let v = g.vars.get(&s)?;
                    out.push_str(&v[c.below(v.len())?]);
                }
            }
        }
        Some(())
    }
}

/// `smtstorm generate`'s engine: `count` scripts from `seed`, seed `seed + i` each.
pub fn scripts(g: &Grammar, seed: u64, count: usize) -> impl Iterator<Item = (u64, String)> + '_ {
    (0..count as u64).filter_map(move |i| {
        let s = seed.wrapping_add(i);
        g.script(&mut Rng::new(s)).map(|t| (s, t))
    })
}

#[cfg(test)]
mod tests;
