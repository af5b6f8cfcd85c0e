//! The ground floor: what every other floor may use and nothing here uses them. Typed
//! errors, the allocator's setting, hashing, CPU time, the stop flag, atomic writes, collecting seed files and
//! escaping text for HTML and SVG.

pub mod alloc;
pub mod cpu;
pub mod error;
pub mod files;
pub mod flags;
pub mod fs;
pub mod hash;
pub mod markup;
pub mod path;
pub mod stop;
pub mod term;
pub mod time;
