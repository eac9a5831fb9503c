//! One module per subcommand: its clap arguments and its `run`.

pub mod analyze;
pub mod build;
pub mod check;
pub mod eval;
pub mod facets;
pub mod ko_dic;
pub mod mcp;
pub mod overlap;
pub mod search;
pub mod serve;
