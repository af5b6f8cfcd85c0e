//! Command-line values for option structs declared in the library. The generator's,
//! STORM's and BanditFuzz's config structs derive `clap::Args` next to serde, so that
//! each option's flag, help, default and file key are written once (STYLE.md habit 2,
//! wasm-smith's `define_config!`); what they need to parse flags lives here, on the
//! ground floor, so every floor above may use it: names of enum values with one error
//! text, durations and memory sizes checked against one range each, and the defaults of
//! a clap-derived struct.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::ValueEnum;
use std::ffi::OsStr;
use std::marker::PhantomData;

/// The one text for a name that is not among `valid` (engines, strategies, theories).
pub fn unknown<S: AsRef<str>>(kind: &str, name: &str, valid: impl IntoIterator<Item = S>) -> String {
    let valid: Vec<S> = valid.into_iter().collect();
    let valid: Vec<&str> = valid.iter().map(AsRef::as_ref).collect();
    format!("unknown {kind} {name:?}: available: {}", valid.join(", "))
}

/// A [`ValueEnum`] value by its name or an alias; any other name is refused with
/// [`unknown`], listing the values this flag takes (which `--help` lists too).
pub struct Named<E: 'static> {
    kind: &'static str,
    among: Option<&'static [E]>,
    _e: PhantomData<E>,
}

impl<E> Clone for Named<E> {
    fn clone(&self) -> Self {
        Named { kind: self.kind, among: self.among, _e: PhantomData }
    }
}

impl<E: ValueEnum + Clone + Send + Sync + 'static> Named<E> {
    /// Every value of `E`, called a `kind` in errors.
    pub fn new(kind: &'static str) -> Self {
        Named { kind, among: None, _e: PhantomData }
    }
    /// Only the values in `among` (a command that runs some engines only).
    pub fn among(kind: &'static str, among: &'static [E]) -> Self {
        Named { kind, among: Some(among), _e: PhantomData }
    }
    fn values(&self) -> &'static [E] {
        self.among.unwrap_or_else(|| E::value_variants())
    }
    /// The value named `name` (exactly, or one of its aliases).
    pub fn find(&self, name: &str) -> Result<E, String> {
        let hit = |e: &&E| e.to_possible_value().is_some_and(|p| p.matches(name, false));
        self.values().iter().find(hit).cloned().ok_or_else(|| {
            let names = self.values().iter().filter_map(|e| e.to_possible_value());
            unknown(self.kind, name, names.map(|p| p.get_name().to_string()))
        })
    }
}

impl<E: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for Named<E> {
    type Value = E;
    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<E, clap::Error> {
        // `try_map` formats the error as clap does for every bad value (naming the flag).
        let this = self.clone();
        clap::builder::StringValueParser::new().try_map(move |s| this.find(&s)).parse_ref(cmd, arg, value)
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values().iter().filter_map(|e| e.to_possible_value())))
    }
}

/// A number of seconds in a range: the one check every duration flag goes through,
/// whether clap calls it while parsing ([`TypedValueParser`]) or a command calls
/// [`Seconds::check`] on a value it got otherwise. NaN and infinities are refused
/// (`Duration::from_secs_f64` panics on them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seconds {
    min: f64,
    max: f64,
}

impl Seconds {
    /// A run's budget (`--time`): positive and finite; beyond [`super::time::MAX_SECONDS`]
    /// it saturates, so `--time 1e20` means "no limit to speak of", not an error.
    pub const BUDGET: Seconds = Seconds { min: f64::MIN_POSITIVE, max: f64::MAX };
    /// `min` to `max` seconds, both included.
    pub const fn between(min: f64, max: f64) -> Seconds {
        Seconds { min, max }
    }
    /// `v` when it is in range, else what was expected.
    pub fn check(&self, v: f64) -> Result<f64, String> {
        if v.is_finite() && (self.min..=self.max).contains(&v) {
            Ok(v)
        } else {
            Err(self.expected())
        }
    }
}

impl Range for Seconds {
    type Value = f64;
    fn check(&self, v: f64) -> Result<f64, String> {
        Seconds::check(self, v)
    }
    fn expected(&self) -> String {
        if self.min.to_bits() == Self::BUDGET.min.to_bits() && self.max.to_bits() == Self::BUDGET.max.to_bits() {
            "expected a positive, finite number of seconds".into()
        } else {
            format!("expected seconds between {} and {}", self.min, self.max)
        }
    }
}

impl TypedValueParser for Seconds {
    type Value = f64;
    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<f64, clap::Error> {
        parse_in(*self, cmd, arg, value)
    }
}

/// A memory limit in MiB, checked against a range (`.map(mib_to_bytes)` for bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mib {
    min: u64,
    max: u64,
}

impl Mib {
    /// `min` to `max` MiB, both included.
    pub const fn between(min: u64, max: u64) -> Mib {
        Mib { min, max }
    }
    /// `mb` when it is in range, else what was expected.
    pub fn check(&self, mb: u64) -> Result<u64, String> {
        if (self.min..=self.max).contains(&mb) {
            Ok(mb)
        } else {
            Err(self.expected())
        }
    }
}

impl Range for Mib {
    type Value = u64;
    fn check(&self, v: u64) -> Result<u64, String> {
        Mib::check(self, v)
    }
    fn expected(&self) -> String {
        format!("expected between {} and {}", self.min, self.max)
    }
}

impl TypedValueParser for Mib {
    type Value = u64;
    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<u64, clap::Error> {
        parse_in(*self, cmd, arg, value)
    }
}

/// A range of numbers a flag admits.
trait Range: Copy + Send + Sync + 'static {
    type Value: std::str::FromStr + Clone + Send + Sync + 'static;
    fn check(&self, v: Self::Value) -> Result<Self::Value, String>;
    /// What the flag takes, for a value out of range or not a number at all.
    fn expected(&self) -> String;
}

/// A flag's number in `range`; clap's `try_map` words the error as it does for every
/// bad value (naming the flag), with what was expected.
fn parse_in<R: Range>(
    range: R,
    cmd: &clap::Command,
    arg: Option<&clap::Arg>,
    value: &OsStr,
) -> Result<R::Value, clap::Error> {
    let parse = move |s: String| match s.trim().parse::<R::Value>() {
        Ok(v) => range.check(v),
        Err(_) => Err(range.expected()),
    };
    clap::builder::StringValueParser::new().try_map(parse).parse_ref(cmd, arg, value)
}

/// A clap-derived options struct as it is when no flag is given: its declared defaults.
/// This is how such a struct's `Default` is written, so that a default exists once, in
/// its `#[arg(default_value..)]`. Parsing an empty command line fails only if a declared
/// default does not parse, which the struct's own unit tests (calling `default()`) catch.
pub fn defaults<T: clap::Args + clap::FromArgMatches>() -> T {
    let cmd = T::augment_args(clap::Command::new("defaults").no_binary_name(true));
    let m = cmd.try_get_matches_from(std::iter::empty::<&str>()).expect("declared defaults parse");
    T::from_arg_matches(&m).expect("declared defaults parse")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_refuse_what_a_duration_cannot_be() {
        let day = Seconds::between(0.0, 86_400.0);
        assert_eq!(day.check(0.0), Ok(0.0));
        assert_eq!(day.check(86_400.0), Ok(86_400.0));
        for v in [-1.0, 86_400.5, f64::NAN, f64::INFINITY] {
            assert_eq!(day.check(v).unwrap_err(), "expected seconds between 0 and 86400", "{v}");
        }
        assert_eq!(Seconds::BUDGET.check(1e20), Ok(1e20));
        for v in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(Seconds::BUDGET.check(v).unwrap_err().contains("positive, finite"), "{v}");
        }
        assert_eq!(Mib::between(16, 1 << 24).check(4096), Ok(4096));
        assert!(Mib::between(16, 1 << 24).check(1 << 44).is_err());
    }
}
