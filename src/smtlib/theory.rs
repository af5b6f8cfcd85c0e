//! Theory signature tables: the one place where smtstorm knows SMT-LIB's operators.
//!
//! The sort checker, OpFuzz's operator classes, the BanditFuzz grammar and the fuzzing
//! dictionary (`smtstorm dict`) are all derived from [`SIGNATURES`]. Each line is
//!
//! ```text
//! theory shape name [index-names] : arg-sorts -> result-sort [| constraints]
//! ```
//!
//! * `theory` may carry `+dialect` (`bv+z3`, `str+cvc5`, `str+legacy`): the operator is a
//!   solver extension or a pre-2.6 name; engines do not introduce it into a seed that does
//!   not already use it (another solver would reject the mutant).
//! * `shape` (SMT-LIB 2.6 §3.6.1 attributes): `fixed`, `left` (`:left-assoc`), `right`
//!   (`:right-assoc`), `chain` (`:chainable`), `pair` (`:pairwise`). Associative and
//!   chainable entries give the binary signature.
//! * Sorts are SMT-LIB sorts whose indices may be width variables: a lower-case name is
//!   a width (bound from an argument, or an index of the identifier when listed after the
//!   name), and width expressions use `+ - *` (`(_ BitVec i-j+1)`); an upper-case single
//!   letter (`A`, `B`) is a sort parameter.
//! * Constraints on indices and widths, e.g. `i<m j<=i` for `extract`.
//!
//! Overloaded names have one line per signature; the checker takes the first that fits.
//! `Real` parameters also accept `Int` arguments, as z3 and cvc5 do (mixed arithmetic).

use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// The theories of the table. `Z3`/`Cvc5` mark solver extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Theory {
    Core,
    Ints,
    Reals,
    RealsInts,
    BitVectors,
    FloatingPoint,
    Strings,
    ArraysEx,
    Seq,
    Sets,
    Bags,
    Transcendentals,
    SepLogic,
    FiniteFields,
    Nullables,
}

impl Theory {
    fn from_tag(s: &str) -> Option<Theory> {
        Some(match s {
            "core" => Theory::Core,
            "ints" => Theory::Ints,
            "reals" => Theory::Reals,
            "mixed" => Theory::RealsInts,
            "bv" => Theory::BitVectors,
            "fp" => Theory::FloatingPoint,
            "str" => Theory::Strings,
            "array" => Theory::ArraysEx,
            "seq" => Theory::Seq,
            "set" => Theory::Sets,
            "bag" => Theory::Bags,
            "trans" => Theory::Transcendentals,
            "sep" => Theory::SepLogic,
            "ff" => Theory::FiniteFields,
            "null" => Theory::Nullables,
            _ => return None,
        })
    }
}

/// How an operator takes more than its declared arguments (SMT-LIB 2.6 §3.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Shape {
    Fixed,
    LeftAssoc,
    RightAssoc,
    Chainable,
    Pairwise,
}

/// A width expression over width variables (indices and widths bound from arguments).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WExpr {
    Const(u64),
    Var(u8),
    Add(Box<WExpr>, Box<WExpr>),
    Sub(Box<WExpr>, Box<WExpr>),
    Mul(Box<WExpr>, Box<WExpr>),
}

impl WExpr {
    /// Evaluates under `env` (width variable → value); `None` if a variable is unbound
    /// or the value would be negative.
    pub fn eval(&self, env: &[Option<u64>]) -> Option<u64> {
        match self {
            WExpr::Const(c) => Some(*c),
            WExpr::Var(v) => env.get(*v as usize).copied().flatten(),
            WExpr::Add(a, b) => a.eval(env)?.checked_add(b.eval(env)?),
            WExpr::Sub(a, b) => a.eval(env)?.checked_sub(b.eval(env)?),
            WExpr::Mul(a, b) => a.eval(env)?.checked_mul(b.eval(env)?),
        }
    }
}

/// A sort pattern of a signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortPat {
    Bool,
    Int,
    Real,
    String,
    RegLan,
    RoundingMode,
    BitVec(WExpr),
    Float(WExpr, WExpr),
    /// A parametric sort constructor applied to patterns: `Array`, `Seq`, `Set`, `Bag`.
    Con(&'static str, Vec<SortPat>),
    /// A sort parameter (`A` = 0, `B` = 1, ...).
    Param(u8),
}

/// A constraint `lhs op rhs` between width expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub lhs: WExpr,
    pub op: &'static str,
    pub rhs: WExpr,
}

/// One operator signature.
#[derive(Clone, Debug)]
pub struct OpSig {
    pub theory: Theory,
    pub shape: Shape,
    pub name: &'static str,
    /// Number of numeral indices: `(_ extract i j)` has 2. Indices are width variables
    /// 0..indices.
    pub indices: u8,
    pub params: Vec<SortPat>,
    pub result: SortPat,
    pub constraints: Vec<Constraint>,
    /// Number of width variables used (indices first).
    pub width_vars: u8,
    /// Number of sort parameters used.
    pub sort_vars: u8,
    /// `z3`, `cvc5` or `legacy` for solver extensions and pre-2.6 names; `None` for
    /// SMT-LIB 2.6 operators.
    pub dialect: Option<&'static str>,
    /// The line of [`SIGNATURES`] it came from.
    pub source: &'static str,
}

impl OpSig {
    /// Checks the index constraints under `env`.
    pub fn constraints_hold(&self, env: &[Option<u64>]) -> bool {
        self.constraints.iter().all(|c| match (c.lhs.eval(env), c.rhs.eval(env)) {
            (Some(a), Some(b)) => match c.op {
                "<" => a < b,
                "<=" => a <= b,
                ">" => a > b,
                ">=" => a >= b,
                _ => a == b,
            },
            _ => true,
        })
    }
}

/// The table. See the module documentation for the line format.
pub const SIGNATURES: &str = r#"
# ---- Core (SMT-LIB 2.6 Core theory) ----
core fixed true : -> Bool
core fixed false : -> Bool
core fixed not : Bool -> Bool
core right => : Bool Bool -> Bool
core left and : Bool Bool -> Bool
core left or : Bool Bool -> Bool
core left xor : Bool Bool -> Bool
core chain = : A A -> Bool
core pair distinct : A A -> Bool
core fixed ite : Bool A A -> A
# ---- Ints ----
ints fixed - : Int -> Int
ints left - : Int Int -> Int
ints left + : Int Int -> Int
ints left * : Int Int -> Int
ints left div : Int Int -> Int
ints fixed mod : Int Int -> Int
ints fixed abs : Int -> Int
ints chain <= : Int Int -> Bool
ints chain < : Int Int -> Bool
ints chain >= : Int Int -> Bool
ints chain > : Int Int -> Bool
ints fixed divisible n : Int -> Bool | n>0
# z3: rem and power; cvc5: int.pow2, iand
ints+z3 fixed rem : Int Int -> Int
ints+z3 fixed ^ : Int Int -> Int
ints+cvc5 fixed int.pow2 : Int -> Int
ints+cvc5 fixed iand n : Int Int -> Int | n>0
ints+cvc5 fixed piand : Int Int Int -> Int
ints+cvc5 fixed int.log2 : Int -> Int
# ---- Reals ----
reals fixed - : Real -> Real
reals left - : Real Real -> Real
reals left + : Real Real -> Real
reals left * : Real Real -> Real
reals left / : Real Real -> Real
reals chain <= : Real Real -> Bool
reals chain < : Real Real -> Bool
reals chain >= : Real Real -> Bool
reals chain > : Real Real -> Bool
reals+z3 fixed ^ : Real Real -> Real
reals fixed abs : Real -> Real
# ---- Reals_Ints ----
mixed fixed to_real : Int -> Real
mixed fixed to_int : Real -> Int
mixed fixed is_int : Real -> Bool
# ---- FixedSizeBitVectors / QF_BV logic ----
bv left concat : (_ BitVec m) (_ BitVec n) -> (_ BitVec m+n)
bv fixed extract i j : (_ BitVec m) -> (_ BitVec i-j+1) | i<m j<=i
bv fixed repeat i : (_ BitVec m) -> (_ BitVec m*i) | i>=1
bv fixed zero_extend i : (_ BitVec m) -> (_ BitVec m+i)
bv fixed sign_extend i : (_ BitVec m) -> (_ BitVec m+i)
bv fixed rotate_left i : (_ BitVec m) -> (_ BitVec m)
bv fixed rotate_right i : (_ BitVec m) -> (_ BitVec m)
bv fixed bvnot : (_ BitVec m) -> (_ BitVec m)
bv fixed bvneg : (_ BitVec m) -> (_ BitVec m)
bv left bvand : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv left bvor : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv left bvxor : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv left bvadd : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv left bvmul : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvsub : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvnand : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvnor : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvxnor : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvudiv : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvurem : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvsdiv : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvsrem : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvsmod : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvshl : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvlshr : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvashr : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv fixed bvcomp : (_ BitVec m) (_ BitVec m) -> (_ BitVec 1)
bv fixed bvult : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvule : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvugt : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvuge : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvslt : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvsle : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvsgt : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvsge : (_ BitVec m) (_ BitVec m) -> Bool
# overflow predicates (SMT-LIB 2.7) and z3's older names
bv fixed bvnego : (_ BitVec m) -> Bool
bv fixed bvuaddo : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvsaddo : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvumulo : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvsmulo : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvusubo : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvssubo : (_ BitVec m) (_ BitVec m) -> Bool
bv fixed bvsdivo : (_ BitVec m) (_ BitVec m) -> Bool
bv+z3 fixed bvumul_noovfl : (_ BitVec m) (_ BitVec m) -> Bool
bv+z3 fixed bvsmul_noovfl : (_ BitVec m) (_ BitVec m) -> Bool
bv+z3 fixed bvsmul_noudfl : (_ BitVec m) (_ BitVec m) -> Bool
# conversions
bv fixed bv2nat : (_ BitVec m) -> Int
bv fixed ubv_to_int : (_ BitVec m) -> Int
bv fixed sbv_to_int : (_ BitVec m) -> Int
bv+z3 fixed bv2int : (_ BitVec m) -> Int
bv fixed nat2bv i : Int -> (_ BitVec i) | i>=1
bv fixed int_to_bv i : Int -> (_ BitVec i) | i>=1
bv+z3 fixed int2bv i : Int -> (_ BitVec i) | i>=1
# z3 and cvc5 extensions
bv+z3 fixed bvredor : (_ BitVec m) -> (_ BitVec 1)
bv+z3 fixed bvredand : (_ BitVec m) -> (_ BitVec 1)
bv+z3 fixed ext_rotate_left : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv+z3 fixed ext_rotate_right : (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
bv+cvc5 fixed bvultbv : (_ BitVec m) (_ BitVec m) -> (_ BitVec 1)
bv+cvc5 fixed bvsltbv : (_ BitVec m) (_ BitVec m) -> (_ BitVec 1)
bv+cvc5 fixed bvite : (_ BitVec 1) (_ BitVec m) (_ BitVec m) -> (_ BitVec m)
# ---- FloatingPoint ----
fp fixed RNE : -> RoundingMode
fp fixed RNA : -> RoundingMode
fp fixed RTP : -> RoundingMode
fp fixed RTN : -> RoundingMode
fp fixed RTZ : -> RoundingMode
fp fixed roundNearestTiesToEven : -> RoundingMode
fp fixed roundNearestTiesToAway : -> RoundingMode
fp fixed roundTowardPositive : -> RoundingMode
fp fixed roundTowardNegative : -> RoundingMode
fp fixed roundTowardZero : -> RoundingMode
fp fixed fp : (_ BitVec 1) (_ BitVec e) (_ BitVec s) -> (_ FloatingPoint e s+1) | e>=2 s>=1
fp fixed +oo e s : -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed -oo e s : -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed +zero e s : -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed -zero e s : -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed NaN e s : -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed fp.abs : (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.neg : (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.add : RoundingMode (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.sub : RoundingMode (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.mul : RoundingMode (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.div : RoundingMode (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.fma : RoundingMode (_ FloatingPoint e s) (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.sqrt : RoundingMode (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.roundToIntegral : RoundingMode (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.rem : (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.min : (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp fixed fp.max : (_ FloatingPoint e s) (_ FloatingPoint e s) -> (_ FloatingPoint e s)
fp chain fp.leq : (_ FloatingPoint e s) (_ FloatingPoint e s) -> Bool
fp chain fp.lt : (_ FloatingPoint e s) (_ FloatingPoint e s) -> Bool
fp chain fp.geq : (_ FloatingPoint e s) (_ FloatingPoint e s) -> Bool
fp chain fp.gt : (_ FloatingPoint e s) (_ FloatingPoint e s) -> Bool
fp chain fp.eq : (_ FloatingPoint e s) (_ FloatingPoint e s) -> Bool
fp fixed fp.isNormal : (_ FloatingPoint e s) -> Bool
fp fixed fp.isSubnormal : (_ FloatingPoint e s) -> Bool
fp fixed fp.isZero : (_ FloatingPoint e s) -> Bool
fp fixed fp.isInfinite : (_ FloatingPoint e s) -> Bool
fp fixed fp.isNaN : (_ FloatingPoint e s) -> Bool
fp fixed fp.isNegative : (_ FloatingPoint e s) -> Bool
fp fixed fp.isPositive : (_ FloatingPoint e s) -> Bool
fp fixed to_fp e s : (_ BitVec e+s) -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed to_fp e s : RoundingMode (_ FloatingPoint m n) -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed to_fp e s : RoundingMode Real -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed to_fp e s : RoundingMode (_ BitVec m) -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed to_fp_unsigned e s : RoundingMode (_ BitVec m) -> (_ FloatingPoint e s) | e>=2 s>=2
fp fixed fp.to_ubv i : RoundingMode (_ FloatingPoint e s) -> (_ BitVec i) | i>=1
fp fixed fp.to_sbv i : RoundingMode (_ FloatingPoint e s) -> (_ BitVec i) | i>=1
fp fixed fp.to_real : (_ FloatingPoint e s) -> Real
fp+z3 fixed fp.to_ieee_bv : (_ FloatingPoint e s) -> (_ BitVec e+s)
# ---- Strings and RegLan (2.6 names, then legacy names) ----
str left str.++ : String String -> String
str fixed str.len : String -> Int
# SMT-LIB 2.6 makes str.< and str.<= :chainable; z3 5.4 and cvc5 1.4 read only two
# arguments, and the table records what solvers read.
str fixed str.< : String String -> Bool
str fixed str.<= : String String -> Bool
str fixed str.at : String Int -> String
str fixed str.substr : String Int Int -> String
str fixed str.prefixof : String String -> Bool
str fixed str.suffixof : String String -> Bool
str fixed str.contains : String String -> Bool
str fixed str.indexof : String String Int -> Int
str fixed str.replace : String String String -> String
str fixed str.replace_all : String String String -> String
str fixed str.replace_re : String RegLan String -> String
str fixed str.replace_re_all : String RegLan String -> String
str fixed str.is_digit : String -> Bool
str fixed str.to_code : String -> Int
str fixed str.from_code : Int -> String
str fixed str.to_int : String -> Int
str fixed str.from_int : Int -> String
str fixed str.in_re : String RegLan -> Bool
str fixed str.to_re : String -> RegLan
str fixed re.none : -> RegLan
str fixed re.all : -> RegLan
str fixed re.allchar : -> RegLan
str left re.++ : RegLan RegLan -> RegLan
str left re.union : RegLan RegLan -> RegLan
str left re.inter : RegLan RegLan -> RegLan
str left re.diff : RegLan RegLan -> RegLan
str fixed re.* : RegLan -> RegLan
str fixed re.+ : RegLan -> RegLan
str fixed re.opt : RegLan -> RegLan
str fixed re.comp : RegLan -> RegLan
str fixed re.range : String String -> RegLan
str fixed re.loop i j : RegLan -> RegLan
str fixed re.^ i : RegLan -> RegLan
str+cvc5 fixed str.rev : String -> String
str+cvc5 fixed str.to_lower : String -> String
str+cvc5 fixed str.to_upper : String -> String
str+cvc5 fixed str.update : String Int String -> String
str+cvc5 fixed str.indexof_re : String RegLan Int -> Int
str+legacy fixed str.to.int : String -> Int
str+legacy fixed int.to.str : Int -> String
str+legacy fixed str.in.re : String RegLan -> Bool
str+legacy fixed str.to.re : String -> RegLan
str+legacy fixed str.code : String -> Int
str+legacy fixed str.tolower : String -> String
str+legacy fixed str.toupper : String -> String
str+legacy fixed re.nostr : -> RegLan
str+legacy fixed re.loop : RegLan Int Int -> RegLan
str+legacy fixed re.loop : RegLan Int -> RegLan
# ---- ArraysEx ----
array fixed select : (Array A B) A -> B
array fixed store : (Array A B) A B -> (Array A B)
array fixed eqrange : (Array A B) (Array A B) A A -> Bool
# ---- Sequences (cvc5 and z3) ----
seq left seq.++ : (Seq A) (Seq A) -> (Seq A)
seq fixed seq.len : (Seq A) -> Int
seq fixed seq.unit : A -> (Seq A)
seq fixed seq.empty : -> (Seq A)
seq fixed seq.nth : (Seq A) Int -> A
seq fixed seq.at : (Seq A) Int -> (Seq A)
seq fixed seq.extract : (Seq A) Int Int -> (Seq A)
seq fixed seq.contains : (Seq A) (Seq A) -> Bool
seq fixed seq.prefixof : (Seq A) (Seq A) -> Bool
seq fixed seq.suffixof : (Seq A) (Seq A) -> Bool
seq fixed seq.indexof : (Seq A) (Seq A) Int -> Int
seq fixed seq.replace : (Seq A) (Seq A) (Seq A) -> (Seq A)
seq+cvc5 fixed seq.replace_all : (Seq A) (Seq A) (Seq A) -> (Seq A)
seq+cvc5 fixed seq.rev : (Seq A) -> (Seq A)
seq+cvc5 fixed seq.update : (Seq A) Int (Seq A) -> (Seq A)
# cvc5 also accepts the str.* names on sequences
seq+cvc5 left str.++ : (Seq A) (Seq A) -> (Seq A)
seq+cvc5 fixed str.len : (Seq A) -> Int
seq+cvc5 fixed str.at : (Seq A) Int -> (Seq A)
seq+cvc5 fixed str.substr : (Seq A) Int Int -> (Seq A)
seq+cvc5 fixed str.contains : (Seq A) (Seq A) -> Bool
seq+cvc5 fixed str.prefixof : (Seq A) (Seq A) -> Bool
seq+cvc5 fixed str.suffixof : (Seq A) (Seq A) -> Bool
seq+cvc5 fixed str.indexof : (Seq A) (Seq A) Int -> Int
seq+cvc5 fixed str.replace : (Seq A) (Seq A) (Seq A) -> (Seq A)
seq+cvc5 fixed str.replace_all : (Seq A) (Seq A) (Seq A) -> (Seq A)
seq+cvc5 fixed str.update : (Seq A) Int (Seq A) -> (Seq A)
seq+cvc5 fixed str.rev : (Seq A) -> (Seq A)
# ---- Sets (cvc5, 1.0 names then CVC4's names, which cvc5 1.x no longer reads) ----
set+cvc5 left set.union : (Set A) (Set A) -> (Set A)
set+cvc5 left set.inter : (Set A) (Set A) -> (Set A)
set+cvc5 fixed set.minus : (Set A) (Set A) -> (Set A)
set+cvc5 fixed set.member : A (Set A) -> Bool
set+cvc5 fixed set.subset : (Set A) (Set A) -> Bool
set+cvc5 fixed set.empty : -> (Set A)
set+cvc5 fixed set.universe : -> (Set A)
set+cvc5 fixed set.singleton : A -> (Set A)
set+cvc5 fixed set.card : (Set A) -> Int
set+cvc5 fixed set.complement : (Set A) -> (Set A)
set+cvc5 fixed set.choose : (Set A) -> A
set+cvc5 fixed set.is_empty : (Set A) -> Bool
set+cvc5 fixed set.is_singleton : (Set A) -> Bool
set+cvc5 fixed set.filter : (-> A Bool) (Set A) -> (Set A)
set+cvc5 fixed set.map : (-> A B) (Set A) -> (Set B)
set+cvc5 fixed set.all : (-> A Bool) (Set A) -> Bool
set+cvc5 fixed set.some : (-> A Bool) (Set A) -> Bool
set+cvc5 fixed set.fold : (-> A B B) B (Set A) -> B
set+legacy left union : (Set A) (Set A) -> (Set A)
set+legacy left intersection : (Set A) (Set A) -> (Set A)
set+legacy fixed setminus : (Set A) (Set A) -> (Set A)
set+legacy fixed member : A (Set A) -> Bool
set+legacy fixed subset : (Set A) (Set A) -> Bool
set+legacy fixed emptyset : -> (Set A)
set+legacy fixed univset : -> (Set A)
set+legacy fixed singleton : A -> (Set A)
set+legacy fixed card : (Set A) -> Int
set+legacy fixed complement : (Set A) -> (Set A)
set+legacy fixed choose : (Set A) -> A
# ---- Bags (cvc5) ----
bag+cvc5 fixed bag : A Int -> (Bag A)
bag+cvc5 fixed bag.empty : -> (Bag A)
bag+cvc5 left bag.union_max : (Bag A) (Bag A) -> (Bag A)
bag+cvc5 left bag.union_disjoint : (Bag A) (Bag A) -> (Bag A)
bag+cvc5 left bag.inter_min : (Bag A) (Bag A) -> (Bag A)
bag+cvc5 fixed bag.difference_subtract : (Bag A) (Bag A) -> (Bag A)
bag+cvc5 fixed bag.difference_remove : (Bag A) (Bag A) -> (Bag A)
bag+cvc5 fixed bag.subbag : (Bag A) (Bag A) -> Bool
bag+cvc5 fixed bag.count : A (Bag A) -> Int
bag+cvc5 fixed bag.member : A (Bag A) -> Bool
bag+cvc5 fixed bag.duplicate_removal : (Bag A) -> (Bag A)
bag+cvc5 fixed bag.card : (Bag A) -> Int
bag+cvc5 fixed bag.choose : (Bag A) -> A
bag+cvc5 fixed bag.setof : (Bag A) -> (Bag A)
bag+cvc5 fixed bag.is_singleton : (Bag A) -> Bool
bag+cvc5 fixed bag.map : (-> A B) (Bag A) -> (Bag B)
bag+cvc5 fixed bag.filter : (-> A Bool) (Bag A) -> (Bag A)
bag+cvc5 fixed bag.fold : (-> A B B) B (Bag A) -> B
# ---- Transcendentals (cvc5) ----
trans+cvc5 fixed real.pi : -> Real
trans+cvc5 fixed exp : Real -> Real
trans+cvc5 fixed sin : Real -> Real
trans+cvc5 fixed cos : Real -> Real
trans+cvc5 fixed tan : Real -> Real
trans+cvc5 fixed csc : Real -> Real
trans+cvc5 fixed sec : Real -> Real
trans+cvc5 fixed cot : Real -> Real
trans+cvc5 fixed arcsin : Real -> Real
trans+cvc5 fixed arccos : Real -> Real
trans+cvc5 fixed arctan : Real -> Real
trans+cvc5 fixed arccsc : Real -> Real
trans+cvc5 fixed arcsec : Real -> Real
trans+cvc5 fixed arccot : Real -> Real
trans+cvc5 fixed sqrt : Real -> Real
# ---- Separation logic (cvc5; heap sorts come from declare-heap) ----
sep+cvc5 fixed pto : A B -> Bool
sep+cvc5 fixed sep.emp : -> Bool
sep+cvc5 fixed sep.nil : -> A
sep+cvc5 left sep : Bool Bool -> Bool
sep+cvc5 fixed wand : Bool Bool -> Bool
# ---- Finite fields (cvc5): both arguments of one (_ FiniteField p) sort ----
ff+cvc5 left ff.add : A A -> A
ff+cvc5 left ff.mul : A A -> A
ff+cvc5 left ff.bitsum : A A -> A
ff+cvc5 fixed ff.neg : A -> A
# ---- Nullables (cvc5) ----
null+cvc5 fixed nullable.some : A -> (Nullable A)
null+cvc5 fixed nullable.null : -> (Nullable A)
null+cvc5 fixed nullable.val : (Nullable A) -> A
null+cvc5 fixed nullable.is_null : (Nullable A) -> Bool
null+cvc5 fixed nullable.is_some : (Nullable A) -> Bool
"#;

/// Parsed signature table with a by-name index.
pub struct Table {
    pub sigs: Vec<OpSig>,
    by_name: FxHashMap<&'static str, Vec<usize>>,
}

impl Table {
    /// All signatures for a name (indexed or not), in table order.
    pub fn lookup(&'static self, name: &str) -> &'static [usize] {
        self.by_name.get(name).map_or(&[], |v| v.as_slice())
    }
    pub fn sig(&self, i: usize) -> &OpSig {
        &self.sigs[i]
    }
}

/// The signature table, parsed once.
pub fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let sigs = parse_table(SIGNATURES).unwrap_or_else(|e| panic!("theory table: {e}"));
        let mut by_name: FxHashMap<&'static str, Vec<usize>> = FxHashMap::default();
        for (i, s) in sigs.iter().enumerate() {
            by_name.entry(s.name).or_default().push(i);
        }
        Table { sigs, by_name }
    })
}

/// Built-in sort names and their arity (`(_ BitVec n)` and friends are indexed).
pub const BUILTIN_SORTS: &[(&str, usize)] = &[
    ("Bool", 0),
    ("Int", 0),
    ("Real", 0),
    ("String", 0),
    ("RegLan", 0),
    ("RoundingMode", 0),
    ("Float16", 0),
    ("Float32", 0),
    ("Float64", 0),
    ("Float128", 0),
    ("Array", 2),
    ("Seq", 1),
    ("Set", 1),
    ("Bag", 1),
    ("Nullable", 1),
];

/// Indexed built-in sorts: `(_ BitVec n)`, `(_ FloatingPoint e s)`.
pub const INDEXED_SORTS: &[(&str, usize)] = &[("BitVec", 1), ("FloatingPoint", 2), ("FiniteField", 1)];

/// A malformed line of the signature table: which line, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}: {line}")]
pub struct TableError {
    pub line: &'static str,
    pub message: String,
}

/// Parses the table text. Public so that a test can report a malformed line precisely.
pub fn parse_table(text: &'static str) -> Result<Vec<OpSig>, TableError> {
    let mut out = vec![];
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|message| TableError { line, message })?);
    }
    Ok(out)
}

struct Vars {
    width: Vec<&'static str>,
    sort: Vec<&'static str>,
}

impl Vars {
    fn width(&mut self, n: &'static str) -> u8 {
        match self.width.iter().position(|&w| w == n) {
            Some(i) => i as u8,
            None => {
                self.width.push(n);
                self.width.len() as u8 - 1
            }
        }
    }
    fn sort(&mut self, n: &'static str) -> u8 {
        match self.sort.iter().position(|&w| w == n) {
            Some(i) => i as u8,
            None => {
                self.sort.push(n);
                self.sort.len() as u8 - 1
            }
        }
    }
}

fn parse_line(line: &'static str) -> Result<OpSig, String> {
    let (head, rest) = line.split_once(" : ").ok_or("missing ' : '")?;
    let (sig, cons) = match rest.split_once(" | ") {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    let mut hw = head.split_whitespace();
    let (tag, dialect) = match hw.next().ok_or("no theory")?.split_once('+') {
        Some((t, d)) => (t, Some(d)),
        None => (line.split_whitespace().next().unwrap_or(""), None),
    };
    if dialect.is_some_and(|d| !matches!(d, "z3" | "cvc5" | "legacy")) {
        return Err("unknown dialect".into());
    }
    let theory = Theory::from_tag(tag).ok_or("unknown theory tag")?;
    let shape = match hw.next().ok_or("no shape")? {
        "fixed" => Shape::Fixed,
        "left" => Shape::LeftAssoc,
        "right" => Shape::RightAssoc,
        "chain" => Shape::Chainable,
        "pair" => Shape::Pairwise,
        _ => return Err("unknown shape".into()),
    };
    let name = hw.next().ok_or("no name")?;
    let mut vars = Vars { width: vec![], sort: vec![] };
    let mut indices = 0u8;
    for ix in hw {
        vars.width(ix);
        indices += 1;
    }
    // ` -> ` separates arguments from the result; `(-> A B)` is a function sort.
    let (args, res) = match sig.strip_prefix("-> ") {
        Some(r) => ("", r),
        None => sig.split_once(" -> ").ok_or("missing ' -> '")?,
    };
    let params = sort_pats(args.trim(), &mut vars)?;
    let mut result = sort_pats(res.trim(), &mut vars)?;
    if result.len() != 1 {
        return Err("result must be one sort".into());
    }
    let mut constraints = vec![];
    if let Some(c) = cons {
        for part in c.split_whitespace() {
            let op = ["<=", ">=", "<", ">", "="].into_iter().find(|op| part.contains(op)).ok_or("bad constraint")?;
            let (l, r) = part.split_once(op).unwrap();
            constraints.push(Constraint { lhs: wexpr(l, &mut vars)?, op, rhs: wexpr(r, &mut vars)? });
        }
    }
    Ok(OpSig {
        theory,
        shape,
        name,
        indices,
        params,
        result: result.pop().unwrap(),
        constraints,
        dialect,
        width_vars: vars.width.len() as u8,
        sort_vars: vars.sort.len() as u8,
        source: line,
    })
}

/// Parses a space-separated sequence of sort patterns.
fn sort_pats(s: &'static str, vars: &mut Vars) -> Result<Vec<SortPat>, String> {
    let toks = tokenize(s);
    let mut pos = 0;
    let mut out = vec![];
    while pos < toks.len() {
        out.push(sort_pat(&toks, &mut pos, vars)?);
    }
    Ok(out)
}

fn tokenize(s: &'static str) -> Vec<&'static str> {
    let mut out = vec![];
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' => i += 1,
            b'(' | b')' => {
                out.push(&s[i..i + 1]);
                i += 1;
            }
            _ => {
                let st = i;
                while i < b.len() && !matches!(b[i], b' ' | b'(' | b')') {
                    i += 1;
                }
                out.push(&s[st..i]);
            }
        }
    }
    out
}

// Table patterns nest at most three deep, so recursion here is bounded by the table.
fn sort_pat(t: &[&'static str], pos: &mut usize, vars: &mut Vars) -> Result<SortPat, String> {
    let tok = *t.get(*pos).ok_or("unexpected end of sort")?;
    *pos += 1;
    match tok {
        "(" => {
            let head = *t.get(*pos).ok_or("empty sort")?;
            *pos += 1;
            let p = if head == "_" {
                let kind = t[*pos];
                *pos += 1;
                match kind {
                    "BitVec" => {
                        let w = wexpr(t[*pos], vars)?;
                        *pos += 1;
                        SortPat::BitVec(w)
                    }
                    "FloatingPoint" => {
                        let e = wexpr(t[*pos], vars)?;
                        let s = wexpr(t[*pos + 1], vars)?;
                        *pos += 2;
                        SortPat::Float(e, s)
                    }
                    _ => return Err(format!("unknown indexed sort {kind}")),
                }
            } else {
                let con = match head {
                    "Array" | "Seq" | "Set" | "Bag" | "Nullable" | "->" => head,
                    _ => return Err(format!("unknown sort constructor {head}")),
                };
                let mut args = vec![];
                while t.get(*pos) != Some(&")") {
                    args.push(sort_pat(t, pos, vars)?);
                }
                SortPat::Con(con, args)
            };
            if t.get(*pos) != Some(&")") {
                return Err("expected ')'".into());
            }
            *pos += 1;
            Ok(p)
        }
        "Bool" => Ok(SortPat::Bool),
        "Int" => Ok(SortPat::Int),
        "Real" => Ok(SortPat::Real),
        "String" => Ok(SortPat::String),
        "RegLan" => Ok(SortPat::RegLan),
        "RoundingMode" => Ok(SortPat::RoundingMode),
        v if v.len() == 1 && v.as_bytes()[0].is_ascii_uppercase() => Ok(SortPat::Param(vars.sort(v))),
        other => Err(format!("unknown sort {other}")),
    }
}

/// `i-j+1`, `m+n`, `m*i`, `e+s`, `1`: left to right, `*` binding tighter.
fn wexpr(s: &'static str, vars: &mut Vars) -> Result<WExpr, String> {
    let mut terms: Vec<(char, WExpr)> = vec![];
    let mut op = '+';
    for (i, part) in s.split_inclusive(['+', '-']).enumerate() {
        let (body, next) = match part.chars().last() {
            Some(c @ ('+' | '-')) if part.len() > 1 || i > 0 => (&part[..part.len() - 1], Some(c)),
            _ => (part, None),
        };
        let mut prod: Option<WExpr> = None;
        for f in body.split('*') {
            let e = if let Ok(c) = f.parse::<u64>() {
                WExpr::Const(c)
            } else if !f.is_empty() && f.bytes().all(|b| b.is_ascii_lowercase()) {
                WExpr::Var(vars.width(f))
            } else {
                return Err(format!("bad width expression {s}"));
            };
            prod = Some(match prod {
                None => e,
                Some(p) => WExpr::Mul(Box::new(p), Box::new(e)),
            });
        }
        terms.push((op, prod.ok_or("empty width")?));
        if let Some(n) = next {
            op = n;
        }
    }
    let mut it = terms.into_iter();
    let mut acc = it.next().ok_or("empty width")?.1;
    for (op, e) in it {
        acc = if op == '+' { WExpr::Add(Box::new(acc), Box::new(e)) } else { WExpr::Sub(Box::new(acc), Box::new(e)) };
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses_and_indexes_every_line() {
        let t = table();
        let lines = SIGNATURES.lines().filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#')).count();
        assert_eq!(t.sigs.len(), lines);
        let ex = &t.sigs[t.lookup("extract")[0]];
        assert_eq!(ex.indices, 2);
        assert_eq!(ex.constraints.len(), 2);
        let env = [Some(7), Some(0), Some(8)];
        let SortPat::BitVec(w) = &ex.result else { panic!() };
        assert_eq!(w.eval(&env), Some(8));
        assert!(ex.constraints_hold(&env));
        assert!(!ex.constraints_hold(&[Some(8), Some(0), Some(8)]));
        assert_eq!(t.lookup("-").len(), 4, "unary and binary minus over Int and Real");
        assert_eq!(t.sigs[t.lookup("distinct")[0]].shape, Shape::Pairwise);
    }

    #[test]
    fn width_expressions_follow_precedence() {
        let mut v = Vars { width: vec![], sort: vec![] };
        let e = wexpr("i-j+1", &mut v).unwrap();
        assert_eq!(e.eval(&[Some(7), Some(3)]), Some(5));
        let e = wexpr("m*i", &mut v).unwrap();
        assert_eq!(v.width, vec!["i", "j", "m"]);
        assert_eq!(e.eval(&[Some(3), None, Some(4)]), Some(12));
    }
}
