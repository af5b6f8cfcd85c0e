//! Library side of CLI subcommands that are not engines: `parse`, `check`, `solvers`,
//! `bench-solvers`.

pub mod bench_solvers;
pub mod check;
pub mod files;
pub mod mutate;
pub mod parse_stats;
pub mod storm_check;
pub mod triage;
