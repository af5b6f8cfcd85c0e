//! The grammar of one [`Config`]: the signature table instantiated over the sorts it
//! enables, plus what a script declares itself (uninterpreted sorts and functions,
//! datatypes), indexed by operator and by result sort.

use super::config::{Config, Feature, GenError, NOT_PORTABLE};
use super::Gen;
use crate::mutate::choice::Choices;
use crate::smtlib::logic;
use crate::smtlib::sort::{SortKind, SortRef, Sorts};
use crate::smtlib::theory::{self, OpSig, Shape, SortPat, Theory};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use std::fmt::Write as _;

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
    pub(super) by_op: Vec<Vec<usize>>,
    /// result sort → op index → constructs.
    pub(super) by_result: FxHashMap<SortRef, Vec<Vec<usize>>>,
    /// Nullary constants of a sort (`true`, `RNE`, `re.allchar`, `(_ +zero 5 11)`, `nil`).
    pub(super) nullary: FxHashMap<SortRef, Vec<String>>,
    pub(super) vars: FxHashMap<SortRef, Vec<String>>,
    /// Sorts a quantifier may bind.
    pub(super) binders: Vec<SortRef>,
    /// The declarations after `set-logic`.
    pub declarations: String,
    pub logic: String,
    /// name → sort text, for sorts the script declares (`U`, `Lst`, `Color`).
    pub(super) printed: FxHashMap<SortRef, String>,
}

impl Grammar {
    pub fn new(config: Config) -> Result<Grammar, GenError> {
        let config = config.validated()?;
        let on = |f: Feature| config.features.contains(&f);
        let mut p = Parts::base(&config);
        if on(Feature::Uf) {
            p.add_uf();
        }
        if on(Feature::Datatypes) {
            p.add_datatypes();
        }
        if on(Feature::Arrays) {
            p.add_arrays();
        }
        let mut constructs = p.table_constructs(&config);
        constructs.append(&mut p.extra);
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
        let vars = p.declare_vars(config.vars);
        let logic = p.logic(&config);
        Ok(Grammar {
            config,
            sorts: p.sorts,
            universe: p.universe,
            constructs,
            ops,
            by_op,
            by_result,
            nullary: p.nullary,
            vars,
            binders: p.binders,
            declarations: p.decls,
            logic,
            printed: p.printed,
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

/// The sorts, declarations and extra constructs a grammar is built from, before the
/// signature table is instantiated over them and the constructs are indexed.
struct Parts {
    sorts: Sorts,
    universe: Vec<SortRef>,
    bvs: Vec<SortRef>,
    reals: bool,
    pub(super) printed: FxHashMap<SortRef, String>,
    decls: String,
    extra: Vec<Construct>,
    pub(super) nullary: FxHashMap<SortRef, Vec<String>>,
    pub(super) binders: Vec<SortRef>,
    features: BTreeSet<Feature>,
}

impl Parts {
    /// The theory sorts the configuration enables.
    fn base(config: &Config) -> Parts {
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
        let binders = universe.iter().copied().filter(|&s| s != SortRef::REGLAN && s != SortRef::RM).collect();
        Parts {
            sorts,
            universe,
            bvs,
            reals,
            printed: FxHashMap::default(),
            decls: String::new(),
            extra: vec![],
            nullary: FxHashMap::default(),
            binders,
            features: config.features.clone(),
        }
    }

    fn on(&self, f: Feature) -> bool {
        self.features.contains(&f)
    }

    /// Uninterpreted: a sort `U`, and per sort S of {U, Int, Real, first BV}: f: S S -> S,
    /// p: S -> Bool (UF combined with the arithmetic or bit-vectors enabled).
    fn add_uf(&mut self) {
        let u = self.sorts.intern(SortKind::Con("U".into(), vec![]));
        self.printed.insert(u, "U".to_string());
        self.decls.push_str("(declare-sort U 0)\n");
        self.universe.push(u);
        self.binders.push(u);
        let mut over = vec![u];
        over.extend(self.universe.iter().copied().filter(|&s| s == SortRef::INT || s == SortRef::REAL));
        over.extend(self.bvs.first());
        for (i, &s) in over.iter().enumerate() {
            let st = sort_text(&self.sorts, &self.printed, s);
            let _ = writeln!(self.decls, "(declare-fun f{i} ({st} {st}) {st})\n(declare-fun p{i} ({st}) Bool)");
            self.extra.push(plain(&format!("f{i}"), vec![s, s], s));
            self.extra.push(plain(&format!("p{i}"), vec![s], SortRef::BOOL));
        }
    }

    /// A recursive list over the first element sort, and an enumeration.
    fn add_datatypes(&mut self) {
        let elem = [SortRef::INT, SortRef::REAL]
            .into_iter()
            .find(|s| self.universe.contains(s))
            .or(self.bvs.first().copied())
            .unwrap_or(SortRef::BOOL);
        let lst = self.sorts.intern(SortKind::Con("Lst".into(), vec![]));
        let color = self.sorts.intern(SortKind::Con("Color".into(), vec![]));
        self.printed.insert(lst, "Lst".into());
        self.printed.insert(color, "Color".into());
        let et = sort_text(&self.sorts, &self.printed, elem);
        let _ = writeln!(
            self.decls,
            "(declare-datatypes ((Lst 0) (Color 0)) (((nil) (cons (hd {et}) (tl Lst))) ((red) (green) (blue))))"
        );
        self.universe.extend([lst, color]);
        self.binders.push(lst);
        self.extra.push(plain("cons", vec![elem, lst], lst));
        self.extra.push(plain("hd", vec![lst], elem));
        self.extra.push(plain("tl", vec![lst], lst));
        for (c, s) in [("nil", lst), ("cons", lst), ("red", color), ("green", color)] {
            let mut k = plain("is", vec![s], SortRef::BOOL);
            k.head = format!("(_ is {c})");
            self.extra.push(k);
        }
        self.nullary.entry(lst).or_default().push("nil".into());
        self.nullary.entry(color).or_default().extend(["red".into(), "green".into(), "blue".into()]);
    }

    /// Arrays over the enabled index/element sorts (Int if nothing else is).
    fn add_arrays(&mut self) {
        if !self.universe.contains(&SortRef::INT) && !self.reals && self.bvs.is_empty() {
            self.universe.push(SortRef::INT);
        }
        let mut arrays = vec![];
        if self.universe.contains(&SortRef::INT) {
            arrays.push((SortRef::INT, SortRef::INT));
            if self.reals {
                arrays.push((SortRef::INT, SortRef::REAL));
            }
        } else if self.reals {
            arrays.push((SortRef::REAL, SortRef::REAL));
        }
        if let Some(&b) = self.bvs.first() {
            arrays.push((b, b));
        }
        for (i, e) in arrays {
            let a = self.sorts.intern(SortKind::Con("Array".into(), vec![i, e]));
            self.universe.push(a);
        }
    }

    /// The signature table instantiated over the universe; nullary instances become
    /// leaves.
    fn table_constructs(&mut self, config: &Config) -> Vec<Construct> {
        let index_max = config.widths.iter().chain(config.formats.iter().flat_map(|(e, s)| [e, s])).copied().max();
        let index_max = index_max.unwrap_or(8).clamp(4, 64);
        let enabled = |t: Theory| match t {
            Theory::Core => true,
            Theory::Ints => self.universe.contains(&SortRef::INT),
            Theory::Reals => self.reals,
            Theory::RealsInts => self.on(Feature::Mixed),
            Theory::BitVectors => self.on(Feature::Bv),
            Theory::FloatingPoint => self.on(Feature::Fp),
            Theory::Strings => self.on(Feature::Strings),
            Theory::ArraysEx => self.on(Feature::Arrays),
            _ => false,
        };
        let sigs: Vec<&OpSig> = theory::table()
            .sigs
            .iter()
            .filter(|sig| sig.dialect.is_none() && enabled(sig.theory) && !NOT_PORTABLE.contains(&sig.name))
            .collect();
        let in_universe: BTreeSet<SortRef> = self.universe.iter().copied().collect();
        let mut constructs = vec![];
        for sig in sigs {
            for (head, args, result) in instantiate(sig, &mut self.sorts, &self.universe, &in_universe, index_max) {
                if args.is_empty() {
                    self.nullary.entry(result).or_default().push(head);
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
        constructs
    }

    /// `per_sort` variables of every sort, named by sort, declared after the sorts.
    fn declare_vars(&mut self, per_sort: usize) -> FxHashMap<SortRef, Vec<String>> {
        let mut vars: FxHashMap<SortRef, Vec<String>> = FxHashMap::default();
        for (k, &s) in self.universe.iter().enumerate() {
            if s == SortRef::REGLAN || s == SortRef::RM {
                continue; // no variables of these: literals suffice, and cvc5 rejects RegLan constants
            }
            let st = sort_text(&self.sorts, &self.printed, s);
            for i in 0..per_sort {
                let name = format!("{}{i}", var_prefix(k, self.sorts.kind(s)));
                let _ = writeln!(self.decls, "(declare-const {name} {st})");
                vars.entry(s).or_default().push(name);
            }
        }
        vars
    }

    /// The narrowest SMT-LIB logic of what the grammar generates.
    fn logic(&self, config: &Config) -> String {
        let has = |f: &dyn Fn(&SortKind) -> bool| self.universe.iter().any(|&s| f(self.sorts.kind(s)));
        logic::name(&logic::Features {
            quantifiers: self.on(Feature::Quantifiers),
            arrays: self.on(Feature::Arrays),
            uf: self.on(Feature::Uf),
            datatypes: self.on(Feature::Datatypes),
            bv: has(&|k| matches!(k, SortKind::BitVec(_))),
            fp: self.on(Feature::Fp),
            strings: self.on(Feature::Strings),
            ints: self.universe.contains(&SortRef::INT),
            reals: self.reals,
            nonlinear: !config.linear,
        })
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
