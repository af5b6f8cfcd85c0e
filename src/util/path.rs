//! File names are bytes (POSIX): any name the OS allows is a seed. Paths reach JSON
//! (the store's `campaign.json`, reports printed with `--json`) without loss, and reach
//! events, `meta.json` and reports for people shown lossily ([`shown`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::{Path, PathBuf};

/// `p` for people and logs: its UTF-8 text, with invalid bytes as U+FFFD.
pub fn shown(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A path as JSON: its text when it is UTF-8 (as serde writes a path, so stores written
/// before read the same), else `{"bytes": [..]}` with the name's bytes.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Repr {
    Text(String),
    Bytes { bytes: Vec<u8> },
}

impl Repr {
    fn of(p: &Path) -> Repr {
        use std::os::unix::ffi::OsStrExt;
        match p.to_str() {
            Some(t) => Repr::Text(t.to_string()),
            None => Repr::Bytes { bytes: p.as_os_str().as_bytes().to_vec() },
        }
    }
    fn path(self) -> PathBuf {
        use std::os::unix::ffi::OsStringExt;
        match self {
            Repr::Text(t) => t.into(),
            Repr::Bytes { bytes } => std::ffi::OsString::from_vec(bytes).into(),
        }
    }
}

/// `#[serde(with = "crate::util::path::lossless")]` for a `PathBuf`.
pub mod lossless {
    use super::*;
    pub fn serialize<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
        Repr::of(p).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        Repr::deserialize(d).map(Repr::path)
    }
}

/// `#[serde(with = "crate::util::path::lossless_vec")]` for a `Vec<PathBuf>`.
pub mod lossless_vec {
    use super::*;
    pub fn serialize<S: Serializer>(v: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|p| Repr::of(p)))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
        Ok(Vec::<Repr>::deserialize(d)?.into_iter().map(Repr::path).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct T {
        #[serde(with = "lossless")]
        p: PathBuf,
        #[serde(with = "lossless_vec")]
        v: Vec<PathBuf>,
    }

    #[test]
    fn any_name_round_trips_and_utf8_names_read_as_before() {
        let bad = PathBuf::from(std::ffi::OsStr::from_bytes(b"seeds/a\xff.smt2"));
        let t = T { p: bad.clone(), v: vec!["x/y.smt2".into(), bad.clone()] };
        let j = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<T>(&j).unwrap(), t);
        assert!(j.contains("\"x/y.smt2\""), "{j}");
        assert_eq!(
            serde_json::to_string(&Repr::of(Path::new("a b"))).unwrap(),
            serde_json::to_string(Path::new("a b")).unwrap()
        );
        assert_eq!(shown(&bad), "seeds/a\u{fffd}.smt2");
    }
}
