//! Library side of CLI subcommands that are not engines: `parse`, `dict`.

pub mod files;
pub mod parse_stats;
