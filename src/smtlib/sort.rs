//! Interned sorts: what the sort checker gives every term, and what the mutators,
//! the generator and the reducer read. A sort is a [`SortRef`] into one script's [`Sorts`].

use super::theory::SortPat;
use rustc_hash::FxHashMap;

/// Sorts nested deeper than this are reported and treated as unknown.
pub const MAX_SORT_DEPTH: usize = 200;

/// An interned sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortRef(pub u32);

/// The structure of an interned sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortKind {
    Bool,
    Int,
    Real,
    String,
    RegLan,
    RoundingMode,
    Unknown,
    BitVec(u64),
    Float(u64, u64),
    /// A sort constructor applied to sorts: `Array`, `Seq`, `Set`, `Bag`, declared sorts,
    /// datatypes.
    Con(Box<str>, Vec<SortRef>),
    /// The i-th sort parameter of a parametric declaration.
    Param(u32),
}

impl SortRef {
    pub const BOOL: SortRef = SortRef(0);
    pub const INT: SortRef = SortRef(1);
    pub const REAL: SortRef = SortRef(2);
    pub const STRING: SortRef = SortRef(3);
    pub const REGLAN: SortRef = SortRef(4);
    pub const RM: SortRef = SortRef(5);
    pub const UNKNOWN: SortRef = SortRef(6);
}

/// Interning table of sorts.
#[derive(Clone, Debug)]
pub struct Sorts {
    kinds: Vec<SortKind>,
    map: FxHashMap<SortKind, SortRef>,
    /// `BitVec(w)` for small widths, without hashing (bit-vector results are frequent).
    bv_small: Vec<SortRef>,
    /// Constructor names, and `[name id, arg ids...]` → sort: lookups without allocating.
    con_names: FxHashMap<Box<str>, u32>,
    con_map: FxHashMap<Vec<u32>, SortRef>,
    scratch: Vec<u32>,
}

impl Default for Sorts {
    fn default() -> Self {
        let mut s = Sorts {
            kinds: vec![],
            map: FxHashMap::default(),
            bv_small: vec![],
            con_names: FxHashMap::default(),
            con_map: FxHashMap::default(),
            scratch: vec![],
        };
        // The base sorts occupy ids 0..7 and are matched in `intern` without hashing.
        s.kinds.extend(BASE_SORTS.iter().cloned());
        s
    }
}

const BASE_SORTS: [SortKind; 7] = [
    SortKind::Bool,
    SortKind::Int,
    SortKind::Real,
    SortKind::String,
    SortKind::RegLan,
    SortKind::RoundingMode,
    SortKind::Unknown,
];

impl Sorts {
    pub fn intern(&mut self, k: SortKind) -> SortRef {
        match k {
            SortKind::Bool => return SortRef::BOOL,
            SortKind::Int => return SortRef::INT,
            SortKind::Real => return SortRef::REAL,
            SortKind::String => return SortRef::STRING,
            SortKind::RegLan => return SortRef::REGLAN,
            SortKind::RoundingMode => return SortRef::RM,
            SortKind::Unknown => return SortRef::UNKNOWN,
            _ => {}
        }
        if let Some(&r) = self.map.get(&k) {
            return r;
        }
        let r = SortRef(self.kinds.len() as u32);
        self.kinds.push(k.clone());
        self.map.insert(k, r);
        r
    }
    pub fn kind(&self, r: SortRef) -> &SortKind {
        &self.kinds[r.0 as usize]
    }
    pub fn bv(&mut self, w: u64) -> SortRef {
        const SMALL: u64 = 256;
        if w >= SMALL {
            return self.intern(SortKind::BitVec(w));
        }
        if let Some(&r) = self.bv_small.get(w as usize) {
            if r != SortRef::UNKNOWN {
                return r;
            }
        } else {
            self.bv_small.resize(w as usize + 1, SortRef::UNKNOWN);
        }
        let r = self.intern(SortKind::BitVec(w));
        self.bv_small[w as usize] = r;
        r
    }
    /// The sort a signature pattern denotes under width and sort-parameter assignments
    /// (`None` where one is unassigned, or a bit-vector width is 0). Shared by the sort
    /// checker and the generator, which instantiates the table over a universe of sorts.
    pub fn instantiate(&mut self, p: &SortPat, w: &[Option<u64>], se: &[Option<SortRef>]) -> Option<SortRef> {
        Some(match p {
            SortPat::Bool => SortRef::BOOL,
            SortPat::Int => SortRef::INT,
            SortPat::Real => SortRef::REAL,
            SortPat::String => SortRef::STRING,
            SortPat::RegLan => SortRef::REGLAN,
            SortPat::RoundingMode => SortRef::RM,
            SortPat::BitVec(e) => self.bv(e.eval(w).filter(|&v| v > 0)?),
            SortPat::Float(e, s) => self.intern(SortKind::Float(e.eval(w)?, s.eval(w)?)),
            SortPat::Param(i) => (*se.get(*i as usize)?)?,
            SortPat::Con(n, ps) => {
                let mut args = vec![];
                for p in ps {
                    args.push(self.instantiate(p, w, se)?);
                }
                self.con(n, args)
            }
        })
    }

    pub(crate) fn con(&mut self, name: &str, args: Vec<SortRef>) -> SortRef {
        self.con_slice(name, &args)
    }
    pub(crate) fn con_slice(&mut self, name: &str, args: &[SortRef]) -> SortRef {
        let id = match self.con_names.get(name) {
            Some(&id) => id,
            None => {
                let id = self.con_names.len() as u32;
                self.con_names.insert(name.into(), id);
                id
            }
        };
        self.scratch.clear();
        self.scratch.push(id);
        self.scratch.extend(args.iter().map(|a| a.0));
        if let Some(&r) = self.con_map.get(self.scratch.as_slice()) {
            return r;
        }
        let r = self.intern(SortKind::Con(name.into(), args.to_vec()));
        self.con_map.insert(self.scratch.clone(), r);
        r
    }

    /// SMT-LIB text of a sort (for messages and printing models).
    pub fn display(&self, r: SortRef) -> String {
        let mut out = String::new();
        self.write(r, &mut out, 0);
        out
    }
    fn write(&self, r: SortRef, out: &mut String, depth: usize) {
        if depth > MAX_SORT_DEPTH {
            out.push_str("...");
            return;
        }
        match self.kind(r) {
            SortKind::Bool => out.push_str("Bool"),
            SortKind::Int => out.push_str("Int"),
            SortKind::Real => out.push_str("Real"),
            SortKind::String => out.push_str("String"),
            SortKind::RegLan => out.push_str("RegLan"),
            SortKind::RoundingMode => out.push_str("RoundingMode"),
            SortKind::Unknown => out.push('?'),
            SortKind::BitVec(w) => out.push_str(&format!("(_ BitVec {w})")),
            SortKind::Float(e, s) => out.push_str(&format!("(_ FloatingPoint {e} {s})")),
            SortKind::Param(i) => out.push_str(&format!("?T{i}")),
            SortKind::Con(n, args) => {
                if args.is_empty() {
                    out.push_str(n);
                } else {
                    out.push('(');
                    out.push_str(n);
                    for &a in args {
                        out.push(' ');
                        self.write(a, out, depth + 1);
                    }
                    out.push(')');
                }
            }
        }
    }
}
