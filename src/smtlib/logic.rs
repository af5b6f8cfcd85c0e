//! SMT-LIB logic names from the features a script uses (SMT-LIB 2.6 §5.5 and the logic
//! catalogue): `QF_` unless quantified, then `A`, `UF`, `DT`, `BV`, `FP`, `S`, and `L`/`N`
//! with `IA`/`RA`/`IRA`. The reducer names the logic a trigger still needs from this; the
//! generator names the logic of what it can produce. z3 and cvc5 both accept every
//! combination (z3 rejects a sort the name leaves out: `Int` under `QF_BVDT`).

/// What a script uses, as far as the logic name is concerned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub quantifiers: bool,
    pub arrays: bool,
    pub uf: bool,
    pub datatypes: bool,
    pub bv: bool,
    pub fp: bool,
    pub strings: bool,
    pub ints: bool,
    pub reals: bool,
    pub nonlinear: bool,
}

/// The logic name covering `f`.
pub fn name(f: &Features) -> String {
    let mut name = String::new();
    if !f.quantifiers {
        name.push_str("QF_");
    }
    for (on, part) in [(f.arrays, "A"), (f.uf, "UF"), (f.datatypes, "DT"), (f.bv, "BV"), (f.fp, "FP"), (f.strings, "S")]
    {
        if on {
            name.push_str(part);
        }
    }
    if f.ints || f.reals {
        name.push(if f.nonlinear { 'N' } else { 'L' });
        name.push_str(match (f.ints, f.reals) {
            (true, true) => "IRA",
            (true, false) => "IA",
            _ => "RA",
        });
    }
    if name == "QF_" || name.is_empty() {
        name.push_str("UF");
    }
    if name == "QF_A" {
        name = "QF_AX".into();
    }
    // z3 knows strings only under QF_S, QF_SLIA and QF_SNIA (a String constant under
    // QF_ASLIA or SLIA is "unknown sort"); anything richer is ALL for both solvers.
    if f.strings && !["QF_S", "QF_SLIA", "QF_SNIA"].contains(&name.as_str()) {
        name = "ALL".into();
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_catalogue() {
        let f = |g: fn(&mut Features)| {
            let mut x = Features::default();
            g(&mut x);
            name(&x)
        };
        assert_eq!(f(|_| {}), "QF_UF");
        assert_eq!(f(|x| x.bv = true), "QF_BV");
        assert_eq!(f(|x| x.ints = true), "QF_LIA");
        assert_eq!(f(|x| (x.ints, x.nonlinear, x.quantifiers) = (true, true, true)), "NIA");
        assert_eq!(f(|x| (x.arrays, x.uf, x.ints) = (true, true, true)), "QF_AUFLIA");
        assert_eq!(f(|x| (x.strings, x.ints) = (true, true)), "QF_SLIA");
        assert_eq!(f(|x| (x.strings, x.ints, x.arrays) = (true, true, true)), "ALL");
        assert_eq!(f(|x| (x.ints, x.reals) = (true, true)), "QF_LIRA");
        assert_eq!(f(|x| x.arrays = true), "QF_AX");
        assert_eq!(f(|x| x.quantifiers = true), "UF");
    }
}
