//! What of a script a solver is sent: a seed written for one solver reaches the others
//! without the options and commands they would reject, with a logic where they need one
//! ([`Family::without_foreign_options`], [`SolverSpec::own_script`]).

use super::{Family, OptionOwners, SolverSpec};

impl Family {
    /// `s` without the `set-option`s this family rejects ([`Family::rejects_option`] under
    /// `owners`) and
    /// the commands no solver is sent ([`super::sandbox::never_sent`]),
    /// and with z3's `(check-sat-using T)` as a plain `(check-sat)` where the family
    /// rejects that command (a tactic says how z3 should solve, not what; STORM's tactic
    /// instances ask every solver the same question), or `None` when nothing changes: a
    /// script tuned for one solver stays readable by others.
    pub fn without_foreign_options(
        self,
        s: &crate::smtlib::Script,
        owners: &OptionOwners,
        allowed: Option<&super::family::AllowTable>,
    ) -> Option<crate::smtlib::Script> {
        use crate::smtlib::ast::{CommandKind, Nullary};
        // Options that write files go for every family ([`super::sandbox`]).
        // And what this family's own option table does not allow ([`super::allow`]).
        // A `set-option` is printed once (this runs for every mutant and family).
        let foreign = |s: &crate::smtlib::Script, c: &crate::smtlib::ast::Command| {
            super::sandbox::prints_seed_text(s, c)
                || super::sandbox::set_option(s, c).is_some_and(|(k, v)| {
                    self.rejects_option(&k, owners)
                        || super::sandbox::writes_files(&k, &v)
                        || super::allow::allows(allowed, &k, &v) == Some(false)
                })
        };
        let lower = !self.reads_check_sat_using();
        let tactic = |s: &crate::smtlib::Script, c: &crate::smtlib::ast::Command| {
            lower && matches!(c.kind, CommandKind::Other { name, .. } if s.str(name) == "check-sat-using")
        };
        let logic = self.logic_for(s);
        if logic.is_none() && !s.commands.iter().any(|c| foreign(s, c) || tactic(s, c)) {
            return None;
        }
        let mut out = s.clone();
        out.retain_commands(|s, c| !foreign(s, c));
        if let Some(l) = logic {
            let name = out.intern(&l);
            let own = out.commands.iter().filter(|c| matches!(c.kind, CommandKind::SetLogic(_))).count();
            if own > 1 {
                // A script that sets its logic again after a `(reset)` keeps each in place.
                for c in &mut out.commands {
                    if matches!(c.kind, CommandKind::SetLogic(_)) {
                        c.kind = CommandKind::SetLogic(name);
                    }
                }
            } else {
                // After the leading options and infos, wherever the script had its own:
                // some options (`:produce-models`) may only be set before the logic
                // (SMT-LIB 2.6 §4.1.7, start mode), and cvc5's suite sets them after
                // `(set-logic QF_ALL)`.
                out.retain_commands(|_, c| !matches!(c.kind, CommandKind::SetLogic(_)));
                let at = out
                    .commands
                    .iter()
                    .position(|c| {
                        !matches!(
                            c.kind,
                            CommandKind::SetOption(_)
                                | CommandKind::SetInfo(_)
                                | CommandKind::GetOption(_)
                                | CommandKind::Echo(_)
                                | CommandKind::Nullary(Nullary::Reset)
                        )
                    })
                    .unwrap_or(out.commands.len());
                out.insert_command(at, CommandKind::SetLogic(name));
            }
        }
        let at: Vec<usize> = (0..out.commands.len()).filter(|&i| tactic(&out, &out.commands[i])).collect();
        for i in at {
            out.commands[i].kind = CommandKind::Nullary(Nullary::CheckSat);
        }
        Some(out)
    }
}

impl SolverSpec {
    /// `s` as this solver is sent it: without the options and commands its family
    /// rejects ([`Family::without_foreign_options`] under the run's option tables,
    /// [`SolverSpec::option_owners`]), borrowed when nothing changes.
    pub fn own_script<'a>(&self, s: &'a crate::smtlib::Script) -> std::borrow::Cow<'a, crate::smtlib::Script> {
        match self.without_foreign_options(s) {
            Some(own) => std::borrow::Cow::Owned(own),
            None => std::borrow::Cow::Borrowed(s),
        }
    }

    /// [`Family::without_foreign_options`] of this solver's family under the run's option
    /// tables ([`SolverSpec::option_owners`]).
    pub fn without_foreign_options(&self, s: &crate::smtlib::Script) -> Option<crate::smtlib::Script> {
        self.family.without_foreign_options(s, &self.option_owners, super::allow::table(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_route_seeds_to_solvers_that_read_them() {
        let parse = |t: &str| crate::smtlib::parse(t).unwrap();
        let none = OptionOwners::default();
        let z3ish = parse("(declare-const x Int)\n(define-const y Int 1)\n(check-sat)");
        assert_eq!(Family::Z3.cannot_read(&z3ish), None);
        assert_eq!(Family::Cvc5.cannot_read(&z3ish).as_deref(), Some("command define-const"));
        // z3's tactic checks reach other solvers as plain check-sats; z3 keeps them.
        let tactic = parse("(set-option :smt.arith.solver 2)(declare-const x Int)(assert (> x 0))(check-sat-using (then simplify smt))");
        assert_eq!(Family::Z3.without_foreign_options(&tactic, &none, None), None);
        let lowered = Family::Yices.without_foreign_options(&tactic, &none, None).unwrap();
        // ... and yices, which needs a logic, gets one inferred from the sorts.
        assert_eq!(
            crate::smtlib::print(&lowered),
            "(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n"
        );
        assert_eq!(Family::Cvc5.without_foreign_options(&tactic, &none, None).unwrap().logic(), None);
        assert_eq!(crate::smtlib::checks(&lowered), 1);
        assert_eq!(crate::smtlib::checks(&tactic), 1);
        let legacy = parse("(declare-datatypes () ((C r g)))");
        assert_eq!(Family::Yices.cannot_read(&legacy).as_deref(), Some("z3's legacy declare-datatypes"));
        let strings = parse("(set-logic QF_SLIA)");
        assert_eq!(Family::Yices.cannot_read(&strings).as_deref(), Some("logic QF_SLIA (S)"));
        assert_eq!(Family::Bitwuzla.cannot_read(&parse("(set-logic QF_ALIA)")).as_deref(), Some("logic QF_ALIA (LIA)"));
        assert_eq!(Family::Bitwuzla.cannot_read(&parse("(set-logic QF_ABV)")), None);
        assert_eq!(Family::Cvc5.cannot_read(&parse("(get-abduct A true)")), None);
        // Issue 22, item 3: cvc5's own logic names become standard ones, after the options
        // that must come first; nothing standard names higher-order terms or sets.
        let qf_all = parse("(set-logic QF_ALL)(set-option :produce-models true)(declare-fun f (Int) Real)(assert (> (f 1) (* (f 2) (f 3))))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&qf_all).as_deref(), Some("QF_UFNIRA"));
        let own = crate::smtlib::print(&Family::Bitwuzla.without_foreign_options(&qf_all, &none, None).unwrap());
        assert!(own.starts_with("(set-option :produce-models true)\n(set-logic QF_UFNIRA)\n"), "{own}");
        assert_eq!(Family::Bitwuzla.cannot_read(&qf_all).as_deref(), Some("logic QF_UFNIRA (NIRA)"));
        assert_eq!(Family::Z3.logic_for(&qf_all), None);
        assert_eq!(Family::Yices.logic_for(&parse("(set-logic QF_LIA)(declare-const x Int)")), None);
        let sets = parse("(set-logic QF_ALL)(declare-const A (Set Int))(assert (set.member 1 A))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&sets), None);
        let ho =
            parse("(set-logic HO_ALL)(declare-fun f (Int) Int)(declare-fun g (Int) Int)(assert (= f g))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&ho), None);
        let twice = parse("(set-logic QF_ALL)(declare-const x Int)(assert (> x 0))(check-sat)(reset)(set-logic QF_ALL)(declare-const y Int)(assert (> y x))(check-sat)");
        let own = crate::smtlib::print(&Family::Yices.without_foreign_options(&twice, &none, None).unwrap());
        assert_eq!(own.matches("(set-logic QF_LIA)").count(), 2, "{own}");
        assert!(own.find("(reset)") < own.rfind("(set-logic"), "{own}");
        let div0 = parse("(declare-const x Int)(assert (= x (mod 3 0)))(check-sat)");
        assert_eq!(Family::Yices.logic_for(&div0).as_deref(), Some("QF_NIA"));
        assert!(Family::Z3.cannot_read(&parse("(get-abduct A true)")).is_some());
    }
}
