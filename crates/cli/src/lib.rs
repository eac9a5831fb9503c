//! The Incident Library's front ends over the build side and the search core: the
//! command line ([`commands`], one file per subcommand), the MCP server over stdio
//! ([`mcp`]) and the local static server ([`serve`]).

pub mod commands;
pub mod mcp;
pub mod serve;
