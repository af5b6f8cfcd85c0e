//! The ground floor: what every other floor may use and nothing here uses them. Typed
//! errors, hashing, CPU time, the stop flag, atomic writes and collecting seed files.

pub mod cpu;
pub mod error;
pub mod files;
pub mod flags;
pub mod fs;
pub mod hash;
pub mod path;
pub mod stop;
pub mod time;
