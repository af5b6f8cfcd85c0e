//! Mutation engines on one edit model. Engines choose [`edit::Edit`]s from a
//! [`choice::Choices`] source; [`edit::apply`] is the one place that changes a script.

pub mod choice;
pub mod edit;
pub mod opfuzz;
